/**
 * The modern fast path (docs/design.md §8, §15): a plain 2026-07-28 `tools/call` or list request, already parsed by the
 * edge, is handed straight to a per-request SDK `Server` over the SDK's own single-exchange transport
 * (`PerRequestHTTPServerTransport`), skipping what only costs: the node → web `Request` copy, the SDK entry's
 * second look at the body, and the web `Response` → node copy through a stream. The server, its handlers, the
 * SDK's dispatch (params validation, the `tools/call` result check, the multi-round-trip seam, the encode contract:
 * `resultType`, cache fields, `serverInfo`) and the transport's answer are the very ones the SDK entry uses, so
 * the bytes are the same. It takes a request only when every check the SDK entry makes before dispatch is sure to
 * pass (`fastRouteOf`); anything else — a header that disagrees, a base64 `Mcp-Name`, a cursor, a progress token,
 * a log level, a retry, a batch, a notification — goes to the SDK entry as before.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import {
  classifyInboundRequest,
  isJsonContentType,
  PerRequestHTTPServerTransport,
  SdkError,
  SdkErrorCode,
  type AuthInfo,
  type JSONRPCRequest,
  type MessageClassification,
  type Server,
} from "@modelcontextprotocol/server";
import type { Logger } from "../logger.js";
import { PROTOCOL_VERSION_KEY } from "./era-sniff.js";

/** The one modern revision the SDK (2.4) serves; the fast path takes no other. */
export const FAST_PATH_REVISION = "2026-07-28";

/** The envelope keys a plain request carries; any other `_meta` key (progress token, log level, …) falls back. */
const PLAIN_META_KEYS = new Set([PROTOCOL_VERSION_KEY, "io.modelcontextprotocol/clientInfo", "io.modelcontextprotocol/clientCapabilities"]);
/** The methods taken, with the params keys each may carry (no `cursor`, no `inputResponses` / `requestState`). */
const FAST_METHODS: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ["tools/call", new Set(["name", "arguments", "_meta"])],
  ["tools/list", new Set(["_meta"])],
  ["prompts/list", new Set(["_meta"])],
  ["resources/list", new Set(["_meta"])],
  ["resources/templates/list", new Set(["_meta"])],
]);

