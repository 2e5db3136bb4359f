/**
 * createHostApp: what serves a host over HTTP (docs/design.md §8). It puts three things together: the edge (every
 * request: facts, target, Host, routing — edge/edge.ts), the selection server the host builds every selection's
 * handler from (CORS, token, permissions, limits, then MCP serving — mcp/selection-server.ts), and the other routes
 * on express (`/toolsets`, `/healthz`, the RFC 9728 metadata, the operator page, `/metrics`). The MCP path never goes
 * through express's router: the edge hands it straight to the server built for its selection.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import express, { type Request } from "express";
import type { Clock } from "../clock.js";
import type { McpHost } from "../host/host.js";
import { OPEN_SERVING, type HostServing } from "../host/serving-port.js";
import { createHostAuth, type HostAuth } from "./auth/host-auth.js";
import type { HostAuthOptions } from "./auth/host-auth-options.js";
import { createEdge } from "./edge/edge.js";
import { originCheck } from "./edge/dns-rebinding.js";
import { finalErrorHandler } from "./edge/final-error-handler.js";
import { HTTP_DEFAULTS, LINGER } from "./edge/http-defaults.js";
import { lingerAfterEarlyAnswers } from "./edge/lingering-close.js";
import { compileTrustProxy, type TrustProxy } from "./edge/client-address.js";
import { factsOf } from "./edge/request-facts.js";
import { sendJsonRpcError } from "./edge/jsonrpc-response.js";
import type { HostAppOptions } from "./http-options.js";
import { healthRoute, toolsetsRoute } from "./info-routes.js";
import { discoveryRoutes, endpointLinksOf } from "./discovery-routes.js";
import { CallerLimits } from "./mcp/caller-limits.js";
import { mcpCors } from "./mcp/cors.js";
import { SelectionEndpoints } from "./mcp/selection-endpoints.js";
import { SelectionServer } from "./mcp/selection-server.js";
import { observeEdge } from "./observe/mount.js";
import { defined } from "../defined.js";

export interface HostApp {
  /** The node request listener: give it to `http.createServer` (what `listenHost` does). */
  listener: (req: IncomingMessage, res: ServerResponse) => void;
  /** The same as express middleware, for mounting the host in an app of your own. */
  app: express.Express;
  /**
   * Every selection's MCP endpoint (legacy sessions live here). Not part of the supported API: its type is the HTTP
   * layer's own and may change in any release (tests read its sessions).
   * @internal
   */
  endpoints: SelectionEndpoints;
  options: Readonly<HostAppOptions>;
  /** Ends every legacy session and modern stream, and detaches from the host; does not stop the host. */
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

/** What express's own init does to a request, so a serverFactory's express middleware finds what it expects. */
function expressRequests(app: express.Express): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const r = req as IncomingMessage & { res?: ServerResponse };
    const s = res as ServerResponse & { req?: IncomingMessage; locals?: object };
    r.res = res;
    s.req = req;
    Object.setPrototypeOf(req, app.request);
    Object.setPrototypeOf(res, app.response);
    s.locals ??= Object.create(null);
  };
}

/** The app's other routes (the MCP path is the edge's): CORS and the Origin check first, as for MCP. */
function restRoutes(host: McpHost, options: HostAppOptions, auth: HostAuth | undefined, observation: ReturnType<typeof observeEdge>, trust: TrustProxy) {
  const path = options.path ?? "/mcp";
  const logger = host.logger.child("http");
  const rest = express();
  rest.disable("x-powered-by");
  // express's req.ip and req.protocol follow the same trust as the MCP path's facts.
  rest.set("trust proxy", trust);
  // Public, harmless, and read by browser clients from any origin (it sends its own CORS headers).
  if (auth?.metadata !== undefined) rest.use(auth.metadata);
  // Server cards and the catalog: public discovery documents as well, with their own CORS (docs/discovery.md).
  rest.use(discoveryRoutes(host, options, auth));
  if (options.cors) rest.use(mcpCors({ ...(options.cors === true ? { origin: true } : options.cors), preflightContinue: true }));
  if (options.dnsRebindingProtection !== false) rest.use(originCheck(options.allowedOrigins ? { allowedOrigins: options.allowedOrigins } : {}));
  if (options.cors) rest.use((req, res, next) => (isPreflight(req) ? void res.status(204).set("content-length", "0").end() : next()));
  rest.get("/healthz", healthRoute(host, auth, options.scaleOut));
  rest.get("/toolsets", ...toolsetsRoute(host, options, auth));
  return {
    rest,
    finish(endpoints: SelectionEndpoints, limits: CallerLimits) {
      observation.routes(rest, auth, endpoints, limits, (req, permitted) => endpointLinksOf(host, options, auth, req, permitted));
      rest.use((req, res) => {
        sendJsonRpcError(res, 404, -32601, `Not found: ${req.method} ${req.path}. The MCP endpoint is ${path}; see also /toolsets and /healthz.`);
      });
      rest.use(finalErrorHandler(host, logger));
    },
  };
}

