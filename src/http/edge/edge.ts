/**
 * The edge (docs/design.md §8): what every request meets first, and only what belongs to the connection — its facts
 * (id, log scope, the access line once answered), a sane target and Host, the DNS-rebinding Host check, and routing:
 * the MCP path's request has its selection read (once) and goes to the selection server (selection-server.ts), which
 * runs the deployment's CORS, token and rate checks before anything is built, then hands it to the server built for
 * the selection as the caller may have it; anything else goes to the app's other routes (express: `/toolsets`,
 * `/healthz`, the metadata, the operator page, `/metrics`).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { HostAppOptions } from "../http-options.js";
import type { EdgeStep } from "../observe/access-observer.js";
import { hostAllowed } from "./dns-rebinding.js";
import { sendJsonRpcError } from "./jsonrpc-response.js";
import { factsOf } from "./request-facts.js";
import { selectionReader } from "./request-selection.js";
import { saneTarget } from "./request-target.js";

/** The methods the MCP endpoint speaks (OPTIONS for a browser's preflight). */
const MCP_METHODS = new Set(["POST", "GET", "DELETE", "OPTIONS"]);

export interface EdgeParts {
  options: HostAppOptions;
  /** The edge's observer, run first (absent: nothing observes). */
  observe: EdgeStep | undefined;
  /** Every request that is not for the MCP path. */
  rest(req: IncomingMessage, res: ServerResponse): void;
  /** A request for the MCP path, its selection read into its facts (the selection server's `route`). */
  mcp(req: IncomingMessage, res: ServerResponse): void;
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
  const { options, observe } = parts;
  const mcpPath = routed(options.path ?? "/mcp");
  const hostRefusal = options.dnsRebindingProtection === false ? undefined : hostAllowed(options.allowedHosts);
  const selectionOf = selectionReader(options.selection);
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
    const { selection, named } = selectionOf(req);
    facts.selection = selection;
    facts.named = named;
    parts.mcp(req, res);
  };
  if (observe === undefined) return serve;
  return (req, res) => observe(req, res, () => serve(req, res));
}