/** A request the fast path may answer: the message and the SDK's own classification of it. */
export interface FastRoute {
  message: JSONRPCRequest;
  classification: MessageClassification;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** A header's single value, or undefined when absent or sent more than once. */
function single(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === "string" ? value : undefined;
}

function keysWithin(object: Record<string, unknown>, allowed: ReadonlySet<string>): boolean {
  for (const key in object) if (!allowed.has(key)) return false;
  return true;
}

/**
 * The route of a request the fast path can answer exactly as the SDK entry would, or undefined (the SDK entry
 * serves it). What it checks is what `createMcpHandler` checks before dispatch, kept to the plain case: a JSON
 * POST whose Host and target make a URL (the node adapter's 500 otherwise); one JSON-RPC request with an id; the SDK's `classifyInboundRequest` says modern, revision 2026-07-28
 * (so the envelope is valid and the version and method headers agree with the body); the standard headers are
 * all there and plain — `MCP-Protocol-Version` equal to the envelope's revision, `Mcp-Method` to the method and,
 * for `tools/call`, `Mcp-Name` to `params.name` (not the base64 sentinel). No method taken has a required client
 * capability in the SDK's table (it is empty in 2.4).
 * @example
 * const route = fastRouteOf(req, req.body); if (route) await serveFast(...);
 */
export function fastRouteOf(req: IncomingMessage, body: unknown): FastRoute | undefined {
  if (req.method !== "POST" || !isPlainObject(body)) return undefined;
  const allowedParams = typeof body.method === "string" ? FAST_METHODS.get(body.method) : undefined;
  if (allowedParams === undefined || body.jsonrpc !== "2.0") return undefined;
  if (typeof body.id !== "string" && typeof body.id !== "number") return undefined;
  if (!isJsonContentType(single(req, "content-type"))) return undefined;
  // The SDK's node adapter makes a URL of Host and the target, and answers 500 when it cannot: so must we.
  if (!URL.canParse(`http://${single(req, "host") ?? "localhost"}${req.url ?? "/"}`)) return undefined;
  const params = body.params;
  if (!isPlainObject(params) || !keysWithin(params, allowedParams)) return undefined;
  const meta = params._meta;
  if (!isPlainObject(meta) || !keysWithin(meta, PLAIN_META_KEYS) || meta[PROTOCOL_VERSION_KEY] !== FAST_PATH_REVISION) return undefined;
  const method = body.method as string;
  const version = single(req, "mcp-protocol-version");
  const methodHeader = single(req, "mcp-method");
  const nameHeader = single(req, "mcp-name");
  if (version !== FAST_PATH_REVISION || methodHeader !== method) return undefined;
  if (method === "tools/call") {
    if (typeof params.name !== "string" || nameHeader !== params.name || nameHeader.startsWith("=?")) return undefined;
    if (params.arguments !== undefined && !isPlainObject(params.arguments)) return undefined;
  }
  const outcome = classifyInboundRequest({
    httpMethod: "POST",
    protocolVersionHeader: version,
    mcpMethodHeader: methodHeader,
    ...(nameHeader === undefined ? {} : { mcpNameHeader: nameHeader }),
    body,
  });
  if (outcome.kind !== "modern" || outcome.messageKind !== "request" || outcome.classification.revision !== FAST_PATH_REVISION) return undefined;
  return { message: outcome.message as JSONRPCRequest, classification: outcome.classification };
}

/** Counts what the fast path answered (tests read it to see that it served; nothing else does). */
export const fastPathServed = { count: 0 };

/** Writes the transport's answer as the SDK's node adapter would: its status and headers, then its body. */
async function writeResponse(res: ServerResponse, response: Response, closed: AbortSignal): Promise<void> {
  const headers: Record<string, string> = {};
  for (const [name, value] of response.headers) headers[name] = value;
  res.writeHead(response.status, headers);
  if (response.body === null) {
    res.end();
    return;
  }
  if (headers["content-type"] === "application/json") {
    // One JSON answer, written with its length in one go: one write to the socket instead of the chunk and then
    // the chunked terminator (two), the same bytes of JSON either way.
    const text = await response.text();
    if (closed.aborted) res.end();
    else res.end(text);
    return;
  }
  // A stream (the handler sent a notification before its result): chunk by chunk, minding backpressure.
  const gone = new Promise<void>((resolve) => closed.addEventListener("abort", () => resolve(), { once: true }));
  try {
    for await (const chunk of response.body) {
      if (closed.aborted) break;
      if (!res.write(chunk)) await Promise.race([new Promise<void>((resolve) => res.once("drain", () => resolve())), gone]);
    }
  } catch {
    // The stream failed or the client left; end what was written.
  }
  res.end();
}

function internalError(id: string | number): Response {
  return Response.json({ jsonrpc: "2.0", error: { code: -32603, message: "Internal server error" }, id }, { status: 500 });
}

/**
 * Serves one fast route on a fresh server: connects it to the SDK's single-exchange transport, hands it the
 * message (and the caller's `authInfo`, as the SDK entry does), and writes the answer. A client that leaves
 * closes the transport, which aborts the handler's signal; nothing is written after that.
 * @example
 * await serveFast({ route, server: createSdkServer(core, info), req, res, logger, selection: "time", live });
 */
export async function serveFast(parts: {
  route: FastRoute;
  server: Server;
  req: IncomingMessage;
  res: ServerResponse;
  logger: Logger;
  selection: string;
  /** The servers with an exchange in flight (the endpoint closes them when it closes). */
  live: Set<Server>;
}): Promise<void> {
  const { route, server, req, res } = parts;
  const authInfo = (req as { auth?: AuthInfo }).auth;
  fastPathServed.count += 1;
  const closed = new AbortController();
  let finished = false;
  res.on("close", () => {
    if (!finished) closed.abort();
  });
  if (res.destroyed) closed.abort();
  const transport = new PerRequestHTTPServerTransport({ classification: route.classification });
  parts.live.add(server);
  const previousOnClose = server.onclose;
  server.onclose = () => {
    parts.live.delete(server);
    previousOnClose?.();
  };
  let response: Response;
  try {
    await server.connect(transport);
    if (closed.signal.aborted) throw new SdkError(SdkErrorCode.ConnectionClosed, "The request was aborted before it could be handled");
    closed.signal.addEventListener("abort", () => void transport.close(), { once: true });
    response = await transport.handleMessage(route.message, authInfo === undefined ? {} : { authInfo });
  } catch (error) {
    if (error instanceof SdkError && error.code === SdkErrorCode.ConnectionClosed) {
      response = new Response(null, { status: 499 });
    } else {
      await server.close().catch(() => {});
      parts.live.delete(server);
      const message = error instanceof Error ? error.message : String(error);
      parts.logger.error(
        `selection "${parts.selection}": internal error serving a 2026-07-28 request (HTTP 500): ${message}`,
        error instanceof Error && error.stack ? { stack: error.stack } : {},
      );
      response = internalError(route.message.id);
    }
  }
  try {
    await writeResponse(res, response, closed.signal);
  } finally {
    finished = true;
  }
}
