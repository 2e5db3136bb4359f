/**
 * What the HTTP edge knows about a request once it was answered, in the bounded terms logs and metrics use: its
 * route, its protocol era, its JSON-RPC method (a known MCP method, else `other`), whether it was a long-lived
 * stream, its request id. Read after the fact from the request's facts (the parsed body, the build that served it,
 * the verified caller), so serving pays nothing for it up front.
 */
import type { IncomingMessage } from "node:http";
import { carriedFacts } from "../edge/request-facts.js";
import { looksModern } from "../edge/era-sniff.js";
import { defined } from "../../defined.js";

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
  const facts = carriedFacts(req);
  const body = facts?.body;
  const rpcMethod = rpcMethodOf(body);
  const selection = facts?.built?.key;
  const subject = facts?.caller?.subject;
  const message = body as { id?: unknown; params?: { _meta?: unknown } } | undefined;
  const id = message?.id;
  const meta = message?.params?._meta;
  return {
    era: looksModern(req, body) ? "modern" : "legacy",
    ...defined({ rpcMethod }),
    stream: facts?.stream ?? req.method === "GET",
    ...defined({ selection, subject }),
    ...(typeof id === "string" || typeof id === "number" ? { id: String(id) } : {}),
    ...(typeof meta === "object" && meta !== null ? { meta: meta as Record<string, unknown> } : {}),
  };
}
