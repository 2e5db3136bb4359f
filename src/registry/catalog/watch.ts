/**
 * `watch()`: a stream of changes to what the registry offers. A subscriber is registered when watch() is called (so
 * nothing is lost between subscribing and the first iteration), holds at most 64 events, and drops — and counts —
 * rather than slow down a refresh. Every stream ends when the registry closes.
 */
import type { WatchEvent } from "../types.js";

/** Events a subscriber may hold before new ones are dropped. */
export const WATCH_BUFFER = 64;

/** An async iterator of registry changes, with the number of events it had to drop. */
export interface WatchStream extends AsyncIterableIterator<WatchEvent> {
  /** Events dropped because this subscriber's buffer was full. */
  readonly dropped: number;
}

class Subscriber implements WatchStream {
  private readonly buffer: WatchEvent[] = [];
  private waiting?: (result: IteratorResult<WatchEvent>) => void;
  private ended = false;
  dropped = 0;

  constructor(private readonly onEnd: (s: Subscriber) => void) {}

  push(event: WatchEvent): void {
    if (this.ended) return;
    if (this.waiting) {
      const resolve = this.waiting;
      this.waiting = undefined;
      resolve({ value: event, done: false });
    } else if (this.buffer.length < WATCH_BUFFER) this.buffer.push(event);
    else this.dropped++;
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.onEnd(this);
    this.waiting?.({ value: undefined, done: true });
    this.waiting = undefined;
  }

  next(): Promise<IteratorResult<WatchEvent>> {
    const event = this.buffer.shift();
    if (event) return Promise.resolve({ value: event, done: false });
    if (this.ended) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => (this.waiting = resolve));
  }

  return(): Promise<IteratorResult<WatchEvent>> {
    this.buffer.length = 0;
    this.end();
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}

/**
 * Fans events out to subscribers.
 * @example
 * const hub = new WatchHub(); const stream = hub.subscribe(); hub.publish([{ kind: "added", server: "a", tool: "x" }]);
 */
export class WatchHub {
  private readonly subscribers = new Set<Subscriber>();
  private closed = false;

  /** True while anyone is watching. */
  get active(): boolean {
    return this.subscribers.size > 0;
  }

  subscribe(): WatchStream {
    const subscriber = new Subscriber((s) => this.subscribers.delete(s));
    if (this.closed) subscriber.end();
    else this.subscribers.add(subscriber);
    return subscriber;
  }

  publish(events: readonly WatchEvent[]): void {
    for (const subscriber of this.subscribers) for (const event of events) subscriber.push(event);
  }

  /** Ends every stream; later subscribers end at once. */
  close(): void {
    this.closed = true;
    for (const subscriber of [...this.subscribers]) subscriber.end();
  }
}

type Keyed = { key: string; server: string; fingerprint: string };

function diffKind(before: readonly Keyed[], after: readonly Keyed[], field: "tool" | "prompt" | "resource"): WatchEvent[] {
  const old = new Map(before.map((e) => [`${e.server}\u0000${e.key}`, e]));
  const events: WatchEvent[] = [];
  const seen = new Set<string>();
  for (const e of after) {
    const id = `${e.server}\u0000${e.key}`;
    seen.add(id);
    const prev = old.get(id);
    if (!prev) events.push({ kind: "added", server: e.server, [field]: e.key });
    else if (prev.fingerprint !== e.fingerprint) events.push({ kind: "updated", server: e.server, [field]: e.key });
  }
  for (const [id, e] of old) if (!seen.has(id)) events.push({ kind: "removed", server: e.server, [field]: e.key });
  return events;
}

/** What a diff compares: the listed names of an index with a fingerprint of each definition. */
export interface OfferSnapshot {
  tools: Keyed[];
  prompts: Keyed[];
  resources: Keyed[];
}

/**
 * Snapshots an index's offer for diffing.
 * @example
 * const before = snapshotOffer(index.tools, index.prompts, index.resources);
 */
export function snapshotOffer(
  tools: ReadonlyArray<{ name: string; server: string; definition: unknown }>,
  prompts: ReadonlyArray<{ name: string; server: string; definition: unknown }>,
  resources: ReadonlyArray<{ uri: string; server: string; definition: unknown }>,
): OfferSnapshot {
  const fp = (d: unknown) => JSON.stringify(d);
  return {
    tools: tools.map((t) => ({ key: t.name, server: t.server, fingerprint: fp(t.definition) })),
    prompts: prompts.map((p) => ({ key: p.name, server: p.server, fingerprint: fp(p.definition) })),
    resources: resources.map((r) => ({ key: r.uri, server: r.server, fingerprint: fp(r.definition) })),
  };
}

/**
 * The added / removed / updated events between two snapshots, by listed name and server.
 * @example
 * diffOffers(before, after) // [{ kind: "added", server: "a", tool: "x" }]
 */
export function diffOffers(before: OfferSnapshot, after: OfferSnapshot): WatchEvent[] {
  return [
    ...diffKind(before.tools, after.tools, "tool"),
    ...diffKind(before.prompts, after.prompts, "prompt"),
    ...diffKind(before.resources, after.resources, "resource"),
  ];
}