/** The auth options with the app's clock where they name none (what is not an object is left for the auth check to refuse). */
function authOnClock(auth: HostAuthOptions, clock: Clock): HostAuthOptions {
  return typeof auth === "object" && auth !== null && auth.clock === undefined ? { ...auth, clock } : auth;
}

/**
 * @example
 * const { listener } = createHostApp(host, { path: "/mcp" }); http.createServer(listener).listen(3000, "127.0.0.1");
 * createHostApp(host, { auth: { issuer, audience: "https://mcp.example.com/mcp", jwksUri }, cors: { origin: ["https://app.example.com"] } });
 */
export function createHostApp(host: McpHost, options: HostAppOptions = {}): HostApp {
  // Every deadline of the HTTP layer (sessions, caller rates, token expiry) runs on the host's clock, unless the app
  // is given one of its own.
  const clock = options.clock ?? host.clock;
  const appOptions: HostAppOptions = { ...options, clock };
  const trust = compileTrustProxy(appOptions.trustProxy);
  const path = appOptions.path ?? "/mcp";
  const logger = host.logger.child("http");
  const auth = appOptions.auth === undefined ? undefined : createHostAuth(authOnClock(appOptions.auth, clock), { path, logger: logger.child("auth") });
  if (auth !== undefined) warnUnguarded(host, auth);
  const observation = observeEdge(host, appOptions);
  const limits = new CallerLimits({ ...appOptions, clock, ...defined({ shared: appOptions.scaleOut?.rate }) }, logger);
  const routes = restRoutes(host, appOptions, auth, observation, trust);
  let endpoints: SelectionEndpoints | undefined;
  let serving: HostServing | undefined;
  const selections = new SelectionServer({
    host,
    options: appOptions,
    auth,
    limits,
    logger,
    get endpoints() {
      return endpoints!;
    },
    get serving() {
      return serving!;
    },
    ...(host.options.serverFactory === undefined ? {} : { expressify: expressRequests(routes.rest) }),
  });
  serving = host[OPEN_SERVING](selections);
  endpoints = new SelectionEndpoints(host, appOptions, serving);
  routes.finish(endpoints, limits);
  const edge = createEdge({
    options: appOptions,
    observe: observation.middleware,
    rest: routes.rest,
    mcp: (req, res) => void selections.route(req, res),
  });
  // A refusal sent before the body was read still reaches a client that is still sending (lingering-close.ts).
  const maxBytes = LINGER.bodyLimits * (appOptions.maxBodyBytes ?? HTTP_DEFAULTS.maxBodyBytes);
  const lingering = lingerAfterEarlyAnswers(edge, { maxBytes, maxMs: LINGER.ms, clock });
  // Every request's facts know whom to believe about the client before anything asks who the caller is.
  const listener = (req: IncomingMessage, res: ServerResponse): void => {
    factsOf(req).trust = trust;
    lingering(req, res);
  };
  const app = express();
  app.disable("x-powered-by");
  app.use((req, res) => listener(req, res));
  const served = endpoints;
  return { listener, app, endpoints: served, options: appOptions, close: () => served.close() };
}
