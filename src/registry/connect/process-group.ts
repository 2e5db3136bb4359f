/**
 * Ending a stdio server together with everything it started. Servers are often launched through `npx` or `uvx`,
 * which run the real server as a grandchild and do not forward signals; killing only the direct child would
 * orphan it. Children are spawned as leaders of their own process group, so the whole group can be signalled.
 */

import { existsSync, readdirSync, readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { systemClock, type Clock } from "../../clock.js";

/** How long a group gets between SIGTERM and SIGKILL. */
export const KILL_GRACE_MS = 3000;
/** How often /proc is read while waiting: a group's end has no event to wait on, since its members are not ours. */
const POLL_MS = 25;
const AFTER_KILL_WAIT_MS = 2000;

/**
 * True while any live (not zombie) process of the group led by `pgid` exists. On Linux this reads /proc, because an
 * orphaned member that has exited stays a zombie until init reaps it, and `kill(-pgid, 0)` still counts it.
 * @example
 * if (groupAlive(child.pid)) …
 */
export function groupAlive(pgid: number): boolean {
  if (existsSync("/proc/self/stat")) return liveGroupMembers(pgid).length > 0;
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * The pids of the live processes whose process group is `pgid` (Linux only; empty elsewhere).
 * @example
 * liveGroupMembers(child.pid) // [4120, 4131] — a launcher and the server it started
 */
export function liveGroupMembers(pgid: number): number[] {
  const members: number[] = [];
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return members;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readStat(entry);
    if (stat && stat.pgrp === pgid && stat.state !== "Z" && stat.state !== "X") members.push(Number(entry));
  }
  return members;
}

function readStat(pid: string): { state: string; pgrp: number } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
    return { state: fields[0] ?? "", pgrp: Number(fields[2]) };
  } catch {
    return undefined; // the process ended while we looked
  }
}

/**
 * Sends a signal to every process in the group; a group that is already gone is not an error.
 * @example
 * signalGroup(pid, "SIGKILL");
 */
export function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error;
  }
}

/** Polls /proc (real time) until the group is gone, or until `ms` have passed on `clock`: true when it is gone. */
async function waitGone(pgid: number, ms: number, clock: Clock): Promise<boolean> {
  let expired = false;
  const budget = clock.setTimeout(() => (expired = true), ms);
  try {
    while (groupAlive(pgid)) {
      if (expired) return false;
      await sleep(POLL_MS);
    }
    return true;
  } finally {
    budget.clear();
  }
}

/**
 * SIGTERM to the group, SIGKILL to whatever is left after `graceMs` (measured on `clock`); resolves when the group is
 * gone (or, if even SIGKILL did not clear it in time, with `false`).
 * @example
 * await terminateGroup(child.pid); // no orphan left behind an `npx` launcher
 */
export async function terminateGroup(pgid: number, options: { graceMs?: number; clock?: Clock } = {}): Promise<boolean> {
  const clock = options.clock ?? systemClock;
  signalGroup(pgid, "SIGTERM");
  if (await waitGone(pgid, options.graceMs ?? KILL_GRACE_MS, clock)) return true;
  signalGroup(pgid, "SIGKILL");
  return waitGone(pgid, AFTER_KILL_WAIT_MS, clock);
}
