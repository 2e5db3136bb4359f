/**
 * Tells listeners that the offer changed — once per burst. An extension that adds ten tools in a row, or a
 * gateway re-listing an upstream, makes one report naming every dropped build and changed toolset, so clients
 * get one `list_changed` instead of ten. The debounce runs on the host's clock.
 */
import type { Clock, ClockTimer } from "../../clock.js";

/** What listeners hear when builds are dropped because the offer changed. */
export interface OfferChange {
  revision: number;
  /** Keys of the cached builds that were dropped. */
  keys: string[];
  /** Toolsets whose contents changed (undefined: everything). */
  toolsets?: string[];
}

type Listener = (change: OfferChange) => void;

export class ChangeFeed {
  private readonly listeners = new Set<Listener>();
  private pending: { toolsets: Set<string> | undefined; keys: Set<string>; timer: ClockTimer | undefined } | undefined;

  constructor(
    private readonly debounceMs: number,
    private readonly clock: Clock,
  ) {}

  /** Hears changes; returns an unsubscribe function. */
  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Adds a change to the current burst (toolsets undefined: everything changed) and (re)starts its timer.
   * @example
   * feed.record(new Set(["time"]), ["time", "text,time"], () => host.revision);
   */
  record(toolsets: ReadonlySet<string> | undefined, droppedKeys: readonly string[], revision: () => number): void {
    const burst = this.pending ?? {
      toolsets: toolsets === undefined ? undefined : new Set<string>(),
      keys: new Set<string>(),
      timer: undefined,
    };
    burst.timer?.clear();
    burst.toolsets = burst.toolsets === undefined || toolsets === undefined ? undefined : new Set([...burst.toolsets, ...toolsets]);
    for (const key of droppedKeys) burst.keys.add(key);
    burst.timer = this.clock.setTimeout(() => {
      this.pending = undefined;
      const change: OfferChange = { revision: revision(), keys: [...burst.keys].sort(), ...(burst.toolsets ? { toolsets: [...burst.toolsets].sort() } : {}) };
      for (const listener of this.listeners) listener(change);
    }, this.debounceMs);
    this.pending = burst;
  }

  /** Drops a burst not yet reported (host stop). */
  cancel(): void {
    this.pending?.timer?.clear();
    this.pending = undefined;
  }
}
