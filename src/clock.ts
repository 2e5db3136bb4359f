/**
 * The one source of time for parts that keep deadlines (legacy session expiry, the registry's start-up and
 * total-call budgets). Passing a clock in lets tests move time by hand instead of waiting for it or spinning on
 * `Date.now()`; production code uses the system clock.
 */

/** A timer a clock started; `clear()` stops it (calling it twice is harmless). */
export interface ClockTimer {
  clear(): void;
}

/** Reads the time and schedules callbacks. */
export interface Clock {
  /** Milliseconds since the epoch, like `Date.now()`. */
  now(): number;
  /**
   * Calls `callback` once after `ms`. The timer does not keep the process alive on its own unless `keepAlive` is
   * true — which a budget that someone awaits needs (else a process whose only work hangs exits before it expires).
   */
  setTimeout(callback: () => void, ms: number, keepAlive?: boolean): ClockTimer;
  /** Calls `callback` every `ms` until cleared; never keeps the process alive on its own. */
  setInterval(callback: () => void, ms: number): ClockTimer;
}

/**
 * The real clock.
 * @example
 * const timer = systemClock.setTimeout(() => console.log("later"), 1_000); timer.clear();
 */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout(callback, ms, keepAlive = false) {
    const handle = setTimeout(callback, ms);
    if (!keepAlive) handle.unref();
    return { clear: () => clearTimeout(handle) };
  },
  setInterval(callback, ms) {
    const handle = setInterval(callback, ms);
    handle.unref();
    return { clear: () => clearInterval(handle) };
  },
};
