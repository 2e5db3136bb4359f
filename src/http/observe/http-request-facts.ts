/**
 * What the HTTP edge knows about a request once it was answered, in the bounded terms logs and metrics use: its
 * route, its protocol era, its JSON-RPC method (a known MCP method, else `other`), whether it was a long-lived
 * stream, its request id. Read after the fact from what the app left on the request (the parsed body, the build's
 * scope, the verified caller), so serving pays nothing for it up front.
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { callerOf } from "../auth/bearer-auth.js";
import { bodyOf, header, looksModern } from "../era-sniff.js";
import { scopeOf } from "../request-scope.js";

/**
 * The JSON-RPC methods of MCP (both eras) that may be a metric label; any other is `other`.
 * @example
 * KNOWN_RPC_METHODS.has("tools/call") // true
 */
export const KNOWN_RPC_METHODS: ReadonlySet<string> = new Set([
  "initialize",
  "ping",
  "tools/list",
  "tools/call",
  "resources/list",
  "resources/templates/list",
  "resources/read",
  "resources/subscribe",
  "resources/unsubscribe",
  "prompts/list",
  "prompts/get",
  "completion/complete",
  "logging/setLevel",
  "subscriptions/listen",
  "server/discover",
  "notifications/initialized",
  "notifications/cancelled",
  "notifications/progress",
  "notifications/roots/list_changed",
]);

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/**
 * The request's id: a well-formed `X-Request-Id` it came with (a proxy's), else a new one.
 * @example
 * requestIdOf(req) // "5f0c…" (a UUID) or the proxy's id
 */
export function requestIdOf(req: IncomingMessage): string {
  const given = header(req, "x-request-id");
  return given !== undefined && REQUEST_ID.test(given) ? given : randomUUID();
}

/**
 * The JSON-RPC method a body names, bounded.
 * @example
 * rpcMethodOf({ method: "x/made_up" }) // "other"
 */
export function rpcMethodOf(body: unknown): string | undefined {
  if (Array.isArray(body)) return "batch";
  const method = (body as { method?: unknown } | undefined)?.method;
  if (typeof method !== "string") return undefined;
  return KNOWN_RPC_METHODS.has(method) ? method : "other";
}

/**
 * The MCP facts of a request on the MCP path (read once it was answered).
 * @example
 * mcpFactsOf(req).rpcMethod // "tools/call"
 */
export function mcpFactsOf(req: IncomingMessage): {
  era: "legacy" | "modern";
  rpcMethod?: string;
  stream: boolean;
  selection?: string;
  subject?: string;
  id?: string;
  meta?: Record<string, unknown>;
} {
  const body = bodyOf(req);
  const rpcMethod = rpcMethodOf(body);
  const selection = scopeOf(req)?.compiled.key;
  const subject = callerOf(req)?.subject;
  const message = body as { id?: unknown; params?: { _meta?: unknown } } | undefined;
  const id = message?.id;
  const meta = message?.params?._meta;
  return {
    era: looksModern(req, body) ? "modern" : "legacy",
    ...(rpcMethod === undefined ? {} : { rpcMethod }),
    stream: req.method === "GET" || rpcMethod === "subscriptions/listen",
    ...(selection === undefined ? {} : { selection }),
    ...(subject === undefined ? {} : { subject }),
    ...(typeof id === "string" || typeof id === "number" ? { id: String(id) } : {}),
    ...(typeof meta === "object" && meta !== null ? { meta: meta as Record<string, unknown> } : {}),
  };
}
