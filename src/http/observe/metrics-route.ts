/**
 * `/metrics` in the Prometheus text format (docs/design.md §18). On the app's own port it answers anyone when auth is off;
 * with auth on it needs a valid token carrying every scope of `metrics.scopes`. With `metrics.port` it is served
 * instead on a listener of its own, bound to loopback, where nothing else is served and no token is asked for
 * (reaching that port is the credential: keep it off the network). A scrape never fails a request; a scrape that
 * fails answers 503.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { RequestHandler } from "express";
import type { HostMetrics } from "../../observe/metrics.js";
import { callerOf } from "../auth/bearer-auth.js";
import type { HostAuth } from "../auth/host-auth.js";
import { hostAllowed } from "../edge/dns-rebinding.js";

async function answer(metrics: HostMetrics, res: { statusCode: number; setHeader(name: string, value: string): unknown; end(body: string): unknown }) {
  try {
    const text = await metrics.registry.metrics();
    res.statusCode = 200;
    res.setHeader("content-type", metrics.registry.contentType);
    res.end(text);
  } catch {
    res.statusCode = 503;
    res.setHeader("content-type", "text/plain; charset=utf-8");
    res.end("metrics are unavailable right now; retry the scrape\n");
  }
}

/**
 * The handlers of `/metrics` on the app's port, in order.
 * @example
 * app.get("/metrics", ...metricsRoute(metrics, auth, ["metrics:read"]));
 */
export function metricsRoute(metrics: HostMetrics, auth: HostAuth | undefined, scopes: readonly string[]): RequestHandler[] {
  const serve: RequestHandler = (_req, res) => void answer(metrics, res);
  if (auth === undefined) return [serve];
  const scoped: RequestHandler = (req, res, next) => {
    const granted = new Set(callerOf(req)?.scopes ?? []);
    const missing = scopes.filter((scope) => !granted.has(scope));
    if (missing.length === 0) return next();
    auth.refuseScopes(req, res, missing, scopes);
  };
  return [auth.require, scoped, serve];
}

/** A metrics listener of its own. */
export interface MetricsListener {
  /** e.g. http://127.0.0.1:9464/metrics */
  url: URL;
  close(): Promise<void>;
}

/**
 * Serves `GET {path}` alone on `127.0.0.1:{port}`, behind the same Host check as the app's port: a page whose name
 * rebinds to 127.0.0.1 must not read the metrics from a browser on this machine.
 * @example
 * const listener = await listenMetrics(metrics, { port: 9464 }); await listener.close();
 */
export async function listenMetrics(
  metrics: HostMetrics,
  options: { port: number; path?: string; allowedHosts?: readonly string[]; dnsRebindingProtection?: boolean },
): Promise<MetricsListener> {
  const path = options.path ?? "/metrics";
  const hostRefusal = options.dnsRebindingProtection === false ? () => undefined : hostAllowed(options.allowedHosts);
  const server: Server = createServer((req, res) => {
    const refusal = hostRefusal(req);
    if (refusal !== undefined) {
      res.writeHead(403, { "content-type": "text/plain; charset=utf-8" });
      res.end(`${refusal}\n`);
      return;
    }
    const url = (req.url ?? "/").split("?")[0];
    if (req.method !== "GET" || url !== path) {
      res.statusCode = 404;
      res.setHeader("content-type", "text/plain; charset=utf-8");
      res.end(`only GET ${path} is served here\n`);
      return;
    }
    void answer(metrics, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  return {
    url: new URL(`http://127.0.0.1:${address.port}${path}`),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
