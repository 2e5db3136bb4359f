/**
 * Process bookkeeping for tests: every process a test run started (children and their descendants, and
 * members of their process groups, which outlive their parents when a launcher dies) must be gone after close.
 * Linux /proc is read directly so zombies (exited, not yet reaped) count as gone.
 */
import { readdirSync, readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";

/** One row of the process table. */
export interface ProcessInfo {
  pid: number;
  ppid: number;
  pgrp: number;
  state: string;
  cmd: string;
}

/** The live (non-zombie) processes of the machine. */
export function processTable(): ProcessInfo[] {
  const rows: ProcessInfo[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const state = fields[0] ?? "";
      if (state === "Z" || state === "X") continue;
      const cmd = readFileSync(`/proc/${entry}/cmdline`, "utf8").replace(/\0/g, " ").trim();
      rows.push({ pid: Number(entry), ppid: Number(fields[1]), pgrp: Number(fields[2]), state, cmd });
    } catch {
      // gone while we looked
    }
  }
  return rows;
}

/** The live descendants of `root` (default: this process). */
export function descendants(root: number = process.pid): ProcessInfo[] {
  const table = processTable();
  const out: ProcessInfo[] = [];
  const frontier = [root];
  while (frontier.length > 0) {
    const parent = frontier.pop()!;
    for (const row of table) {
      if (row.ppid === parent) {
        out.push(row);
        frontier.push(row.pid);
      }
    }
  }
  return out;
}

/** True while `pid` is a live (non-zombie) process. */
export function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const state = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0];
    return state !== "Z" && state !== "X";
  } catch {
    return false;
  }
}

const POLL_MS = 20;

/**
 * Polls `check` (a look at /proc) every 20 ms until it holds, at most `attempts` times (400: about 8 s). For a
 * process's death only: the processes a registry starts are not this process's children, so their end has no
 * event to wait on here. Bounded by a count of attempts, never by reading the wall clock.
 */
export async function untilProcesses(check: () => boolean, what: string, attempts = 400): Promise<void> {
  for (let attempt = 0; !check(); attempt++) {
    if (attempt >= attempts) throw new Error(`still waiting after ${attempts} looks at /proc: ${what}`);
    await sleep(POLL_MS);
  }
}

/**
 * Records the processes a test started and, later, proves none of them (nor anything left in their process groups)
 * is still alive.
 */
export class ProcessTracker {
  private readonly baseline = new Set(descendants().map((p) => p.pid));
  private readonly ignored = new Set<number>();
  private readonly seen = new Map<number, ProcessInfo>();
  private readonly groups = new Set<number>();

  /** Excludes a process the test manages itself (and its descendants). */
  ignore(pid: number): void {
    this.ignored.add(pid);
    for (const d of descendants(pid)) this.ignored.add(d.pid);
  }

  /** Remembers every current descendant (and its process group) that is not baseline, esbuild or ignored. */
  snapshot(extraGroups: readonly number[] = []): ProcessInfo[] {
    const fresh = descendants().filter((p) => !this.baseline.has(p.pid) && !this.ignored.has(p.pid) && !p.cmd.includes("esbuild"));
    for (const p of fresh) {
      this.seen.set(p.pid, p);
      if (p.pgrp !== process.pid && p.pgrp !== processGroupOfSelf()) this.groups.add(p.pgrp);
    }
    for (const g of extraGroups) this.groups.add(g);
    return fresh;
  }

  /** Everything remembered is gone, and no live process remains in any remembered group; returns what was checked. */
  async assertAllGone(): Promise<number> {
    this.snapshot();
    const leftovers = () => [
      ...[...this.seen.values()].filter((p) => alive(p.pid)),
      ...processTable().filter((p) => this.groups.has(p.pgrp) && !this.seen.has(p.pid)),
    ];
    try {
      await untilProcesses(() => leftovers().length === 0, "test processes to exit", 300);
    } catch {
      const left = leftovers();
      for (const p of left) {
        try {
          process.kill(p.pid, "SIGKILL");
        } catch {
          // already gone
        }
      }
      throw new Error(`processes left alive after close: ${left.map((p) => `${p.pid} ${p.cmd}`).join("; ")}`);
    }
    const checked = this.seen.size;
    this.seen.clear();
    this.groups.clear();
    return checked;
  }
}

let ownGroup: number | undefined;
function processGroupOfSelf(): number {
  if (ownGroup === undefined) {
    const stat = readFileSync("/proc/self/stat", "utf8");
    ownGroup = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]);
  }
  return ownGroup;
}

/**
 * Resolves once no live process's command line contains `marker` (a unique word a test put in the arguments of what
 * it started); rejects naming what is still running after `attempts` looks (300: about 6 s).
 * @example
 * await noProcessWith(uniqueMarker);
 */
export async function noProcessWith(marker: string, attempts = 300): Promise<void> {
  const left = () => processTable().filter((p) => p.cmd.includes(marker) && p.pid !== process.pid);
  await untilProcesses(() => left().length === 0, `no process with "${marker}" in its command line`, attempts).catch(() => {
    throw new Error(
      `still running: ${left()
        .map((p) => `${p.pid} ${p.cmd.slice(0, 120)}`)
        .join("; ")}`,
    );
  });
}
