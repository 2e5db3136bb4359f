/**
 * The host's own request counters for the operator page (docs/design.md §18): requests, errors and latency per 10-second
 * slot over the last 5 minutes, kept in a fixed ring whatever the traffic (no Prometheus needed to see them).
 */
import { LATENCY_BUCKETS } from "./metrics.js";

/** One slot of the ring. */
export interface RateSlot {
  /** When the slot starts (ms since the epoch). */
  start: number;
  requests: number;
  /** Answers with a 5xx status. */
  errors: number;
  /**
   * Mean and 95th percentile of the slot's latencies, in ms; 0 when it had none. The percentile is exact (nearest
   * rank) while the slot has held at most 512 timed requests, and beyond that the bound of the bucket it falls in,
   * never more than the slowest request seen: a handful of 3 ms requests reads 3 ms, not a bucket's 5 or 500.
   */
  meanMs: number;
  p95Ms: number;
}

const SLOT_MS = 10_000;
const SLOTS = 30;

/** How many latencies a slot keeps, for an exact percentile; past that it counts them in buckets only. */
const KEPT = 512;

interface Slot {
  start: number;
  requests: number;
  errors: number;
  timed: number;
  sumMs: number;
  maxMs: number;
  /** The first KEPT latencies (ms). */
  kept: number[];
  buckets: number[];
}

function emptySlot(start: number): Slot {
  return { start, requests: 0, errors: 0, timed: 0, sumMs: 0, maxMs: 0, kept: [], buckets: new Array(LATENCY_BUCKETS.length + 1).fill(0) };
}

function p95(slot: Slot): number {
  if (slot.timed === 0) return 0;
  if (slot.timed <= KEPT) {
    const sorted = [...slot.kept].sort((a, b) => a - b);
    return sorted[Math.ceil(sorted.length * 0.95) - 1]!;
  }
  let seen = 0;
  for (let i = 0; i < slot.buckets.length; i++) {
    seen += slot.buckets[i]!;
    if (seen >= slot.timed * 0.95) return Math.min(slot.maxMs, (LATENCY_BUCKETS[i] ?? LATENCY_BUCKETS.at(-1)! * 2) * 1000);
  }
  return slot.maxMs;
}

/**
 * @example
 * const rates = new RequestRates(); rates.record({ status: 200, durationMs: 3, stream: false }); rates.slots();
 */
export class RequestRates {
  private readonly ring: Slot[] = [];

  constructor(private readonly now: () => number = Date.now) {}

  /** Counts one finished request (a long-lived stream is counted, its duration left out). */
  record(sample: { status: number; durationMs: number; stream: boolean }): void {
    const slot = this.current();
    slot.requests += 1;
    if (sample.status >= 500) slot.errors += 1;
    if (sample.stream) return;
    slot.timed += 1;
    slot.sumMs += sample.durationMs;
    slot.maxMs = Math.max(slot.maxMs, sample.durationMs);
    if (slot.kept.length < KEPT) slot.kept.push(sample.durationMs);
    const seconds = sample.durationMs / 1000;
    const index = LATENCY_BUCKETS.findIndex((bound) => seconds <= bound);
    slot.buckets[index === -1 ? LATENCY_BUCKETS.length : index]! += 1;
  }

  /** The last 5 minutes, oldest first, one entry per 10 s (slots without traffic included, as zeros). */
  slots(): RateSlot[] {
    const newest = Math.floor(this.now() / SLOT_MS) * SLOT_MS;
    const out: RateSlot[] = [];
    for (let i = SLOTS - 1; i >= 0; i--) {
      const start = newest - i * SLOT_MS;
      const slot = this.ring.find((s) => s.start === start);
      out.push(
        slot === undefined
          ? { start, requests: 0, errors: 0, meanMs: 0, p95Ms: 0 }
          : { start, requests: slot.requests, errors: slot.errors, meanMs: slot.timed === 0 ? 0 : slot.sumMs / slot.timed, p95Ms: p95(slot) },
      );
    }
    return out;
  }

  private current(): Slot {
    const start = Math.floor(this.now() / SLOT_MS) * SLOT_MS;
    const last = this.ring.at(-1);
    if (last?.start === start) return last;
    const slot = emptySlot(start);
    this.ring.push(slot);
    while (this.ring.length > SLOTS || (this.ring[0] !== undefined && this.ring[0].start <= start - SLOTS * SLOT_MS)) this.ring.shift();
    return slot;
  }
}
