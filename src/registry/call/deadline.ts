/**
 * The time limits of one upstream request: an idle timeout that progress notifications reset (enforced by the SDK,
 * which also cancels the request upstream when it fires) and a total cap that nothing resets (enforced here, through
 * the request's abort signal, so the SDK cancels upstream the same way, and measured on the registry's clock). The
 * caller's own signal joins in.
 */
import type { Clock } from "../../clock.js";

/** How a request's time ran out, or that its caller gave up. */
export type DeadlineEnd = "idle" | "total" | "caller";

/** The limits of one request and what ended it. */
export interface Deadline {
  /** Pass to the SDK request. */
  readonly requestOptions: { timeout: number; resetTimeoutOnProgress: true; signal: AbortSignal };
  /** Why the request was cut short, judged after it failed with `timedOut` telling whether the SDK saw a timeout. */
  ended(timedOut: boolean): DeadlineEnd | undefined;
  dispose(): void;
}

/**
 * Starts the clock for one request.
 * @example
 * const deadline = startDeadline({ timeoutMs: 60_000, maxTotalMs: 600_000, clock: systemClock, signal });
 * try { await client.callTool(params, { ...deadline.requestOptions, onprogress }); } finally { deadline.dispose(); }
 */
export function startDeadline(options: { timeoutMs: number; maxTotalMs: number; clock: Clock; signal?: AbortSignal }): Deadline {
  const controller = new AbortController();
  let end: DeadlineEnd | undefined;
  const timer = options.clock.setTimeout(() => {
    end ??= "total";
    controller.abort(new Error("total timeout"));
  }, options.maxTotalMs);
  const onCallerAbort = () => {
    end ??= "caller";
    controller.abort(options.signal?.reason ?? new Error("aborted"));
  };
  if (options.signal?.aborted) onCallerAbort();
  else options.signal?.addEventListener("abort", onCallerAbort, { once: true });
  return {
    requestOptions: { timeout: options.timeoutMs, resetTimeoutOnProgress: true, signal: controller.signal },
    ended: (timedOut) => end ?? (timedOut ? "idle" : undefined),
    dispose() {
      timer.clear();
      options.signal?.removeEventListener("abort", onCallerAbort);
    },
  };
}
