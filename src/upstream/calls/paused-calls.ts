/**
 * Upstream calls waiting for their client's next round (see upstream-call.ts), by id. Bounded in number and in time:
 * a call whose client never comes back is cancelled after `ttlMs` (measured on the gateway's clock), so an
 * abandoned round costs nothing for long — and bounded per owner, so one caller that never comes back cannot hold
 * every place for ten minutes and leave every other caller's questions refused. The ids are random and travel only
 * inside sealed request state.
 */
import type { Clock, ClockTimer } from "../../clock.js";
import type { UpstreamCall } from "./upstream-call.js";

/** Most calls that may wait at once, per server; past it, an upstream's question is refused instead of paused. */
export const MAX_PAUSED_CALLS = 256;

/** Most of them one owner (the caller: a token's subject, else a legacy session) may hold. */
export const MAX_PAUSED_CALLS_PER_OWNER = 32;

/**
 * @example
 * const paused = new PausedCalls(systemClock, 600_000);
 * if (paused.keep(call)) return inputRequired(…);
 */
export class PausedCalls {
  private readonly calls = new Map<string, { call: UpstreamCall; timer: ClockTimer }>();
  private readonly perOwner = new Map<string, number>();

  constructor(
    private readonly clock: Clock,
    private readonly ttlMs: number,
  ) {}

  /** True when one more call of `owner` may wait: room in all, and within the owner's share. */
  hasRoom(owner: string): boolean {
    return this.calls.size < MAX_PAUSED_CALLS && (this.perOwner.get(owner) ?? 0) < MAX_PAUSED_CALLS_PER_OWNER;
  }

  /** How many calls wait now, and for how many owners (the memory soak and /metrics count them). */
  get held(): { calls: number; owners: number } {
    return { calls: this.calls.size, owners: this.perOwner.size };
  }

  /** Keeps a call until its client's next round (or until its time runs out). */
  keep(call: UpstreamCall): void {
    const known = this.calls.get(call.id);
    known?.timer.clear();
    const timer = this.clock.setTimeout(() => this.drop(call.id, "its client did not come back in time"), this.ttlMs);
    this.calls.set(call.id, { call, timer });
    if (known === undefined) this.perOwner.set(call.owner, (this.perOwner.get(call.owner) ?? 0) + 1);
  }

  /** Takes a waiting call out (the client came back), or undefined when there is none of that id. */
  take(id: string): UpstreamCall | undefined {
    const entry = this.calls.get(id);
    if (!entry) return undefined;
    entry.timer.clear();
    this.forget(entry.call);
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
    this.forget(entry.call);
    entry.call.cancel(new Error(reason));
  }

  private forget(call: UpstreamCall): void {
    this.calls.delete(call.id);
    const left = (this.perOwner.get(call.owner) ?? 1) - 1;
    if (left <= 0) this.perOwner.delete(call.owner);
    else this.perOwner.set(call.owner, left);
  }
}
