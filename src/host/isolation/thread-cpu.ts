/**
 * CPU time of one thread, read from another. On Linux each thread's user and system time is in
 * /proc/self/task/<tid>/stat (in clock ticks of 10 ms), so the main thread can charge a worker exactly for the CPU
 * it used — on a loaded machine a thread's busy wall-clock time is several times that. Elsewhere there is no such
 * file and the caller falls back to the worker's event-loop busy time.
 */
import { openSync, readFileSync, readlinkSync, readSync } from "node:fs";

/** /proc reports times in USER_HZ, which Linux fixes at 100 per second for user space. */
const MS_PER_TICK = 10;

/** Where a thread's CPU time can be read, and how much it had used when the reading started. */
export interface ThreadCpuMark {
  tid: number;
  usedMs: number;
}

/** utime + stime of a stat line, in ms. */
function parseStat(stat: string): number {
  // Fields after the command name (which may hold spaces) in parentheses; utime and stime are the 14th and 15th.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * MS_PER_TICK;
}

function usedMs(tid: number): number {
  return parseStat(readFileSync(`/proc/self/task/${tid}/stat`, "utf8"));
}

/** This thread's own stat file, opened once: a worker marks itself at every call, so re-reading it must be cheap. */
let own: { tid: number; fd: number; buffer: Buffer } | undefined;

function ownStat(): { tid: number; fd: number; buffer: Buffer } {
  if (own === undefined) {
    const link = readlinkSync("/proc/thread-self");
    const tid = Number(link.slice(link.lastIndexOf("/") + 1));
    if (!Number.isInteger(tid)) throw new Error(`unexpected /proc/thread-self: ${link}`);
    own = { tid, fd: openSync(`/proc/self/task/${tid}/stat`, "r"), buffer: Buffer.alloc(1024) };
  }
  return own;
}

/**
 * Called on the thread to be measured: its tid and CPU time so far, or undefined where /proc is not there.
 * @example
 * const mark = markThreadCpu(); // in the worker, sent to the main thread
 */
export function markThreadCpu(): ThreadCpuMark | undefined {
  try {
    const { tid, fd, buffer } = ownStat();
    const length = readSync(fd, buffer, 0, buffer.length, 0);
    return { tid, usedMs: parseStat(buffer.toString("latin1", 0, length)) };
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
