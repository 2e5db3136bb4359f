/**
 * Watches a project folder for the dev loop: every change under it (but in node_modules, .git and any folder the
 * caller ignores) is reported after a short quiet spell, and reports never overlap — a change that arrives while the
 * last one is still being handled runs once more when it is done.
 */
import { watch, type FSWatcher } from "node:fs";
import { sep } from "node:path";

/** Stops watching. */
export type StopWatching = () => void;

/**
 * @example
 * const stop = watchFolder("/srv/ext", ["dist"], async (paths) => rebuildAndReload(paths));
 */
export function watchFolder(folder: string, ignored: readonly string[], onChange: (paths: string[]) => Promise<void>, quietMs = 150): StopWatching {
  const skip = ["node_modules", ".git", ...ignored];
  let pending = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  const flush = () => {
    timer = undefined;
    if (running) return;
    const paths = [...pending].sort();
    pending = new Set();
    running = onChange(paths).finally(() => {
      running = undefined;
      if (pending.size > 0) flush();
    });
  };
  const watcher: FSWatcher = watch(folder, { recursive: true }, (_event, file) => {
    if (!file) return;
    const first = file.split(sep)[0] ?? "";
    if (skip.includes(first)) return;
    pending.add(file);
    clearTimeout(timer);
    // Real time on purpose: a quiet spell after real file-system events in the CLI process, no deadline of the host.
    timer = setTimeout(flush, quietMs);
  });
  return () => {
    clearTimeout(timer);
    watcher.close();
  };
}
