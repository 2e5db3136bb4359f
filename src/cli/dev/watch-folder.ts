/**
 * Watches a project folder for the dev loop, with chokidar (a maintained watcher) rather than Node's recursive
 * `fs.watch`, which on Node 20 stops seeing a file after an editor's safe save replaced it (write a temp file, rename
 * it over the original). Every change under the folder (but in node_modules, .git and any folder the caller ignores)
 * is reported after a short quiet spell, naming the project's real files: an editor's temp file that came and went
 * within the spell is not one of them. Reports never overlap — a change that arrives while the last one is still being
 * handled runs once more when it is done.
 */
import { relative, sep } from "node:path";
import { watch } from "chokidar";

/** Stops watching. */
export type StopWatching = () => Promise<void>;

/** The files a spell of events touched: what was written or added and is still there, and what was removed for good. */
class Spell {
  private readonly touched = new Map<string, "present" | "removed" | "transient">();
  private readonly addedHere = new Set<string>();

  saw(path: string, event: string): void {
    const before = this.touched.get(path);
    if (event === "unlink") this.touched.set(path, before === "present" && this.addedHere.has(path) ? "transient" : "removed");
    else if (event === "add" || event === "change") {
      if (event === "add" && before === undefined) this.addedHere.add(path);
      this.touched.set(path, "present");
    }
  }

  /** The real files of the spell, sorted: a file added and removed within it (an editor's temp file) is not one. */
  paths(): string[] {
    return [...this.touched]
      .filter(([, state]) => state !== "transient")
      .map(([path]) => path)
      .sort();
  }

  get size(): number {
    return this.touched.size;
  }
}

/**
 * Resolves once the folder is being watched (a change made after that is seen).
 * @example
 * const stop = await watchFolder("/srv/ext", ["dist"], async (paths) => rebuildAndReload(paths));
 * await stop();
 */
export async function watchFolder(
  folder: string,
  ignored: readonly string[],
  onChange: (paths: string[]) => Promise<void>,
  quietMs = 150,
): Promise<StopWatching> {
  const skip = new Set(["node_modules", ".git", ...ignored]);
  let spell = new Spell();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  const flush = () => {
    timer = undefined;
    if (running) return;
    const paths = spell.paths();
    spell = new Spell();
    if (paths.length === 0) return;
    running = onChange(paths).finally(() => {
      running = undefined;
      if (spell.size > 0) flush();
    });
  };
  const watcher = watch(folder, {
    ignoreInitial: true,
    ignored: (path) => {
      const inside = relative(folder, path);
      return inside !== "" && skip.has(inside.split(sep)[0] ?? "");
    },
  });
  watcher.on("all", (event, path) => {
    spell.saw(relative(folder, path), event);
    clearTimeout(timer);
    // Real time on purpose: a quiet spell after real file-system events in the CLI process.
    timer = setTimeout(flush, quietMs);
  });
  await new Promise<void>((resolve) => watcher.once("ready", () => resolve()));
  return async () => {
    clearTimeout(timer);
    await watcher.close();
  };
}
