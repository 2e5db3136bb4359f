/**
 * Ending a stdio server together with everything it started. Servers are often launched through `npx` or `uvx`,
 * which run the real server as a grandchild and do not forward signals; killing only the direct child would
 * orphan it. Children are spawned as leaders of their own process group, so the whole group can be signalled.
 */

import { existsSync, readdirSync, readFileSync } from "node:fs";

/** How long a group gets between SIGTERM and SIGKILL. */
export const KILL_GRACE_MS = 3000;
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

async function waitGone(pgid: number, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (groupAlive(pgid)) {
    if (Date.now() >= until) return false;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return true;
}

/**
 * SIGTERM to the group, SIGKILL to whatever is left after `graceMs`; resolves when the group is gone (or, if even
 * SIGKILL did not clear it in time, with `false`).
 * @example
 * await terminateGroup(child.pid); // no orphan left behind an `npx` launcher
 */
export async function terminateGroup(pgid: number, graceMs: number = KILL_GRACE_MS): Promise<boolean> {
  signalGroup(pgid, "SIGTERM");
  if (await waitGone(pgid, graceMs)) return true;
  signalGroup(pgid, "SIGKILL");
  return waitGone(pgid, AFTER_KILL_WAIT_MS);
}
