/**
 * Races a piece of work against a deadline — the one place that does it, so every budget (an extension's setup,
 * a tool call) clears its timer, reports expiry the same way and never leaves a dangling rejection behind.
 */
import type { Clock } from "./clock.js";
import { setDeadline } from "./deadlines.js";

/** How a raced piece of work ended. */
export type RaceOutcome<T> = { timedOut: false; value: T } | { timedOut: true };

/**
 * Waits for `work`, or for `ms` to pass on `clock` (then `onExpire` runs, e.g. to abort the work). A rejection of
 * `work` rejects the race; a rejection after expiry is ignored. The clock has no default: a budget on the system
 * clock where the host was given another would be one a test cannot move.
 * @example
 * const outcome = await raceTimeout(setup(ctx), 10_000, host.clock);
 * if (outcome.timedOut) throw new McpHostError("EXTENSION_SETUP_TIMEOUT", "…");
 */
export function raceTimeout<T>(work: Promise<T>, ms: number, clock: Clock, onExpire?: () => void): Promise<RaceOutcome<T>> {
  // One promise and no timer of its own: the deadline waits in its clock's list for its budget length (deadlines.ts).
  return new Promise<RaceOutcome<T>>((resolve, reject) => {
    let settled = false;
    const deadline = setDeadline(clock, ms, () => {
      if (settled) return;
      settled = true;
      onExpire?.();
      resolve({ timedOut: true });
    });
    work.then(
      (value) => {
        if (settled) return;
        settled = true;
        deadline.clear();
        resolve({ timedOut: false, value });
      },
      (error: unknown) => {
        // A rejection after expiry is ignored (the race was already answered).
        if (settled) return;
        settled = true;
        deadline.clear();
        reject(error);
      },
    );
  });
}
