/**
 * Legacy (2025-era) sessions: one SDK transport and one low-level server per `Mcp-Session-Id`, bound to the
 * selection it started on. Neither SDK expires idle sessions, so this store does: an idle TTL, a cap on how many
 * live at once, and a sweep that closes what was abandoned. A session whose client keeps its GET stream open is
 * listening, not idle; the stream itself is ended after `streamMaxAgeMs` (the client reconnects), so nothing is
 * held forever. Time comes from a clock, so tests move it by hand.
 */
import type { ServerResponse } from "node:http";
import type { Server, WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/server";
import type { Clock, ClockTimer } from "../../clock.js";
import type { Logger } from "../../logger.js";
import type { BuildId } from "../../host/build/build-id.js";
import type { ProtocolCore } from "../../host/protocol/sdk-server.js";
import type { SessionSubscriptions } from "../../host/protocol/subscriptions.js";

export interface LegacySession {
  readonly id: string;
  /** The build the session serves: the identity of the selection it started on, as the caller's token narrowed it. */
  readonly served: BuildId;
  /**
   * The build key of the URL it was opened on, before the caller's permissions narrowed it (RequestFacts.requested):
   * every later request must name the same selection, view included.
   */
  readonly requested: string;
  /** The subject of the token that opened it (with auth); only that subject may use it. */
  readonly subject?: string;
  readonly unknown: readonly string[];
  /** Who opened it (the token's subject, else the client address): its sessions count against its share. */
  readonly caller: string;
  readonly transport: WebStandardStreamableHTTPServerTransport;
  readonly server: Server;
  /** The build the session serves; replaced when the offer of its toolsets changes. */
  protocol: ProtocolCore;
  /** True after a list change: the next request rebinds `protocol` to the current build. */
  stale: boolean;
  lastSeen: number;
  readonly subscriptions: SessionSubscriptions;
  /** The session's open GET streams, with when each opened. */
  readonly streams: Map<ServerResponse, number>;
  /** In a fleet: stops following the fleet's channels for this session (called when it is removed). */
  readonly unfollow?: () => void;
}

export interface SessionStoreOptions {
  idleTtlMs: number;
  maxSessions: number;
  /** Live sessions one caller may hold (its share of `maxSessions`; default: all of it). */
  maxSessionsPerCaller?: number;
  /** A GET stream is ended after this long open (default 24 h). */
  streamMaxAgeMs?: number;
  logger: Logger;
  /** What idle TTLs, stream ages and the sweep run on (the app's clock, so the host's). */
  clock: Clock;
}

export class LegacySessionStore {
  readonly idleTtlMs: number;
  readonly maxSessions: number;
  readonly maxSessionsPerCaller: number;
  readonly streamMaxAgeMs: number;
  readonly clock: Clock;
  private readonly logger: Logger;
  private readonly sessions = new Map<string, LegacySession>();
  /** Live sessions per caller, so a caller's share is checked without walking the table. */
  private readonly perCaller = new Map<string, number>();
  private readonly sweeper: ClockTimer;

  constructor(options: SessionStoreOptions) {
    this.idleTtlMs = options.idleTtlMs;
    this.maxSessions = options.maxSessions;
    this.maxSessionsPerCaller = options.maxSessionsPerCaller ?? options.maxSessions;
    this.streamMaxAgeMs = options.streamMaxAgeMs ?? 24 * 60 * 60_000;
    this.logger = options.logger;
    this.clock = options.clock;
    this.sweeper = this.clock.setInterval(() => void this.sweep(), Math.max(1_000, Math.min(60_000, Math.floor(this.idleTtlMs / 2))));
  }

  get size(): number {
    return this.sessions.size;
  }

  get(id: string): LegacySession | undefined {
    return this.sessions.get(id);
  }

  /** The live sessions `caller` holds. */
  heldBy(caller: string): number {
    return this.perCaller.get(caller) ?? 0;
  }

  add(session: LegacySession): void {
    if (this.sessions.has(session.id)) return;
    this.sessions.set(session.id, session);
    this.perCaller.set(session.caller, this.heldBy(session.caller) + 1);
  }

  /** Marks a session as used now (its idle time starts again). */
  touch(session: LegacySession): void {
    session.lastSeen = this.clock.now();
  }

  /** Notes a GET stream of the session: while it is open the session is listening, not idle. */
  openStream(session: LegacySession, res: ServerResponse): void {
    session.streams.set(res, this.clock.now());
    res.once("close", () => {
      session.streams.delete(res);
      session.lastSeen = this.clock.now();
    });
  }

  /** Forgets a session (its transport closed itself, e.g. on DELETE). */
  remove(id: string): void {
    const session = this.sessions.get(id);
    if (session === undefined) return;
    this.sessions.delete(id);
    session.unfollow?.();
    const left = this.heldBy(session.caller) - 1;
    if (left <= 0) this.perCaller.delete(session.caller);
    else this.perCaller.set(session.caller, left);
  }

  /** How many callers hold a session now (the memory soak counts it). */
  get callers(): number {
    return this.perCaller.size;
  }

  all(): IterableIterator<LegacySession> {
    return this.sessions.values();
  }

  /** Ends GET streams open longer than their bound, and closes sessions idle for longer than the TTL; returns how many it closed. */
  async sweep(now = this.clock.now()): Promise<number> {
    for (const session of this.sessions.values()) {
      if (![...session.streams.values()].some((openedAt) => now - openedAt > this.streamMaxAgeMs)) continue;
      this.logger.info(`a legacy session's GET stream was open ${this.streamMaxAgeMs} ms; ended so its client reconnects`, { session: session.id.slice(0, 8) });
      session.transport.closeStandaloneSSEStream();
    }
    const idle = [...this.sessions.values()].filter((s) => s.streams.size === 0 && now - s.lastSeen > this.idleTtlMs);
    for (const session of idle) {
      this.logger.info(`legacy session expired after ${this.idleTtlMs} ms idle`, { session: session.id.slice(0, 8), selection: session.served.key });
      await this.close(session);
    }
    return idle.length;
  }

  async close(session: LegacySession): Promise<void> {
    this.remove(session.id);
    try {
      await session.transport.close();
      await session.server.close();
    } catch (error) {
      this.logger.debug("closing a legacy session failed", { error: (error as Error).message });
    }
  }

  /** Closes every session and stops the sweeper (host shutdown). */
  async closeAll(): Promise<void> {
    this.sweeper.clear();
    await Promise.all([...this.sessions.values()].map((s) => this.close(s)));
  }
}
