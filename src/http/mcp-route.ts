/**
 * The MCP path at the edge (docs/design.md §8, §9): the bearer gate first (so nothing is read, parsed or built for a
 * caller without a valid token), then the body, the selection, the caller's toolset permissions — a selection
 * that names a toolset the token does not reach is refused with 403 `insufficient_scope`, or served without it —
 * and the build of what the caller may reach, handed to what the serverFactory made for it.
 */
import type { Request, RequestHandler, Response } from "express";
import { compiledOf } from "../host/built-server.js";
import type { McpHost } from "../host/host.js";
import { assertNoUnknownToolsets, selectionKey } from "../host/selection.js";
import { callerOf } from "./auth/bearer-auth.js";
import { markLongLived } from "./connection-tracker.js";
import { passWithoutToken } from "./auth/pass-without-token.js";
import type { HostAuth } from "./host-auth.js";
import type { HostAppOptions } from "./http-options.js";
import { sendJsonRpcError } from "./jsonrpc-response.js";
import { jsonBody } from "./json-body.js";
import type { CallerLimits } from "./caller-limits.js";
import { HTTP_DEFAULTS } from "./http-defaults.js";
import { attachScope } from "./request-scope.js";
import { selectionOf } from "./request-selection.js";

const JSON_TYPES = ["application/json", "application/*+json"];
const MCP_METHODS = new Set(["POST", "GET", "DELETE", "OPTIONS"]);

/**
 * The bearer gate of the MCP path. A CORS preflight (OPTIONS without credentials) passes, so a serverFactory's
 * CORS can answer it; it is built without waking anything, and the selection's guard refuses it if nothing did.
 */
function gateOf(auth: HostAuth): RequestHandler {
  return (req, res, next) => {
    if (req.method === "OPTIONS" && req.headers.authorization === undefined) return passWithoutToken(req, res, next);
    return auth.require(req, res, next);
  };
}

/** The toolsets the caller's own query or header names (not the deployment's default). */
function namedByCaller(req: Request, options: HostAppOptions): string[] {
  const own = selectionOf(req, { ...options.selection, default: "" });
  return [...own.named, ...(own.only ?? [])];
}

/** The caller's permitted toolsets, or undefined after answering 403 for a named one it may not reach. */
function permittedFor(host: McpHost, auth: HostAuth, options: HostAppOptions, req: Request, res: Response): string[] | undefined {
  const caller = callerOf(req);
  const declared = host.declaredToolsets().map((t) => t.name);
  const permitted = auth.permissions.permitted(declared, caller?.scopes ?? []);
  if (caller === undefined || !auth.permissions.guarded) return permitted;
  const reachable = new Set(permitted);
  const known = new Set(declared);
  const named = [...new Set(namedByCaller(req, options))].filter((name) => known.has(name)).sort();
  const forbidden = named.filter((name) => !reachable.has(name));
  // A request on a legacy session is served what the session was opened with, or refused as an unknown session.
  const onSession = (options.legacy ?? "stateful") === "stateful" && req.headers["mcp-session-id"] !== undefined;
  if (forbidden.length === 0 || onSession) return permitted;
  const logger = host.logger.child("http");
  if (auth.onInsufficientScope === "omit") {
    logger.info("the selection names toolsets this caller's token does not reach; served without them", { toolsets: forbidden, subject: caller.subject });
    return permitted;
  }
  const granted = new Set(caller.scopes);
  const missing = auth.permissions.scopesFor(forbidden).filter((scope) => !granted.has(scope));
  logger.info("the selection names toolsets this caller's token does not reach; refused", { toolsets: forbidden, subject: caller.subject });
  auth.refuseScopes(req, res, missing, auth.permissions.scopesFor(named));
  return undefined;
}

/**
 * The handlers of the MCP path, in order.
 * @example
 * app.all("/mcp", ...mcpRoute(host, options, auth));
 */
export function mcpRoute(host: McpHost, options: HostAppOptions, auth: HostAuth | undefined, limits: CallerLimits): RequestHandler[] {
  const maxBodyBytes = options.maxBodyBytes ?? HTTP_DEFAULTS.maxBodyBytes;
  const logger = host.logger.child("http");
  const reportedUnknown = new Set<string>();
  const serve: RequestHandler = async (req, res, next) => {
    try {
      const selection = selectionOf(req, options.selection);
      const permitted = auth === undefined ? undefined : permittedFor(host, auth, options, req, res);
      if (auth !== undefined && permitted === undefined) return;
      const verified = auth === undefined || callerOf(req) !== undefined;
      const built = await host.build(selection, { ...(permitted === undefined ? {} : { permitted }), ...(verified ? {} : { wake: false }) });
      if (built.unknown.length > 0) {
        if (options.selection?.strict)
          assertNoUnknownToolsets(
            built.unknown,
            host.declaredToolsets().map((t) => t.name),
          );
        // Once per selection and set of unknown names (a session sends many requests, each with the same URL).
        const seen = `${built.key}\u0000${built.unknown.join(",")}`;
        const first = !reportedUnknown.has(seen);
        if (first) {
          if (reportedUnknown.size >= 1_000) reportedUnknown.clear();
          reportedUnknown.add(seen);
        }
        logger[first ? "warn" : "debug"](`MCP client asked for unknown toolsets: ${built.unknown.join(", ")}`, { unknown: [...built.unknown] });
      }
      attachScope(req, {
        compiled: compiledOf(built),
        unknown: built.unknown,
        ...(permitted === undefined ? {} : { permitted, requested: selectionKey(host.activeFor(selection).active) }),
      });
      await built.server(req, res, next);
    } catch (error) {
      next(error);
    }
  };
  // The MCP endpoint speaks POST, GET and DELETE (OPTIONS for a browser's preflight); the SDK cannot even represent
  // some others (a fetch Request refuses TRACE and CONNECT), so the rest are answered here.
  const methods: RequestHandler = (req, res, next) => {
    if (MCP_METHODS.has(req.method)) return next();
    sendJsonRpcError(res, 405, -32000, `Method not allowed: the MCP endpoint answers ${[...MCP_METHODS].join(", ")}.`, { allow: "POST, GET, DELETE" });
  };
  const mediaType: RequestHandler = (req, res, next) => {
    if (req.method === "POST" && !req.is(JSON_TYPES)) {
      sendJsonRpcError(res, 415, -32700, 'Unsupported Media Type: an MCP request is a JSON-RPC message sent with "Content-Type: application/json".');
      return;
    }
    next();
  };
  const body = jsonBody({ maxBodyBytes, maxJsonDepth: options.maxJsonDepth ?? HTTP_DEFAULTS.maxJsonDepth, types: JSON_TYPES });
  const streams: RequestHandler = (req, _res, next) => {
    if ((req.body as { method?: unknown } | undefined)?.method === "subscriptions/listen") markLongLived(req);
    next();
  };
  return [
    methods,
    ...(auth === undefined ? [] : [gateOf(auth)]),
    limits.rate(),
    mediaType,
    ...body,
    streams,
    limits.listenStreams(),
    limits.concurrency(),
    serve,
  ];
}
