/**
 * Races a piece of work against a deadline — the one place that does it, so every budget (an extension's setup,
 * a tool call) clears its timer, reports expiry the same way and never leaves a dangling rejection behind.
 */
import type { Clock } from "./clock.js";

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
export async function raceTimeout<T>(work: Promise<T>, ms: number, clock: Clock, onExpire?: () => void): Promise<RaceOutcome<T>> {
  let timer: { clear(): void } | undefined;
  const expiry = new Promise<RaceOutcome<T>>((resolve) => {
    timer = clock.setTimeout(
      () => {
        onExpire?.();
        resolve({ timedOut: true });
      },
      ms,
      true,
    );
  });
  work.catch(() => {});
  try {
    return await Promise.race([work.then((value) => ({ timedOut: false as const, value })), expiry]);
  } finally {
    timer?.clear();
  }
}
