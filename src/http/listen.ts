/**
 * Listening and graceful shutdown (docs/design.md §8): bind, report the URL, and on close stop accepting, let
 * in-flight requests finish (bounded), end sessions and streams, then stop the host (disposing extensions).
 */
import { createServer, type Server as HttpServer } from "node:http";
import { type AddressInfo, Server } from "node:net";
import type { ClockTimer } from "../clock.js";
import type { McpHost } from "../host/host.js";
import { createHostApp, type HostApp } from "./app.js";
import { trackConnections } from "./edge/connection-tracker.js";
import type { HostAppOptions } from "./http-options.js";
import { HTTP_DEFAULTS } from "./edge/http-defaults.js";
import { limitConnections, serverOptionsOf, type ServerLimitOptions } from "./edge/server-limits.js";
import { listenMetrics, type MetricsListener } from "./observe/metrics-route.js";
import { defined } from "../defined.js";

/** How long an idle keep-alive socket may still bring a request once shutdown starts. */
const IDLE_GRACE_MS = 1_000;

export interface ListenOptions extends HostAppOptions, ServerLimitOptions {
  /** Interface to bind (default 127.0.0.1). */
  host?: string;
  /** Port (default 3000; 0 picks a free one). */
  port?: number;
  /** How long in-flight requests get to finish on close (default 10 000 ms). */
  shutdownTimeoutMs?: number;
}

export interface ListeningHost {
  /** The MCP endpoint's URL, e.g. http://127.0.0.1:3000/mcp */
  url: URL;
  /** The base URL, e.g. http://127.0.0.1:3000 */
  baseUrl: URL;
  http: HttpServer;
  hostApp: HostApp;
  /** `/metrics` on its own loopback port (with `metrics.port`). */
  metrics?: MetricsListener;
  /** Graceful shutdown; also stops the host unless `{ stopHost: false }`. */
  close(options?: { stopHost?: boolean }): Promise<void>;
}

/**
 * @example
 * const served = await listenHost(host, { port: 0 }); console.log(served.url.href); await served.close();
 */
export async function listenHost(host: McpHost, options: ListenOptions = {}): Promise<ListeningHost> {
  const hostApp = createHostApp(host, options);
  // The drain's deadline runs on the app's clock (the host's unless the options name one), as every other deadline.
  const clock = options.clock ?? host.clock;
  const http = createServer(serverOptionsOf(options), hostApp.listener);
  limitConnections(http, options, host.logger.child("http"), clock);
  const connections = trackConnections(http, clock);
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(options.port ?? 3000, options.host ?? "127.0.0.1", () => {
      http.off("error", reject);
      resolve();
    });
  });
  const address = http.address() as AddressInfo;
  const shownHost = address.family === "IPv6" ? `[${address.address}]` : address.address;
  const baseUrl = new URL(`http://${shownHost === "0.0.0.0" || shownHost === "[::]" ? "127.0.0.1" : shownHost}:${address.port}`);
  const url = new URL(options.path ?? "/mcp", baseUrl);
  const metricsHere = options.observability?.metrics;
  const metrics =
    metricsHere !== undefined && options.metrics?.port !== undefined
      ? await listenMetrics(metricsHere, {
          port: options.metrics.port,
          ...(options.metrics.path ? { path: options.metrics.path } : {}),
          ...(options.allowedHosts ? { allowedHosts: options.allowedHosts } : {}),
          ...defined({ dnsRebindingProtection: options.dnsRebindingProtection }),
        })
      : undefined;
  let closing: Promise<void> | undefined;
  const close = (closeOptions: { stopHost?: boolean } = {}) => {
    closing ??= (async () => {
      const timeout = options.shutdownTimeoutMs ?? HTTP_DEFAULTS.shutdownTimeoutMs;
      const deadline = clock.now() + timeout;
      const left = () => Math.max(0, deadline - clock.now());
      // Stop listening, but not as http.close() does, which also drops idle keep-alive sockets at once: a request
      // their client has already sent would be lost with them.
      const stopped = new Promise<void>((resolve) => Server.prototype.close.call(http, () => resolve()));
      connections.drain();
      // Ordinary requests finish first (bounded); a request already on its way on an idle keep-alive socket gets a
      // moment to arrive and be answered (with Connection: close); then idle sockets go, then sessions and streams.
      await connections.drained(left());
      await connections.idleGone(Math.min(IDLE_GRACE_MS, left()));
      await connections.drained(left());
      connections.closeIdle();
      await hostApp.close();
      let timer: ClockTimer | undefined;
      await Promise.race([stopped, new Promise<void>((resolve) => (timer = clock.setTimeout(resolve, timeout, true)))]);
      timer?.clear();
      http.closeAllConnections();
      // What http.close() does besides: stop the timer that checks request timeouts.
      http.close(() => {});
      await metrics?.close();
      if (closeOptions.stopHost !== false) await host.stop();
    })();
    return closing;
  };
  return { url, baseUrl, http, hostApp, ...defined({ metrics }), close };
}
