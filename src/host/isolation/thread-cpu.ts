/**
 * CPU time of one thread, read from another. On Linux each thread's user and system time is in
 * /proc/self/task/<tid>/stat (in clock ticks of 10 ms), so the main thread can charge a worker exactly for the CPU
 * it used — on a loaded machine a thread's busy wall-clock time is several times that. Elsewhere there is no such
 * file and the caller falls back to the worker's event-loop busy time.
 */
import { readFileSync, readlinkSync } from "node:fs";

/** /proc reports times in USER_HZ, which Linux fixes at 100 per second for user space. */
const MS_PER_TICK = 10;

/** Where a thread's CPU time can be read, and how much it had used when the reading started. */
export interface ThreadCpuMark {
  tid: number;
  usedMs: number;
}

function usedMs(tid: number): number {
  const stat = readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
  // Fields after the command name (which may hold spaces) in parentheses; utime and stime are the 14th and 15th.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * MS_PER_TICK;
}

/**
 * Called on the thread to be measured: its tid and CPU time so far, or undefined where /proc is not there.
 * @example
 * const mark = markThreadCpu(); // in the worker, sent to the main thread
 */
export function markThreadCpu(): ThreadCpuMark | undefined {
  try {
    const link = readlinkSync("/proc/thread-self");
    const tid = Number(link.slice(link.lastIndexOf("/") + 1));
    return Number.isInteger(tid) ? { tid, usedMs: usedMs(tid) } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Called from any thread: the CPU time the marked thread used since its mark, or undefined once it is gone.
 * @example
 * const spent = cpuSince(mark); // ms
 */
export function cpuSince(mark: ThreadCpuMark): number | undefined {
  try {
    return usedMs(mark.tid) - mark.usedMs;
  } catch {
    return undefined;
  }
}
