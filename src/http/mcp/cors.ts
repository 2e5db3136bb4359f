/**
 * CORS for MCP endpoints (docs/design.md §8), on the `cors` package. A browser's preflight names the headers it will
 * send; the answer allows exactly those that are MCP headers — the fixed ones and every `Mcp-Param-<name>` (which
 * mirror tool arguments, so no fixed list can name them, and a `Mcp-Param-*` pattern is nothing a browser
 * understands) — and exposes the headers a client must read.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import cors, { type CorsOptions } from "cors";

/** Request headers an MCP client may send (besides `Mcp-Param-<name>`). */
export const MCP_REQUEST_HEADERS: readonly string[] = [
  "Accept",
  "Authorization",
  "Content-Type",
  "Last-Event-ID",
  "Mcp-Method",
  "Mcp-Name",
  "MCP-Protocol-Version",
  "Mcp-Session-Id",
  "X-MCP-Readonly",
  "X-MCP-Tools",
  "X-MCP-Toolsets",
];

/** Response headers a browser client must be able to read. */
export const MCP_EXPOSED_HEADERS: readonly string[] = ["Mcp-Session-Id", "MCP-Protocol-Version", "WWW-Authenticate"];

const KNOWN = new Set(MCP_REQUEST_HEADERS.map((h) => h.toLowerCase()));
const PARAM_HEADER = /^mcp-param-[a-z0-9!#$%&'*+.^_`|~-]+$/i;

/**
 * The headers of a preflight's `Access-Control-Request-Headers` that an MCP endpoint allows, lower-cased, in the
 * order asked.
 * @example
 * allowedRequestHeaders("content-type, mcp-param-city, x-evil") // ["content-type", "mcp-param-city"]
 */
export function allowedRequestHeaders(requested: string | undefined): string[] {
  const names = (requested ?? "")
    .split(",")
    .map((h) => h.trim().toLowerCase())
    .filter((h) => h.length > 0 && (KNOWN.has(h) || PARAM_HEADER.test(h)));
  return [...new Set(names)];
}

function addVary(res: ServerResponse, field: string): void {
  const current = String(res.getHeader("vary") ?? "");
  const fields = current.split(",").map((f) => f.trim().toLowerCase());
  if (current.trim() === "*" || fields.includes(field.toLowerCase())) return;
  res.setHeader("vary", current.trim() === "" ? field : `${current}, ${field}`);
}

/** A connect-style middleware (express, or plain node:http with a `next`). */
export type CorsMiddleware = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;

/**
 * CORS middleware for an MCP endpoint: `true` (or `{ origin: true }`) reflects any origin; `{ origin: [...] }`
 * allows those. Unless `allowedHeaders` is given, a preflight is allowed the MCP headers it asks for; unless
 * `exposedHeaders` is given, `Mcp-Session-Id`, `MCP-Protocol-Version` and `WWW-Authenticate` are exposed.
 * @example
 * serverFactory: ({ handler }) => express.Router().use(mcpCors({ origin: ["https://app.example.com"] }), bearerAuth({ verifier }), handler)
 */
export function mcpCors(options: CorsOptions | true = true): CorsMiddleware {
  const base: CorsOptions = options === true ? { origin: true } : options;
  const middleware = cors((req, callback) => {
    const asked = req.headers["access-control-request-headers"];
    callback(null, {
      exposedHeaders: [...MCP_EXPOSED_HEADERS],
      ...base,
      allowedHeaders: base.allowedHeaders ?? allowedRequestHeaders(Array.isArray(asked) ? asked.join(",") : asked),
    });
  });
  return (req, res, next) => {
    // The allowed headers follow the request's, so a cache must key the preflight answer on them too.
    if (req.method === "OPTIONS" && base.allowedHeaders === undefined) addVary(res, "Access-Control-Request-Headers");
    middleware(req as never, res as never, next);
  };
}
