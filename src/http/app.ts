/**
 * createHostApp: the express app that serves a host over HTTP (docs/design.md §8). It owns the edge — the Host check,
 * CORS, the Origin check (a CORS origin is an allowed origin), token verification when `auth` is on (§9), body
 * limits, malformed JSON — then resolves the selection, builds (from the cache) what the caller may reach and
 * hands the request to what the serverFactory made for that selection. A client's mistake never gets a 500.
 */
import express, { type Request, type RequestHandler } from "express";
import type { McpHost } from "../host/host.js";
import { mcpCors } from "./cors.js";
import { finalErrorHandler } from "./final-error-handler.js";
import { hostCheck, originCheck } from "./dns-rebinding.js";
import { createHostAuth, type HostAuth } from "./host-auth.js";
import type { HostAppOptions } from "./http-options.js";
import { healthRoute, toolsetsRoute } from "./info-routes.js";
import { sendJsonRpcError } from "./jsonrpc-response.js";
import { CallerLimits } from "./caller-limits.js";
import { mcpRoute } from "./mcp-route.js";
import { requestChain } from "./request-chain.js";
import { requestTarget } from "./request-target.js";
import { observeEdge } from "./observe/mount.js";
import { SelectionEndpoints } from "./selection-endpoints.js";

export interface HostApp {
  /** The express app; mount it or `listen` on it. */
  app: express.Express;
  /** Every selection's MCP endpoint (legacy sessions live here). */
  endpoints: SelectionEndpoints;
  options: Readonly<HostAppOptions>;
  /** Ends every legacy session and modern stream; does not stop the host. */
  close(): Promise<void>;
}

/** Warns once about toolset scopes that guard nothing: a typo there leaves the real toolset open to every token. */
function warnUnguarded(host: McpHost, auth: HostAuth): void {
  const declared = new Set(host.declaredToolsets().map((t) => t.name));
  const stray = auth.permissions.guardedToolsets.filter((name) => !declared.has(name));
  if (stray.length === 0) return;
  host.logger
    .child("http")
    .warn(`auth.toolsetScopes names toolsets no extension declares (${stray.join(", ")}); check the names, a misspelt one guards nothing`, {
      toolsets: stray,
    });
}

function isPreflight(req: Request): boolean {
  return req.method === "OPTIONS" && req.headers["access-control-request-method"] !== undefined;
}

/**
 * @example
 * const { app } = createHostApp(host, { path: "/mcp" }); app.listen(3000, "127.0.0.1");
 * createHostApp(host, { auth: { issuer, audience: "https://mcp.example.com/mcp", jwksUri }, cors: { origin: ["https://app.example.com"] } });
 */
export function createHostApp(host: McpHost, options: HostAppOptions = {}): HostApp {
  const path = options.path ?? "/mcp";
  const logger = host.logger.child("http");
  const auth = options.auth === undefined ? undefined : createHostAuth(options.auth, { path, logger: logger.child("auth") });
  if (auth !== undefined) warnUnguarded(host, auth);
  const endpoints = new SelectionEndpoints(host, options, auth);
  const checked = options.dnsRebindingProtection !== false;
  const app = express();
  app.disable("x-powered-by");
  // The edge's checks run on every request, in this order; they are one router layer (src/http/request-chain.ts).
  const edge: RequestHandler[] = [requestTarget()];
  const observation = observeEdge(app, host, options);
  if (observation.middleware !== undefined) edge.push(observation.middleware);
  if (checked) edge.push(hostCheck(options.allowedHosts ? { allowedHosts: options.allowedHosts } : {}));
  // Public, harmless, and read by browser clients from any origin (it sends its own CORS headers).
  if (auth?.metadata !== undefined) edge.push(auth.metadata);
  if (options.cors) edge.push(mcpCors({ ...(options.cors === true ? { origin: true } : options.cors), preflightContinue: true }));
  if (checked) {
    // A custom serverFactory may bring its own CORS: the MCP path's Origin is then checked after it, by the selection.
    const factoryCors = host.options.serverFactory !== undefined;
    const mcpPath = new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/\/+$/, "")}/?$`, "i");
    edge.push(
      originCheck({ ...(options.allowedOrigins ? { allowedOrigins: options.allowedOrigins } : {}), defer: (req) => factoryCors && mcpPath.test(req.path) }),
    );
  }
  // The preflight of an allowed origin, answered once the Origin check has passed (CORS set its headers above).
  if (options.cors) edge.push((req, res, next) => (isPreflight(req) ? void res.status(204).set("content-length", "0").end() : next()));
  app.use(requestChain(edge));

  app.get("/healthz", healthRoute(host, auth));
  app.get("/toolsets", ...toolsetsRoute(host, options, auth));
  const limits = new CallerLimits(options, logger);
  app.all(path, requestChain(mcpRoute(host, options, auth, limits)));
  observation.routes(auth, endpoints, limits);

  app.use((req, res) => {
    sendJsonRpcError(res, 404, -32601, `Not found: ${req.method} ${req.path}. The MCP endpoint is ${path}; see also /toolsets and /healthz.`);
  });

  app.use(finalErrorHandler(host, logger));

  return { app, endpoints, options, close: () => endpoints.close() };
}
