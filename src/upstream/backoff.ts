/**
 * How long to wait before the next reconnection attempt: doubling from the first delay up to a cap, each wait
 * jittered (between half and all of it) so servers that went down together are not retried in lockstep.
 */

/** The wait settings, resolved. */
export interface Backoff {
  initialDelayMs: number;
  maxDelayMs: number;
}

/**
 * The wait before attempt `attempt` (0 for the first retry); `random` is in [0, 1).
 * @example
 * backoffDelay({ initialDelayMs: 1000, maxDelayMs: 30_000 }, 3, () => 0.5) // 6000: 8000 capped at 30 000, jittered to 3/4
 */
export function backoffDelay(backoff: Backoff, attempt: number, random: () => number = Math.random): number {
  const full = Math.min(backoff.maxDelayMs, backoff.initialDelayMs * 2 ** Math.min(attempt, 30));
  return Math.round(full / 2 + (full / 2) * random());
}
