/**
 * What one caller may ask of the MCP endpoint (docs/design.md §16): a request rate (a token bucket: `callerBurst` at
 * once, refilled at `callerRequestsPerSecond`; off at 0), requests in flight at once (`callerMaxConcurrent`;
 * streams that stay open by design — a legacy GET stream, `subscriptions/listen` — do not count), and listen
 * streams open at once (`maxListenStreamsPerCaller`: its share, so one caller cannot hold every stream the
 * endpoints allow). Beyond any, 429 with `Retry-After` and a JSON-RPC error that names the limit. The caller is the verified token's subject when
 * auth is on, else the client address. In a fleet the rate is counted in Redis (`shared`), and by this instance's own
 * bucket while Redis cannot answer; the rest stays per instance. What is kept per caller is bounded: the least
 * recently seen go first.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Clock } from "../../clock.js";
import type { Logger } from "../../logger.js";
import { onResponseClose } from "../edge/connection-tracker.js";
import type { RequestFacts } from "../edge/request-facts.js";
import { HTTP_DEFAULTS, shareDefault } from "../edge/http-defaults.js";
import type { CallerLimitOptions } from "../http-options.js";
import { sendJsonRpcError } from "../edge/jsonrpc-response.js";

/** Callers remembered at most (their buckets); beyond, the least recently seen is forgotten (and starts full). */
const MAX_CALLERS = 100_000;

/** A rate counted somewhere shared (the fleet's Redis): the wait in ms (0: go on), or undefined when it could not tell. */
export interface SharedRate {
  take(caller: string, perSecond: number, burst: number): Promise<number | undefined>;
}

interface Bucket {
  tokens: number;
  at: number;
}

/**
 * Who is calling: the token's subject when a verified token came with the request, else the client address (behind a
 * trusted proxy, the client it forwarded for: `http.trustProxy`).
 * @example
 * callerKeyOf(req, facts) // "subject alice" or "address 127.0.0.1"
 */
export function callerKeyOf(_req: IncomingMessage, facts: RequestFacts): string {
  const subject = facts.caller?.subject;
  return subject !== undefined ? `subject ${subject}` : `address ${facts.client}`;
}

/** One fewer for `key`; the entry goes when none is left (the tables hold only callers with something open). */
function countDown(counts: Map<string, number>, key: string): void {
  const left = (counts.get(key) ?? 1) - 1;
  if (left <= 0) counts.delete(key);
  else counts.set(key, left);
}

export class CallerLimits {
  readonly requestsPerSecond: number;
  readonly burst: number;
  readonly maxConcurrent: number;
  readonly maxListenStreams: number;
  private readonly buckets = new Map<string, Bucket>();
  private readonly inFlight = new Map<string, number>();
  private readonly listening = new Map<string, number>();
  private readonly clock: Clock;
  private readonly shared: SharedRate | undefined;

  constructor(
    options: CallerLimitOptions & { maxConnections?: number; clock: Clock; shared?: SharedRate },
    private readonly logger: Logger,
  ) {
    this.shared = options.shared;
    this.requestsPerSecond = options.callerRequestsPerSecond ?? HTTP_DEFAULTS.callerRequestsPerSecond;
    this.burst = options.callerBurst ?? HTTP_DEFAULTS.callerBurst;
    this.maxConcurrent = options.callerMaxConcurrent ?? shareDefault("callerMaxConcurrent", options);
    this.maxListenStreams = options.maxListenStreamsPerCaller ?? shareDefault("maxListenStreamsPerCaller", options);
    this.clock = options.clock;
  }

  /**
   * The rate check: runs before the body is read, so a caller over its rate costs almost nothing. True when the
   * request may go on; false when it was answered 429. In a fleet with Redis the count is the fleet's (a promise);
   * when Redis cannot answer, this instance's own bucket decides, at the configured rate (the fleet's link logs the
   * outage): a caller then gets at most the rate from each instance, never an unbounded one.
   */
  admitRate(req: IncomingMessage, res: ServerResponse, facts: RequestFacts): boolean | Promise<boolean> {
    if (this.requestsPerSecond === 0) return true;
    const key = callerKeyOf(req, facts);
    if (this.shared === undefined) return this.answerRate(this.take(key), key, res);
    return this.shared.take(key, this.requestsPerSecond, this.burst).then((wait) => this.answerRate(wait ?? this.take(key), key, res));
  }

