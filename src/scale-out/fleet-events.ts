/**
 * The changes one instance raises that every instance's listeners must hear (docs/scale-out.md), over Redis pub/sub.
 * Channels are per toolset for list changes (`<prefix>offer:<toolset>`, and `offer:*` for a change to everything) and
 * per URI for `resources/updated` (`<prefix>resource:<uri>`): an instance follows a channel only while it has a
 * listener for it — a listen stream or a legacy session of a selection with that toolset, a subscription to that
 * URI — so it receives only what it serves. A raiser delivers to its own listeners itself (at once, Redis or not) and
 * ignores its own messages when they come back; a change to several toolsets is one message on each of their
 * channels, heard once. While Redis is down nothing is published (the link says so once); the channels are
 * subscribed again whenever the subscriber connection is ready again.
 */
import { randomUUID } from "node:crypto";
import type { Logger } from "../logger.js";
import type { RedisLink } from "./redis-link.js";

/** A change that crosses the fleet: an offer change of some toolsets (all, without any), or one resource updated. */
export type FleetEvent = { kind: "offer"; toolsets?: readonly string[] } | { kind: "resource"; uri: string };

/** Message ids remembered to hear a change once however many of its channels an instance follows. */
const SEEN_IDS = 1_024;
/** What a message may carry at most (a foreign writer on the channel cannot make an instance hold more). */
const MAX_MESSAGE_BYTES = 64 * 1024;

interface Wire {
  v: 1;
  /** The raising process (not its instance id, so two instances given the same id still hear each other). */
  from: string;
  id: string;
  event: FleetEvent;
}

function eventOf(value: unknown): FleetEvent | undefined {
  const event = value as { kind?: unknown; toolsets?: unknown; uri?: unknown } | null;
  if (event?.kind === "resource") return typeof event.uri === "string" ? { kind: "resource", uri: event.uri } : undefined;
  if (event?.kind !== "offer") return undefined;
  if (event.toolsets === undefined) return { kind: "offer" };
  return Array.isArray(event.toolsets) && event.toolsets.every((t) => typeof t === "string") ? { kind: "offer", toolsets: event.toolsets } : undefined;
}

function wireOf(text: string): Wire | undefined {
  if (text.length > MAX_MESSAGE_BYTES) return undefined;
  try {
    const wire = JSON.parse(text) as Partial<Wire> | null;
    const event = eventOf(wire?.event);
    if (wire?.v !== 1 || typeof wire.from !== "string" || typeof wire.id !== "string" || event === undefined) return undefined;
    return { v: 1, from: wire.from, id: wire.id, event };
  } catch {
    return undefined;
  }
}

/**
 * @example
 * const events = new FleetEvents(link, { prefix: "mcp-host:", logger });
 * const release = events.followResource("note://a"); events.onEvent((e) => …); events.raise({ kind: "resource", uri: "note://a" });
 */
export class FleetEvents {
  private readonly origin = randomUUID();
  private readonly prefix: string;
  private readonly logger: Logger;
  private readonly followed = new Map<string, number>();
  private readonly listeners = new Set<(event: FleetEvent) => void>();
  private readonly seen = new Set<string>();

  constructor(
    private readonly link: RedisLink,
    options: { prefix: string; logger: Logger },
  ) {
    this.prefix = options.prefix;
    this.logger = options.logger;
    link.subscriber.on("message", (channel: string, message: string) => this.received(channel, message));
    link.onSubscriberReady(() => this.subscribeAll());
  }

  /** Publishes a change this instance raised (its own listeners are told by the caller). Never throws. */
  raise(event: FleetEvent): void {
    const channels = event.kind === "resource" ? [this.resourceChannel(event.uri)] : (event.toolsets ?? ["*"]).map((t) => this.offerChannel(t));
    const message = JSON.stringify({ v: 1, from: this.origin, id: randomUUID(), event } satisfies Wire);
    if (!this.link.up) {
      this.link.failed("publishing a change to the fleet", new Error("Redis is not connected"));
      return;
    }
    for (const channel of channels)
      this.link.commands.publish(channel, message).catch((error: unknown) => this.link.failed("publishing a change to the fleet", error));
  }

  /** Hears the changes other instances raised. */
  onEvent(listener: (event: FleetEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Follows the list changes of these toolsets (and changes to everything) until the returned function is called. */
  followOffers(toolsets: readonly string[]): () => void {
    return this.hold(["*", ...toolsets].map((t) => this.offerChannel(t)));
  }

  /** Follows `resources/updated` of one URI until the returned function is called. */
  followResource(uri: string): () => void {
    return this.hold([this.resourceChannel(uri)]);
  }

  /** How many channels this instance follows now (tests and the operator's view read it). */
  get channels(): number {
    return this.followed.size;
  }

  private offerChannel(toolset: string): string {
    return `${this.prefix}offer:${toolset}`;
  }

  private resourceChannel(uri: string): string {
    return `${this.prefix}resource:${uri}`;
  }

  private hold(channels: readonly string[]): () => void {
    const fresh: string[] = [];
    for (const channel of channels) {
      const count = this.followed.get(channel) ?? 0;
      this.followed.set(channel, count + 1);
      if (count === 0) fresh.push(channel);
    }
    if (fresh.length > 0) this.command("subscribe", fresh);
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      const gone: string[] = [];
      for (const channel of channels) {
        const count = (this.followed.get(channel) ?? 1) - 1;
        if (count > 0) this.followed.set(channel, count);
        else {
          this.followed.delete(channel);
          gone.push(channel);
        }
      }
      if (gone.length > 0) this.command("unsubscribe", gone);
    };
  }

  /** (Un)subscribes now when connected; while not, the next `ready` subscribes exactly what is followed then. */
  private command(kind: "subscribe" | "unsubscribe", channels: string[]): void {
    if (this.link.subscriber.status !== "ready") return;
    this.link.subscriber[kind](...channels).catch((error: unknown) => this.link.failed(`${kind} to fleet events`, error));
  }

  private subscribeAll(): void {
    const channels = [...this.followed.keys()];
    for (let i = 0; i < channels.length; i += 1_000) this.command("subscribe", channels.slice(i, i + 1_000));
  }

  private received(channel: string, message: string): void {
    if (!this.followed.has(channel)) return;
    const wire = wireOf(message);
    if (wire === undefined) {
      this.logger.debug("ignored a message on a fleet channel that is not a change mcp-host sent");
      return;
    }
    if (wire.from === this.origin || this.seen.has(wire.id)) return;
    this.seen.add(wire.id);
    if (this.seen.size > SEEN_IDS) this.seen.delete(this.seen.values().next().value!);
    for (const listener of this.listeners) {
      try {
        listener(wire.event);
      } catch (error) {
        this.logger.error(`delivering a change from the fleet failed: ${(error as Error).message}`);
      }
    }
  }
}
