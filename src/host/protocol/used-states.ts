/**
 * Which sealed `requestState`s have been used (docs/design.md §7, docs/security.md): every state the host seals carries
 * a single-use id, and the round it enables runs once — the same state sent again (an approval resent to run a
 * destructive tool twice, any other round replayed) is refused like a forged one. The ids are kept only as long as the
 * states they name could still verify (their TTL), in a bounded table; when a flood fills it, the oldest go and every
 * state issued before them is refused from then on (as if expired), so dropping an id never lets its state run again.
 * In a fleet the claim is made in Redis first (`SharedClaims`), so a state runs once across every instance; while
 * Redis cannot answer, each instance still refuses what it has seen itself.
 */
import type { Clock } from "../../clock.js";

/** A claim store shared by a fleet (Redis): true when this claim is the first, false when not, undefined when it could not tell. */
export interface SharedClaims {
  /** Claims `id` for `ttlMs`: true when no instance claimed it before, false when one did, undefined when it could not tell. */
  claim(id: string, ttlMs: number): Promise<boolean | undefined>;
}

/** How many used ids one instance remembers at most (each a few dozen bytes). */
export const MAX_USED_STATES = 100_000;

export interface UsedStatesOptions {
  clock: Clock;
  /** How long a state verifies after it was issued (its TTL), in ms. */
  ttlMs: number;
  /** The most ids kept (default MAX_USED_STATES). */
  max?: number;
  /** The fleet's claims (Redis), tried first. */
  shared?: SharedClaims;
}

/**
 * @example
 * const used = new UsedStates({ clock, ttlMs: 600_000 });
 * await used.claim("n-1", issuedAt) // true; the second time: false
 */
export class UsedStates {
  /** Used id → when its state was issued, in the order they were used. */
  private readonly used = new Map<string, number>();
  /** States issued at or before this instant are refused: ids of such states may have been dropped. */
  private issuedNoLaterThan = Number.NEGATIVE_INFINITY;
  private readonly max: number;
  /** When the table was last swept of expired ids (a sweep walks it all, so at most once a second). */
  private sweptAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly options: UsedStatesOptions) {
    this.max = options.max ?? MAX_USED_STATES;
  }

  /** The number of ids held now (`/metrics` counts it as held state). */
  get size(): number {
    return this.used.size;
  }

  /** True the first time the state `id` (issued at `issuedAt`) is used; false for a state used before or too old to tell. */
  async claim(id: string, issuedAt: number): Promise<boolean> {
    if (issuedAt <= this.issuedNoLaterThan || this.used.has(id)) return false;
    const remaining = issuedAt + this.options.ttlMs - this.options.clock.now();
    if (remaining <= 0) return false;
    const shared = await this.options.shared?.claim(id, remaining);
    if (shared === false || this.used.has(id)) return false;
    this.remember(id, issuedAt);
    return true;
  }

  private remember(id: string, issuedAt: number): void {
    this.used.set(id, issuedAt);
    if (this.used.size <= this.max) return;
    const now = this.options.clock.now();
    if (now - this.sweptAt >= 1_000) {
      this.sweptAt = now;
      for (const [usedId, at] of this.used) if (at <= now - this.options.ttlMs) this.used.delete(usedId);
    }
    while (this.used.size > this.max) {
      const [first, at] = this.used.entries().next().value as [string, number];
      this.used.delete(first);
      this.issuedNoLaterThan = Math.max(this.issuedNoLaterThan, at);
    }
  }
}
