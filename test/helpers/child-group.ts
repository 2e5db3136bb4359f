/**
 * Every process a test starts is the test's to end (CONVENTIONS.md): it is started as the leader of a process group
 * of its own, and ended with everything it started, whatever group that moved to. A gateway starts its stdio
 * upstreams in groups of their own, and a benchmark run starts a dozen servers: killing only the child orphans them
 * (a timed-out bench smoke test once left 29 processes running). `endTree` freezes the whole tree first (SIGSTOP: a
 * stopped process cannot start another), looks again until nothing new appears, then SIGKILLs every group and
 * process it found, and waits until they are gone.
 */
import { type ChildProcess, type SpawnOptions, spawn } from "node:child_process";
import { descendants, type ProcessInfo, processTable } from "./processes.js";

/**
 * `spawn`, with the child leading a new process group (`detached`), so that its group can be signalled as one. Typed
 * as `spawn` itself, so the pipes a `stdio` option asks for are typed as they are.
 * @example
 * const child = spawnInGroup(process.execPath, [script], { stdio: ["ignore", "pipe", "pipe"] });
 * cleanup.add(() => endTree(child));
 */
export const spawnInGroup = ((command: string, args: readonly string[], options: SpawnOptions) =>
  spawn(command, [...args], { ...options, detached: true })) as unknown as typeof spawn;

function signal(target: number, name: NodeJS.Signals): void {
  try {
    process.kill(target, name);
  } catch {
    // gone already (ESRCH), or a zombie's group
  }
}

/** The live processes of the tree under `pid` and of every group that tree's processes lead or belong to. */
function treeOf(pid: number, ownGroup: number): ProcessInfo[] {
  const table = processTable();
  const root = table.find((p) => p.pid === pid);
  const tree = [...(root ? [root] : []), ...descendants(pid)];
  const groups = new Set(tree.map((p) => p.pgrp).filter((g) => g !== ownGroup));
  return [...new Map([...tree, ...table.filter((p) => groups.has(p.pgrp))].map((p) => [p.pid, p])).values()].filter((p) => p.pid !== process.pid);
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once("exit", () => resolve());
  });
}

/** Options for `endTree`. */
export interface EndTreeOptions {
  /** Ask the child alone first (e.g. SIGTERM, to test a graceful shutdown); what is left after `graceMs` is killed. */
  first?: NodeJS.Signals;
  graceMs?: number;
  /** How long the SIGKILLed processes get to be gone before endTree rejects (default 10 s). */
  ms?: number;
}

/**
 * Ends `child` and everything it started, in any process group (never this process's own), and resolves once they
 * are all gone — or rejects naming what is left after `ms`.
 * @example
 * cleanup.add(() => endTree(child));
 * await endTree(cli.child, { first: "SIGTERM", graceMs: 15_000 }); // graceful, then whatever it left
 */
export async function endTree(child: ChildProcess, options: EndTreeOptions = {}): Promise<void> {
  const pid = child.pid;
  if (pid === undefined) return;
  const ownGroup = processTable().find((p) => p.pid === process.pid)?.pgrp ?? -1;
  const found = new Map<number, ProcessInfo>();
  if (options.first !== undefined && child.exitCode === null && child.signalCode === null) {
    // What it started is noted before it may end: its orphans lose the link to it.
    for (const p of treeOf(pid, ownGroup)) found.set(p.pid, p);
    signal(pid, options.first);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([exited(child), new Promise((resolve) => (timer = setTimeout(resolve, options.graceMs ?? 10_000)))]);
    clearTimeout(timer);
  }
  const alive = new Set(processTable().map((p) => p.pid));
  for (const [known] of found) if (!alive.has(known)) found.delete(known);
  // Freeze, then look again: a process started between the look and the freeze has a frozen parent, so it is seen.
  for (const p of found.values()) signal(p.pid, "SIGSTOP");
  for (let round = 0; round < 20; round += 1) {
    const fresh = treeOf(pid, ownGroup).filter((p) => !found.has(p.pid));
    if (fresh.length === 0) break;
    for (const p of fresh) {
      found.set(p.pid, p);
      signal(p.pid, "SIGSTOP");
    }
  }
  for (const group of new Set([...found.values()].map((p) => p.pgrp))) if (group !== ownGroup) signal(-group, "SIGKILL");
  for (const p of found.values()) signal(p.pid, "SIGKILL");
  const deadline = performance.now() + (options.ms ?? 10_000);
  for (;;) {
    const running = new Set(processTable().map((p) => p.pid));
    const left = [...found.values()].filter((p) => running.has(p.pid));
    if (left.length === 0) break;
    if (performance.now() > deadline) throw new Error(`still running after SIGKILL: ${left.map((p) => `${p.pid} ${p.cmd.slice(0, 100)}`).join("; ")}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  await exited(child);
}
