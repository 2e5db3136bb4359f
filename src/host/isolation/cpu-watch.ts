/**
 * The CPU-time budget of one isolated call. A worker busy with synchronous code cannot watch itself, so the main
 * thread reads the worker's event-loop utilisation: its `active` time grows while the thread runs code (or waits
 * in a blocking call) and stands still while it awaits I/O. The watch wakes only when the budget could be spent —
 * busy time never grows faster than the clock — so it costs one timer per call, not a polling loop.
 */
import type { Worker } from "node:worker_threads";

/** A running watch; `stop()` when the call ends. */
export interface CpuWatch {
  stop(): void;
}

/**
 * Starts watching `worker` (which had been busy `busyAtStart` ms when the call began) and calls `onExceeded` once
 * it has been busy `budgetMs` more. Without the worker object (it could not be found), the budget runs on the clock.
 * @example
 * const watch = watchCpu({ worker, busyAtStart: message.busyMs, budgetMs: 2000, onExceeded: () => abort.abort() });
 */
export function watchCpu(options: { worker: Worker | undefined; busyAtStart: number; budgetMs: number; onExceeded(): void }): CpuWatch {
  const { worker, busyAtStart, budgetMs } = options;
  const startedAt = performance.now();
  const used = () => (worker === undefined ? performance.now() - startedAt : worker.performance.eventLoopUtilization().active - busyAtStart);
  let timer: NodeJS.Timeout | undefined;
  const check = () => {
    const spent = used();
    if (spent >= budgetMs) {
      timer = undefined;
      options.onExceeded();
      return;
    }
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
