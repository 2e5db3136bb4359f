/**
 * The CPU-time budget of one isolated call. A worker busy with synchronous code cannot watch itself, so the main
 * thread reads the worker thread's CPU time (thread-cpu.ts); where that cannot be read, the worker's event-loop
 * busy time, which grows while the thread runs code and stands still while it awaits I/O, but also grows while a
 * loaded machine gives the thread no core. The watch wakes only when the budget could be spent — a thread's time
 * never grows faster than the clock — so it costs one timer per call, not a polling loop.
 */
import type { Worker } from "node:worker_threads";
import { cpuSince, type ThreadCpuMark } from "./thread-cpu.js";

/** A running watch; `stop()` when the call ends. */
export interface CpuWatch {
  stop(): void;
}

/** What the worker said about itself when the call began: its CPU mark, and how busy it had been. */
export interface CallStart {
  cpu?: ThreadCpuMark;
  busyMs: number;
}

/**
 * Starts watching `worker` and calls `onExceeded` once the call has used `budgetMs` of CPU (or, without a CPU
 * reading, of busy time; without the worker object either, of the clock).
 * @example
 * const watch = watchCpu({ worker, start: { cpu: message.cpu, busyMs: message.busyMs }, budgetMs: 2000, onExceeded: () => abort.abort() });
 */
export function watchCpu(options: { worker: Worker | undefined; start: CallStart; budgetMs: number; onExceeded(): void }): CpuWatch {
  const { worker, start, budgetMs } = options;
  const startedAt = performance.now();
  const used = (): number => {
    const cpu = start.cpu === undefined ? undefined : cpuSince(start.cpu);
    if (cpu !== undefined) return cpu;
    return worker === undefined ? performance.now() - startedAt : worker.performance.eventLoopUtilization().active - start.busyMs;
  };
  let timer: NodeJS.Timeout | undefined;
  const check = () => {
    const spent = used();
    if (spent >= budgetMs) {
      timer = undefined;
      options.onExceeded();
      return;
    }
    // Real time on purpose: the worker's CPU time only grows in real time, so this is when it may next be over budget.
    timer = setTimeout(check, Math.max(1, Math.ceil(budgetMs - spent)));
    timer.unref();
  };
  timer = setTimeout(check, Math.max(1, Math.ceil(budgetMs - Math.max(0, used()))));
  timer.unref();
  return {
    stop: () => {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
    },
  };
}
