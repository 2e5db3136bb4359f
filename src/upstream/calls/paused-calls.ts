/**
 * Upstream calls waiting for their client's next round (see upstream-call.ts), by id. Bounded in number and in time:
 * a call whose client never comes back is cancelled after `ttlMs` (measured on the gateway's clock), so an
 * abandoned round costs nothing for long. The ids are random and travel only inside sealed request state.
 */
import type { Clock, ClockTimer } from "../../clock.js";
import type { UpstreamCall } from "./upstream-call.js";

/** Most calls that may wait at once; past it, an upstream's question is refused instead of paused. */
export const MAX_PAUSED_CALLS = 256;

/**
 * @example
 * const paused = new PausedCalls(systemClock, 600_000);
 * if (paused.keep(call)) return inputRequired(…);
 */
export class PausedCalls {
  private readonly calls = new Map<string, { call: UpstreamCall; timer: ClockTimer }>();

  constructor(
    private readonly clock: Clock,
    private readonly ttlMs: number,
  ) {}

  /** True when one more call may wait. */
  hasRoom(): boolean {
    return this.calls.size < MAX_PAUSED_CALLS;
  }

  /** Keeps a call until its client's next round (or until its time runs out). */
  keep(call: UpstreamCall): void {
    this.calls.get(call.id)?.timer.clear();
    const timer = this.clock.setTimeout(() => this.drop(call.id, "its client did not come back in time"), this.ttlMs);
    this.calls.set(call.id, { call, timer });
  }

  /** Takes a waiting call out (the client came back), or undefined when there is none of that id. */
  take(id: string): UpstreamCall | undefined {
    const entry = this.calls.get(id);
    if (!entry) return undefined;
    entry.timer.clear();
    this.calls.delete(id);
    return entry.call;
  }

  /** Cancels every waiting call (the gateway stops, or the server is removed). */
  clear(reason: string): void {
    for (const id of [...this.calls.keys()]) this.drop(id, reason);
  }

  private drop(id: string, reason: string): void {
    const entry = this.calls.get(id);
    if (!entry) return;
    entry.timer.clear();
    this.calls.delete(id);
    entry.call.cancel(new Error(reason));
  }
}
