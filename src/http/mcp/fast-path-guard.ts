/**
 * Which requests the fast path may take (docs/design.md §8): only what it can prove ordinary — a 2026-07-28 JSON-RPC
 * request (not a notification, a batch or a response), classified by the SDK's own `classifyInboundRequest`, whose
 * standard headers mirror its body exactly, and whose method is on the list the differential suite proves answered
 * alike on both paths. Anything else goes to the SDK's entry, which then gives exactly its own answer, errors
 * included: the guard never answers anything itself.
 */
import type { IncomingMessage } from "node:http";
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

/** The four headers the guard reads, as a web `Headers` would give them (every value of a name, joined by ", "). */
interface GuardHeaders {
  "mcp-protocol-version": string | null;
  "mcp-method": string | null;
  "mcp-name": string | null;
  "content-type": string | null;
}

/**
 * The guard's headers from the node request's raw list — the same values the SDK's entry reads from the web `Request`
 * made of that list (`Headers.get` joins repeated names with ", ", where node's parsed `req.headers` keeps the first
 * `content-type`), without making one.
 */
function guardHeadersOf(req: IncomingMessage): GuardHeaders {
  const found: GuardHeaders = { "mcp-protocol-version": null, "mcp-method": null, "mcp-name": null, "content-type": null };
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    if (name !== "mcp-protocol-version" && name !== "mcp-method" && name !== "mcp-name" && name !== "content-type") continue;
    const value = raw[i + 1]!;
    const before = found[name];
    found[name] = before === null ? value : `${before}, ${value}`;
  }
  return found;
}

/** Host headers already tried, and whether a URL can be made of each (a client sends the same one every time). */
const hostsTried = new Map<string, boolean>();
/** Hosts remembered at most: past it the map starts over, so a client inventing hosts cannot grow it. */
const MAX_HOSTS_TRIED = 256;

/**
 * Whether the entry's web `Request` could be made of this request. The fast path makes it only if a handler reads
 * it, so a request it could not be made of (a middleware that broke the Host header) goes to the entry, which
 * answers it as it always has. The path cannot break a URL once it starts with "/"; the host is tried once.
 */
function urlCanBeMade(req: IncomingMessage): boolean {
  if (req.url?.startsWith("/") !== true) return false;
  const host = req.headers.host;
  if (typeof host !== "string" || host === "") return true;
  let ok = hostsTried.get(host);
  if (ok === undefined) {
    ok = URL.canParse(`http://${host}/`);
    if (hostsTried.size >= MAX_HOSTS_TRIED) hostsTried.clear();
    hostsTried.set(host, ok);
  }
  return ok;
}

/**
 * The SDK's classification of a request the fast path may take, or undefined (then the entry serves it). It reads
 * the headers the entry would read (from the node request's raw list, as the entry's web `Request` is made) and the
 * body the edge parsed.
 * @example
 * const route = fastRouteOf(req, facts.body);
 * if (route === undefined) return entry(request);
 */
export function fastRouteOf(req: IncomingMessage, body: unknown): FastRoute | undefined {
  if (req.method !== "POST" || typeof body !== "object" || body === null || Array.isArray(body)) return undefined;
  const message = body as { method?: unknown; id?: unknown; params?: unknown };
  const method = message.method;
  if (typeof method !== "string" || !FAST_METHODS.has(method)) return undefined;
  if (!urlCanBeMade(req)) return undefined;
  const headers = guardHeadersOf(req);
  const version = headers["mcp-protocol-version"];
  if (version !== FAST_PATH_REVISION || headers["mcp-method"] !== method) return undefined;
  const name = headers["mcp-name"];
  if (!nameHeaderExact(method, message, name) || !isJsonContentType(headers["content-type"])) return undefined;
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