  private answerRate(wait: number, key: string, res: ServerResponse): boolean {
    if (wait === 0) return true;
    const seconds = Math.max(1, Math.ceil(wait / 1000));
    this.logger.debug(`refused a request of ${key}: over its rate`, { code: "HTTP_RATE_LIMITED" });
    sendJsonRpcError(
      res,
      429,
      -32000,
      `Too many requests: this caller may send ${this.requestsPerSecond} requests a second, ${this.burst} at once (http.callerRequestsPerSecond, http.callerBurst); retry after ${seconds} s.`,
      { "retry-after": String(seconds) },
    );
    return false;
  }

  /** The concurrency check: runs once the body is read (a `subscriptions/listen` stream is known then). */
  admitConcurrent(req: IncomingMessage, res: ServerResponse, facts: RequestFacts): boolean {
    if (facts.stream) return true;
    const key = callerKeyOf(req, facts);
    const running = this.inFlight.get(key) ?? 0;
    if (running >= this.maxConcurrent) {
      this.logger.debug(`refused a request of ${key}: ${running} already in flight`, { code: "HTTP_RATE_LIMITED" });
      sendJsonRpcError(
        res,
        429,
        -32000,
        `Too many requests at once: this caller may have ${this.maxConcurrent} requests in flight (http.callerMaxConcurrent); retry after 1 s.`,
        { "retry-after": "1" },
      );
      return false;
    }
    this.inFlight.set(key, running + 1);
    onResponseClose(res, () => countDown(this.inFlight, key));
    return true;
  }

  /** The listen-stream check: runs once the body is read; a caller's open `subscriptions/listen` streams are counted. */
  admitListen(req: IncomingMessage, res: ServerResponse, facts: RequestFacts): boolean {
    if (!facts.stream || req.method !== "POST") return true;
    const key = callerKeyOf(req, facts);
    const open = this.listening.get(key) ?? 0;
    if (open >= this.maxListenStreams) {
      this.logger.debug(`refused a listen stream of ${key}: ${open} already open`, { code: "HTTP_RATE_LIMITED" });
      sendJsonRpcError(
        res,
        429,
        -32000,
        `Too many listen streams: this caller may hold ${this.maxListenStreams} subscriptions/listen streams open at once (http.maxListenStreamsPerCaller); close one first.`,
        { "retry-after": "5" },
      );
      return false;
    }
    this.listening.set(key, open + 1);
    onResponseClose(res, () => countDown(this.listening, key));
    return true;
  }

  /** The callers each table remembers now (`/metrics` shows them; the memory soak counts them). */
  held(): Record<string, number> {
    let streams = 0;
    for (const open of this.listening.values()) streams += open;
    return { rate_buckets: this.buckets.size, callers_in_flight: this.inFlight.size, callers_listening: this.listening.size, caller_listen_streams: streams };
  }

  /** Takes a token from the caller's bucket: 0 when it had one, else the milliseconds until it will. */
  private take(key: string): number {
    const now = this.clock.now();
    const seen = this.buckets.get(key);
    const bucket = seen ?? { tokens: this.burst, at: now };
    if (seen !== undefined) this.buckets.delete(key);
    bucket.tokens = Math.min(this.burst, bucket.tokens + ((now - bucket.at) / 1000) * this.requestsPerSecond);
    bucket.at = now;
    this.buckets.set(key, bucket);
    if (this.buckets.size > MAX_CALLERS) this.buckets.delete(this.buckets.keys().next().value!);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return ((1 - bucket.tokens) / this.requestsPerSecond) * 1000;
  }
}
