/**
 * The edge (docs/design.md §8): what every request meets first, and only what belongs to the connection — its facts
 * (id, log scope, the access line once answered), a sane target and Host, the DNS-rebinding Host check, and routing:
 * the MCP path's request is resolved to its selection (once) and handed to the server built for that selection,
 * which carries the deployment's CORS, token and permission checks (selection-server.ts); anything else goes to the
 * app's other routes (express: `/toolsets`, `/healthz`, the metadata, the operator page, `/metrics`).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { McpHost } from "../../host/host.js";
import type { HostAppOptions } from "../http-options.js";
import type { EdgeStep } from "../observe/access-observer.js";
import { hostAllowed } from "./dns-rebinding.js";
import { sendJsonRpcError } from "./jsonrpc-response.js";
import { factsOf } from "./request-facts.js";
import { selectionOf } from "./request-selection.js";
import { saneTarget } from "./request-target.js";

/** The methods the MCP endpoint speaks (OPTIONS for a browser's preflight). */
const MCP_METHODS = new Set(["POST", "GET", "DELETE", "OPTIONS"]);

export interface EdgeParts {
  host: McpHost;
  options: HostAppOptions;
  /** With auth on, nothing is woken until the token is verified (the selection's server wakes what it may reach). */
  authenticated: boolean;
  /** The edge's observer, run first (absent: nothing observes). */
  observe: EdgeStep | undefined;
  /** Every request that is not for the MCP path. */
  rest(req: IncomingMessage, res: ServerResponse): void;
  /** What went wrong before a selection's server took the request (a bug, or a host not serving). */
  failed(error: unknown, req: IncomingMessage, res: ServerResponse): void;
  /**
   * Makes a request an express one (its prototypes, as express's own init does) before a deployment's serverFactory
   * sees it — its middleware may be an express Router. Absent with the default factory: nothing is paid for it.
   */
  expressify?(req: IncomingMessage, res: ServerResponse): void;
}

/** A path as the router matches it: case-insensitive, without trailing slashes. */
function routed(path: string): string {
  return path.replace(/\/+$/, "").toLowerCase() || "/";
}

/**
 * The node request listener of a served host.
 * @example
 * http.createServer(createEdge(parts)).listen(3000);
 */
export function createEdge(parts: EdgeParts): (req: IncomingMessage, res: ServerResponse) => void {
  const { host, options, observe } = parts;
  const mcpPath = routed(options.path ?? "/mcp");
  const hostRefusal = options.dnsRebindingProtection === false ? undefined : hostAllowed(options.allowedHosts);
  const build = parts.authenticated ? { wake: false } : {};
  const serve = (req: IncomingMessage, res: ServerResponse): void => {
    if (!saneTarget(req, res)) return;
    const refused = hostRefusal?.(req);
    if (refused !== undefined) {
      sendJsonRpcError(res, 403, -32000, refused);
      return;
    }
    const url = req.url ?? "/";
    const at = url.indexOf("?");
    if (routed(at < 0 ? url : url.slice(0, at)) !== mcpPath) {
      parts.rest(req, res);
      return;
    }
    if (!MCP_METHODS.has(req.method ?? "")) {
      // The SDK cannot even represent some methods (a web Request refuses TRACE and CONNECT): answered here.
      sendJsonRpcError(res, 405, -32000, `Method not allowed: the MCP endpoint answers ${[...MCP_METHODS].join(", ")}.`, { allow: "POST, GET, DELETE" });
      return;
    }
    const facts = factsOf(req);
    const { selection, named } = selectionOf(req, options.selection);
    facts.selection = selection;
    facts.named = named;
    const failed = (error: unknown) => parts.failed(error, req, res);
    host
      .build(selection, build)
      .then((built) => {
        facts.unknown = built.unknown;
        parts.expressify?.(req, res);
        // What the serverFactory made may throw, reject, or pass an error on: each is a bug of the deployment's.
        const served = built.server(req, res, (error?: unknown) => {
          if (error !== undefined) failed(error);
        }) as PromiseLike<unknown> | undefined;
        if (served !== null && typeof served?.then === "function") served.then(undefined, failed);
      }, failed)
      .then(undefined, failed);
  };
  if (observe === undefined) return serve;
  return (req, res) => observe(req, res, () => serve(req, res));
}
