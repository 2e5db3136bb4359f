/**
 * What the kernel says about a process, read from /proc (Linux): its CPU time (utime + stime of all its threads),
 * its resident set, and its child processes (a gateway's stdio upstream). CPU time per request from here resists machine noise better than req/s: it counts only
 * what the server itself spent, however the cores were shared.
 */
import type { ChildProcess } from "node:child_process";
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

let ticksPerSecond: number | undefined;

/** USER_HZ, the unit of utime/stime (100 on every Linux we know; asked once). */
function clockTicks(): number {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

/** The fields of /proc/<pid>/stat after the command name, from field 3 (state) on. */
function statFields(pid: number): string[] {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // The command name (field 2) may hold spaces and parentheses: count fields from the last ")".
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
}

/** CPU time (user + system, µs) the process has used so far (its own threads; not its children's). */
export function cpuMicros(pid: number): number {
  const fields = statFields(pid);
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return ((utime + stime) * 1e6) / clockTicks();
}

/** The pids whose parent is `pid`, ascending. */
export function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (Number(statFields(Number(name))[1]) === pid) children.push(Number(name));
    } catch {
      // it exited while we looked
    }
  }
  return children.sort((a, b) => a - b);
}

/** The command line of a process, its arguments joined by spaces. */
export function commandLine(pid: number): string {
  return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean).join(" ");
}

/** Resident set size in bytes (VmRSS). */
export function rssBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
  return match ? Number(match[1]) * 1024 : NaN;
}

/** Every live descendant of `pid` (children, their children, …). */
export function descendantsOf(pid: number): number[] {
  const parents = new Map<number, number[]>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const parent = Number(statFields(Number(name))[1]);
      const list = parents.get(parent) ?? [];
      list.push(Number(name));
      parents.set(parent, list);
    } catch {
      // it exited while we looked
    }
  }
  const found: number[] = [];
  for (let queue = [...(parents.get(pid) ?? [])]; queue.length > 0; ) {
    const next = queue.shift()!;
    found.push(next);
    queue.push(...(parents.get(next) ?? []));
  }
  return found;
}

/** utime + stime + cutime + cstime of one process (µs): its own CPU and that of the children it reaped. */
function ownAndReapedMicros(pid: number): number {
  const fields = statFields(pid);
  return ((Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) * 1e6) / clockTicks();
}

/**
 * CPU time (µs) of a whole process tree so far: the process, every live descendant, and every descendant already
 * reaped (the kernel adds a reaped child's time, its own reaped children's included, to its parent's cutime/cstime).
 * A child that exits between two readings moves from "live" into its parent's reaped time, so the sum stays whole —
 * which is what a gateway that starts an upstream per request or per session costs.
 */
export function treeCpuMicros(pid: number): number {
  let total = ownAndReapedMicros(pid);
  for (const child of descendantsOf(pid)) {
    try {
      total += ownAndReapedMicros(child);
    } catch {
      // it exited while we looked: its time is in its parent's reaped time at the next reading
    }
  }
  return total;
}

/**
 * A child process the suite measures from /proc — its pid, CPU and RSS — and `exited` once it is gone; the CLI host,
 * the forked peers and the other gateways are each one.
 */
export abstract class MeasuredChild {
  protected readonly exited: Promise<void>;

  protected constructor(protected readonly child: ChildProcess) {
    this.exited = new Promise((resolve) => child.once("exit", () => resolve()));
  }

  get pid(): number {
    return this.child.pid!;
  }

  /** CPU time (µs, all threads) the process has used so far. */
  cpuMicros(): number {
    return cpuMicros(this.pid);
  }

  rssBytes(): number {
    return rssBytes(this.pid);
  }
}
