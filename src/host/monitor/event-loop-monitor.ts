/**
 * The event-loop monitor (docs/design.md §16): a timer that should fire every `intervalMs`; when it fires late by more
 * than the threshold, the loop was blocked — every client of the host waited — and the warning names the tools
 * that ran on the main thread meanwhile, so an operator knows which extension needs isolation. It never keeps the
 * process alive.
 */
import type { Logger } from "../../logger.js";
import type { ToolActivity, ToolRun } from "./tool-activity.js";

/** Default warning threshold: a loop blocked this long is felt by every client. */
export const DEFAULT_EVENT_LOOP_WARN_MS = 500;

/** A running monitor. */
export interface EventLoopMonitor {
  stop(): void;
}

function describeRuns(runs: readonly ToolRun[]): string {
  if (runs.length === 0) return "while no tool ran on the main thread (something else blocked it)";
  const names = runs.map((run) => `"${run.tool}" (extension "${run.extension}")`).join(", ");
  return `while ${runs.length === 1 ? "tool" : "tools"} ${names} ran on the main thread; an extension whose work grows with its input should ask for isolation (docs/extensions.md, "Isolation")`;
}

/**
 * Starts watching the loop; a block of at least `thresholdMs` logs an `EVENT_LOOP_BLOCKED` warning.
 * @example
 * const monitor = monitorEventLoop({ thresholdMs: 500, activity, logger });
 * monitor.stop();
 */
export function monitorEventLoop(options: { thresholdMs: number; activity: ToolActivity; logger: Logger; intervalMs?: number }): EventLoopMonitor {
  const { thresholdMs, activity, logger } = options;
  const intervalMs = options.intervalMs ?? Math.max(10, Math.min(100, Math.floor(thresholdMs / 2)));
  let last = performance.now();
  // Real time on purpose: the lag of the real event loop is what it measures.
  const timer = setInterval(() => {
    const now = performance.now();
    const blockedMs = Math.round(now - last - intervalMs);
    last = now;
    const runs = activity.sinceLastLook();
    if (blockedMs < thresholdMs) return;
    logger.warn(`the event loop was blocked for ${blockedMs} ms (warning threshold ${thresholdMs} ms) ${describeRuns(runs)}`, {
      code: "EVENT_LOOP_BLOCKED",
      blockedMs,
      thresholdMs,
      tools: runs.map((run) => run.tool),
      extensions: [...new Set(runs.map((run) => run.extension))].sort(),
    });
  }, intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
