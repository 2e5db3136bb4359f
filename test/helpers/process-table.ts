/**
 * The machine's process table, read from /proc, for tests that must prove a process is gone (not merely that the one
 * they started exited): the upstream a gateway started, a stdio server's group, what a killed runner left. Linux only,
 * like the rest of the suite. A zombie counts as gone: it runs nothing, and only its parent can reap it.
 */
import { readdirSync, readFileSync, readlinkSync } from "node:fs";

/** One live process. */
export interface ProcessEntry {
  pid: number;
  ppid: number;
  /** Its process group. */
  pgrp: number;
  /** Its command line, arguments joined by spaces. */
  command: string;
  /** Its working folder (empty when it cannot be read). */
  cwd: string;
}

function entryOf(pid: number): ProcessEntry | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (fields[0] === "Z" || fields[0] === "X") return undefined;
    const command = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean).join(" ");
    let cwd = "";
    try {
      cwd = readlinkSync(`/proc/${pid}/cwd`);
    } catch {
      // a process of another user, or one that is ending
    }
    return { pid, ppid: Number(fields[1]), pgrp: Number(fields[2]), command, cwd };
  } catch {
    return undefined; // it ended while we looked
  }
}

/**
 * Every live process, by pid.
 * @example
 * processTable().filter((p) => p.command.includes(marker))
 */
export function processTable(): ProcessEntry[] {
  return readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .map((name) => entryOf(Number(name)))
    .filter((entry): entry is ProcessEntry => entry !== undefined);
}

/**
 * The live descendants of `pid` (children, their children…), whatever process group or session they moved to.
 * @example
 * descendantsOf(child.pid) // [{ pid: 4120, … }, { pid: 4131, … }]
 */
export function descendantsOf(pid: number, table: readonly ProcessEntry[] = processTable()): ProcessEntry[] {
  const found: ProcessEntry[] = [];
  const parents = new Set([pid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const entry of table) {
      if (parents.has(entry.ppid) && !parents.has(entry.pid)) {
        parents.add(entry.pid);
        found.push(entry);
        grew = true;
      }
    }
  }
  return found;
}

/**
 * Resolves with the live processes whose command line contains `marker` once there are none, or rejects naming them
 * after `ms`. Polls /proc: an unrelated process's end has no event to wait on.
 * @example
 * await noProcessWith(uniqueMarker, 5_000);
 */
export async function noProcessWith(marker: string, ms: number): Promise<void> {
  const deadline = performance.now() + ms;
  for (;;) {
    const left = processTable().filter((p) => p.command.includes(marker) && p.pid !== process.pid);
    if (left.length === 0) return;
    if (performance.now() > deadline) throw new Error(`still running after ${ms} ms: ${left.map((p) => `${p.pid} ${p.command.slice(0, 120)}`).join("; ")}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
