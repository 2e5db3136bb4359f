/**
 * What the kernel says about a process, read from /proc (Linux): its CPU time (utime + stime of all its threads),
 * its resident set, and its child processes (a gateway's stdio upstream). CPU time per request from here resists machine noise better than req/s: it counts only
 * what the server itself spent, however the cores were shared.
 */
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
