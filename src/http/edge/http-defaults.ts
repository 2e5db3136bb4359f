/**
 * Every bound of the HTTP face and its default, in one place (docs/design.md §16, docs/reliability.md): what a server
 * holds for a client — time, connections, requests, sessions, streams, bytes — has a limit here even when nobody
 * configures one. The config schema carries the same numbers (a test keeps the two in step). A per-caller share left
 * unset follows its table (`shareDefault`): half of it, at most the absolute default here.
 */
import { CALLER_SHARES, type CallerShareKey, callerShare, type ShareTable } from "../../per-caller-share.js";

/**
 * @example
 * const timeout = options.headersTimeoutMs ?? HTTP_DEFAULTS.headersTimeoutMs;
 */
export const HTTP_DEFAULTS = {
  /** Time a client has to send a request's headers (Node's own default: 60 s). */
  headersTimeoutMs: 10_000,
  /** Time a client has to send a whole request, body included (Node's own default: 300 s). */
  requestTimeoutMs: 30_000,
  /** How long an idle keep-alive connection is kept open between requests. */
  keepAliveTimeoutMs: 5_000,
  /** Open connections at most, from every client together; beyond, a new one is closed at once. */
  maxConnections: 4_096,
  /** Open connections at most from one socket peer (a proxy in front is one peer): not a per-caller share. */
  maxConnectionsPerAddress: 256,
  /** Requests a second one caller may send on average (0: no rate limit). */
  callerRequestsPerSecond: 0,
  /** Requests one caller may send at once above its rate (the bucket's size). */
  callerBurst: 100,
  /** Requests of one caller in flight at once (streams excepted): at most half of `maxConnections`. */
  callerMaxConcurrent: CALLER_SHARES.callerMaxConcurrent.most,
  /** Deepest nesting of arrays and objects in a request body. */
  maxJsonDepth: 64,
  /** Largest request body, in bytes. */
  maxBodyBytes: 4 * 1024 * 1024,
  /** Live legacy (2025) sessions at most. */
  maxSessions: 10_000,
  /** Live legacy sessions one caller may hold: its share of `maxSessions` (at most half), so one caller cannot lock the rest out. */
  maxSessionsPerCaller: CALLER_SHARES.maxSessionsPerCaller.most,
  /** Open `subscriptions/listen` streams one caller may hold at once: at most half of `maxConnections`. */
  maxListenStreamsPerCaller: CALLER_SHARES.maxListenStreamsPerCaller.most,
  /** Resource URIs one legacy session, or one listen stream, may follow at once. */
  maxSubscriptionsPerSession: 256,
  /** The longest resource URI that may be subscribed to, in characters. */
  maxSubscriptionUriLength: 2_048,
  /** A legacy session ends after this long without traffic (an open GET stream is traffic). */
  sessionIdleTtlMs: 30 * 60_000,
  /** A legacy session's GET stream is ended after this long open (the client reconnects). */
  streamMaxAgeMs: 24 * 60 * 60_000,
  /** How long requests in flight may finish on shutdown. */
  shutdownTimeoutMs: 10_000,
} as const;

/**
 * What a per-caller share is when the options leave it unset: half its table as the options size it, at most its
 * absolute default (HTTP_DEFAULTS).
 * @example
 * shareDefault("maxSessionsPerCaller", { maxSessions: 20 }) // 10
 * shareDefault("maxSessionsPerCaller", {}) // 100
 */
export function shareDefault(key: CallerShareKey, tables: { readonly [table in ShareTable]?: number | undefined }): number {
  const { table, most } = CALLER_SHARES[key];
  return callerShare(tables[table] ?? HTTP_DEFAULTS[table], most);
}

/**
 * The lingering close after an answer sent before the request's body was read (lingering-close.ts): the rest of the
 * body is read and dropped, at most `bodyLimits` times `http.maxBodyBytes` of it, for at most `ms`.
 * @example
 * const maxBytes = LINGER.bodyLimits * (options.maxBodyBytes ?? HTTP_DEFAULTS.maxBodyBytes);
 */
export const LINGER = { bodyLimits: 2, ms: 5_000 } as const;
