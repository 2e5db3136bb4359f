/**
 * Which requests the fast path may take (docs/design.md §8): only what it can prove ordinary — a 2026-07-28 JSON-RPC
 * request (not a notification, a batch or a response), classified by the SDK's own `classifyInboundRequest`, whose
 * standard headers mirror its body exactly, and whose method is on the list the differential suite proves answered
 * alike on both paths. Anything else goes to the SDK's entry, which then gives exactly its own answer, errors
 * included: the guard never answers anything itself.
 */
import { classifyInboundRequest, isJsonContentType, type InboundModernRoute } from "@modelcontextprotocol/server";

/** The one revision the pooled servers serve. */
export const FAST_PATH_REVISION = "2026-07-28";

/**
 * The methods the fast path takes, each with the body field its `Mcp-Name` header must mirror (SEP-2243 for the core
 * methods, SEP-2663 for `tasks/*`), or none. Streams (`subscriptions/listen`), the SDK's own methods
 * (`server/discover`, `ping`) and everything else go to the entry. test/http/sdk-adapter-parity.test.ts and
 * fast-path-parity.test.ts run each of them through both paths.
 */
const FAST_METHODS: ReadonlyMap<string, "name" | "uri" | "taskId" | undefined> = new Map([
  ["tools/call", "name"],
  ["tools/list", undefined],
  ["prompts/get", "name"],
  ["prompts/list", undefined],
  ["resources/read", "uri"],
  ["resources/list", undefined],
  ["resources/templates/list", undefined],
  ["completion/complete", undefined],
  ["tasks/get", "taskId"],
  ["tasks/update", "taskId"],
  ["tasks/cancel", "taskId"],
]);

/** A request the fast path may take: the SDK's classification of it. */
export type FastRoute = Extract<InboundModernRoute, { messageKind: "request" }>;

/** The methods the fast path takes, in order (for the docs and the tests). */
export function fastPathMethods(): string[] {
  return [...FAST_METHODS.keys()];
}

function paramsOf(body: { params?: unknown }): Record<string, unknown> | undefined {
  const params = body.params;
  return typeof params === "object" && params !== null && !Array.isArray(params) ? (params as Record<string, unknown>) : undefined;
}

/**
 * The `Mcp-Name` rule, stricter than the SDK's: for a method that has a name, the header is present and is the body's
 * value itself (a Base64 sentinel `=?…` goes to the entry, which decodes it); for one that has none, there is none.
 */
function nameHeaderExact(method: string, body: { params?: unknown }, header: string | null): boolean {
  const field = FAST_METHODS.get(method);
  if (field === undefined) return header === null;
  const value = paramsOf(body)?.[field];
  return typeof value === "string" && header === value && !value.startsWith("=?");
}

/**
 * The SDK's classification of a request the fast path may take, or undefined (then the entry serves it). It reads
 * the web `Request`'s headers, the very ones the entry would read, and the body the edge parsed.
 * @example
 * const route = fastRouteOf(request, facts.body);
 * if (route === undefined) return entry(request);
 */
export function fastRouteOf(request: Request, body: unknown): FastRoute | undefined {
  if (request.method !== "POST" || typeof body !== "object" || body === null || Array.isArray(body)) return undefined;
  const message = body as { method?: unknown; id?: unknown; params?: unknown };
  const method = message.method;
  if (typeof method !== "string" || !FAST_METHODS.has(method)) return undefined;
  const headers = request.headers;
  const version = headers.get("mcp-protocol-version");
  if (version !== FAST_PATH_REVISION || headers.get("mcp-method") !== method) return undefined;
  const name = headers.get("mcp-name");
  if (!nameHeaderExact(method, message, name) || !isJsonContentType(headers.get("content-type"))) return undefined;
  const outcome = classifyInboundRequest({
    httpMethod: "POST",
    protocolVersionHeader: version,
    mcpMethodHeader: method,
    ...(name === null ? {} : { mcpNameHeader: name }),
    body,
  });
  if (outcome.kind !== "modern" || outcome.messageKind !== "request" || outcome.classification.revision !== FAST_PATH_REVISION) return undefined;
  return outcome;
}
