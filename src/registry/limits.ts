/**
 * The registry's limits: its time limits, resolved per server (a spec's own setting, else the registry's, else the
 * default), the clock they run on, and the two ways the registry enforces a budget — an abort signal that fires when
 * it runs out, and a wait that gives up; and the size and nesting every answer is read within (answers/). Every
 * budget the registry keeps runs on `RegistryOptions.clock`, so a test can move time instead of waiting for it; only
 * the SDK's own per-request idle timeout runs on the system clock.
 */
import { systemClock, type Clock } from "../clock.js";
import { type AnswerLimits, answerLimits } from "./answers/answer-limits.js";
import type { RegistryOptions, ServerSpecification } from "./types.js";

/** Idle timeout per request when nobody sets one. */
export const DEFAULT_CALL_TIMEOUT_MS = 60_000;
/** Start-up deadline when nobody sets one. */
export const DEFAULT_STARTUP_TIMEOUT_MS = 10_000;

/** The limits that apply to each server of one registry. */
export interface Limits {
  /** Idle timeout per request, reset by progress. */
  timeoutOf(spec: ServerSpecification): number;
  /** Cap on a call's whole duration (default: ten times the idle timeout). */
  totalOf(spec: ServerSpecification): number;
  /** The one deadline for connecting and listing every server. */
  startupMs: number;
  /** What every registry budget is measured on. */
  clock: Clock;
  /** How much of an answer is read, and how deep it may nest. */
  answers: AnswerLimits;
}

/**
 * Resolves the limits of a registry's options.
 * @example
 * resolveLimits({ callTimeoutMs: 5000 }).totalOf(spec) // 50000 unless the spec sets maxTotalTimeoutMs
 */
export function resolveLimits(options: RegistryOptions): Limits {
  const timeoutOf = (spec: ServerSpecification) => spec.timeoutMs ?? options.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
  return {
    timeoutOf,
    totalOf: (spec) => spec.maxTotalTimeoutMs ?? options.maxTotalTimeoutMs ?? timeoutOf(spec) * 10,
    startupMs: options.startupTimeoutMs ?? DEFAULT_STARTUP_TIMEOUT_MS,
    clock: options.clock ?? systemClock,
    answers: answerLimits(options),
  };
}

/** A budget running on a clock: its signal aborts when it runs out; `clear()` stops it early. */
export interface Budget {
  readonly signal: AbortSignal;
  clear(): void;
}

/**
 * Starts a budget of `ms` on `clock`; when it runs out, the signal aborts with `reason`.
 * @example
 * const startup = startBudget(clock, 10_000, "start-up deadline");
 * try { await connect({ signal: startup.signal }); } finally { startup.clear(); }
 */
export function startBudget(clock: Clock, ms: number, reason: string): Budget {
  const controller = new AbortController();
  const timer = clock.setTimeout(() => controller.abort(new Error(reason)), ms);
  return { signal: controller.signal, clear: () => timer.clear() };
}

/**
 * Settles like `promise`, or rejects with the signal's reason once it aborts (for steps that might not honour it);
 * with no signal, it is `promise` itself.
 * @example
 * const client = await raceAbort(connection.ready(options), startup.signal);
 */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/**
 * Waits for `promise` at most `ms` on `clock`: its value, or `undefined` when time ran out first or it rejected
 * (for best-effort waits: a session's end, a dying child's exit, writes in flight).
 * @example
 * const exit = await waitAtMost(clock, exited, 1_000); // undefined if the child did not exit within 1 s
 */
export function waitAtMost<T>(clock: Clock, promise: Promise<T>, ms: number): Promise<T | undefined> {
  return new Promise<T | undefined>((resolve) => {
    const timer = clock.setTimeout(() => resolve(undefined), ms);
    promise
      .then(
        (value) => resolve(value),
        () => resolve(undefined),
      )
      .finally(() => timer.clear());
  });
}
