/**
 * What a slow or greedy client may hold of the HTTP server itself (docs/design.md §16): the time to send its headers
 * and its whole request (Node's own 60 s and 300 s leave room for slowloris; a socket that never finishes its
 * headers gets 408 and is closed), how long an idle keep-alive connection stays, and how many connections are open
 * at once — in all, and from one client address. A connection over either cap is closed at once, before anything
 * is read from it; the log says so at most once a minute, with the count. The header, request and keep-alive
 * timeouts are Node's own timers on real time: they bound what a socket holds, which no test clock can speed up.
 */
import type { Server as HttpServer, ServerOptions } from "node:http";
import type { Socket } from "node:net";
import type { Clock } from "../../clock.js";
import type { Logger } from "../../logger.js";
import { HTTP_DEFAULTS } from "./http-defaults.js";

/** The bounds of the server's connections (config `http.*`). */
export interface ServerLimitOptions {
  /** Time a client has to send a request's headers, from its first byte (default 10 s). */
  headersTimeoutMs?: number;
  /** Time a client has to send a whole request, body included (default 30 s); at least `headersTimeoutMs`. */
  requestTimeoutMs?: number;
  /** How long an idle keep-alive connection is kept between requests (default 5 s). */
  keepAliveTimeoutMs?: number;
  /** Open connections at most, from every client together (default 4096). */
  maxConnections?: number;
  /** Open connections at most from one client address (default 256); behind a proxy, every client has its address. */
  maxConnectionsPerAddress?: number;
}

/**
 * The options `http.createServer` takes for these limits (the timeouts are checked every quarter of the header
 * timeout, at most every second: Node's default of 30 s would let a slow socket live that much longer).
 * @example
 * const http = createServer(serverOptionsOf(options), app);
 */
export function serverOptionsOf(options: ServerLimitOptions): ServerOptions {
  const headersTimeout = options.headersTimeoutMs ?? HTTP_DEFAULTS.headersTimeoutMs;
  const requestTimeout = Math.max(headersTimeout, options.requestTimeoutMs ?? HTTP_DEFAULTS.requestTimeoutMs);
  return {
    headersTimeout,
    requestTimeout,
    keepAliveTimeout: options.keepAliveTimeoutMs ?? HTTP_DEFAULTS.keepAliveTimeoutMs,
    connectionsCheckingInterval: Math.max(100, Math.min(1_000, Math.floor(headersTimeout / 4))),
  };
}

/** Logs refusals at most once a minute (on `clock`), with how many there were since the last line. */
function refusalLog(logger: Logger, clock: Clock) {
  let lastAt = 0;
  let since = 0;
  return (why: string) => {
    since += 1;
    const now = clock.now();
    if (now - lastAt < 60_000) return;
    logger.warn(`refused ${since} connection${since === 1 ? "" : "s"} since the last such line: ${why}`, { code: "HTTP_CONNECTION_LIMIT" });
    lastAt = now;
    since = 0;
  };
}

/**
 * Applies the connection caps to a server made with `serverOptionsOf`; the refusal lines' once-a-minute window runs
 * on `clock`.
 * @example
 * limitConnections(http, { maxConnections: 1024, maxConnectionsPerAddress: 64 }, logger, host.clock);
 */
export function limitConnections(http: HttpServer, options: ServerLimitOptions, logger: Logger, clock: Clock): void {
  const maxConnections = options.maxConnections ?? HTTP_DEFAULTS.maxConnections;
  const perAddress = options.maxConnectionsPerAddress ?? HTTP_DEFAULTS.maxConnectionsPerAddress;
  const refused = refusalLog(logger, clock);
  http.maxConnections = maxConnections;
  http.on("drop", () => refused(`the server holds its most connections (http.maxConnections ${maxConnections})`));
  const open = new Map<string, number>();
  http.on("connection", (socket: Socket) => {
    const address = socket.remoteAddress ?? "";
    const count = (open.get(address) ?? 0) + 1;
    if (count > perAddress) {
      refused(`one client address holds its most connections (http.maxConnectionsPerAddress ${perAddress})`);
      socket.destroy();
      return;
    }
    open.set(address, count);
    socket.once("close", () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left <= 0) open.delete(address);
      else open.set(address, left);
    });
  });
}
