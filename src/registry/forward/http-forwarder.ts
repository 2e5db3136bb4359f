/**
 * Forwarding over Streamable HTTP (docs/registry.md, "Forwarded calls"): one POST per request on an undici `Pool` of
 * kept-alive connections to the upstream's origin (pipelining 1), through undici's dispatcher directly — no web
 * `fetch`, `Request`, `Response` or streams — and its answer read as it arrives, JSON or SSE. It shares the SDK
 * client's connection: a 2025 session's `Mcp-Session-Id` and negotiated version, or a 2026-07-28 request's headers
 * (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`) and `_meta` envelope, plus the server's own static headers.
 * Cancelling aborts the request (closing it is how 2026-07-28 cancels) and, in a 2025 session, also posts
 * `notifications/cancelled`. A server-to-client request arriving on a forwarded request's stream is answered by the
 * registry, as the SDK client would answer it. The answer is read within the answer limits (answers/): its bytes
 * counted as they arrive, the request stopped past the limit; an SSE answer through the bounded, linear SSE reader;
 * JSON nested too deep refused unparsed. Only the request's own answer and progress are taken off its stream: an
 * answer to another request arriving there is ignored (logged at debug).
 */
import { SdkError, SdkErrorCode, SdkHttpError, type JSONRPCMessage } from "@modelcontextprotocol/client";
import type { Dispatcher, Pool } from "undici";
import type { Logger } from "../../logger.js";
import { type AnswerLimits, tooDeep, tooLarge } from "../answers/answer-limits.js";
import { JsonScan } from "../answers/json-scan.js";
import { type SseEvents, sseEvents } from "../answers/sse-events.js";
import { ForwardedRequests } from "./forwarded-requests.js";
import { requestMeta, type Forwarder, type ForwardHandle, type ForwardRequest, type ForwardSink } from "./forwarder.js";

export interface HttpForwarderOptions {
  url: URL;
  /** The server's static headers (its credentials among them). */
  headers: Readonly<Record<string, string>>;
  era: "legacy" | "modern";
  /** The SDK client transport's session, read per request (a reconnect brings a new one). */
  session(): { sessionId?: string; protocolVersion?: string };
  /** A 2026-07-28 request's `_meta` envelope. */
  envelope?: Readonly<Record<string, unknown>>;
  /** Answers a server-to-client request that arrived on a forwarded request's stream; resolves with the reply. */
  answer(request: { id: string | number; method: string; params?: unknown }): Promise<JSONRPCMessage>;
  /** How much of an answer is read, and how deep it may nest. */
  limits: AnswerLimits;
  /** The server's logger (what a stream carried that was not for its request goes here, at debug). */
  logger: Logger;
}

const ACCEPT = "application/json, text/event-stream";

/** undici, loaded on the first HTTP connection that forwards: an import of the registry (or a stdio-only gateway) never pays for it. */
let undici: typeof import("undici") | undefined;
let loading: Promise<void> | undefined;

/**
 * True once undici is loaded; the first call starts loading it (until then a connection runs client rounds).
 * @example
 * if (httpForwardingReady()) forwarder = new HttpForwarder(options);
 */
export function httpForwardingReady(): boolean {
  if (undici !== undefined) return true;
  if (loading !== undefined) return false;
  loading = import("undici").then(
    (module) => {
      undici = module;
    },
    () => undefined, // not installed or broken: every call keeps its client round
  );
  return false;
}

/**
 * Resolves once undici is loaded (or could not be): for a request that must go on the raw channel — one that declares
 * an extension only the channel can declare (a task relay) — rather than take a client round meanwhile.
 * @example
 * await httpForwardingLoaded();
 */
export async function httpForwardingLoaded(): Promise<void> {
  if (!httpForwardingReady()) await loading;
}

/** What a non-2xx answer without a JSON-RPC body means (404 in a session: it expired, so nothing ran). */
function statusError(status: number): SdkHttpError {
  return new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, `the server answered HTTP ${status}`, { status });
}

/**
 * @example
 * const forwarder = new HttpForwarder({ url, headers: {}, era: "modern", session: () => ({}), envelope, answer });
 * … await forwarder.close();
 */
export class HttpForwarder implements Forwarder {
  readonly era: "legacy" | "modern";
  private readonly pool: Pool;
  private readonly path: string;
  private readonly requests = new ForwardedRequests();
  private readonly host: string;

  constructor(private readonly options: HttpForwarderOptions) {
    this.era = options.era;
    // The registry enforces every time limit itself (idle, reset by progress; total): undici's own are off.
    if (undici === undefined) throw new Error("undici is not loaded yet (httpForwardingReady)");
    this.pool = new undici.Pool(options.url.origin, { pipelining: 1, headersTimeout: 0, bodyTimeout: 0 });
    this.path = `${options.url.pathname}${options.url.search}`;
    this.host = options.url.host;
  }

  private headersOf(request: ForwardRequest | undefined): Record<string, string> {
    const headers: Record<string, string> = { ...this.options.headers, host: this.host, "content-type": "application/json", accept: ACCEPT };
    if (this.era === "modern") {
      headers["mcp-protocol-version"] = String(this.options.envelope?.["io.modelcontextprotocol/protocolVersion"] ?? "2026-07-28");
      if (request !== undefined) {
        headers["mcp-method"] = request.method;
        if (request.name !== undefined) headers["mcp-name"] = request.name;
      }
      return headers;
    }
    const { sessionId, protocolVersion } = this.options.session();
    if (sessionId !== undefined) headers["mcp-session-id"] = sessionId;
    if (protocolVersion !== undefined) headers["mcp-protocol-version"] = protocolVersion;
    return headers;
  }

  send(request: ForwardRequest, sink: ForwardSink): ForwardHandle {
    const id = this.requests.add(sink);
    const meta = { ...requestMeta(this.options.envelope, request), progressToken: id };
    const body = JSON.stringify({ jsonrpc: "2.0", id, method: request.method, params: { ...request.params, _meta: meta } });
    const { limits } = this.options;
    let controller: Dispatcher.DispatchController | undefined;
    let cancelled: Error | undefined;
    let stopped = false;
    let status = 0;
    let sse: SseEvents | undefined;
    let chunks: Buffer[] = [];
    let size = 0;
    // Errors are made only for a request still waiting: an error object (its stack) per answered call is a real cost.
    const failOnce = (error: () => unknown) => {
      if (this.requests.drop(id)) sink.fail(error());
    };
    /** Gives the answer up: the request fails with the refusal, and the upstream request is stopped. */
    const refuse = (refusal: () => Error) => {
      stopped = true;
      sse?.stop();
      const error = refusal();
      failOnce(() => error);
      controller?.abort(error);
    };
    /** One answer's text: refused unparsed when it nests too deep, else each of its messages routed. */
    const route = (text: string | Buffer) => {
      const scan = new JsonScan();
      scan.feed(text);
      if (scan.deepest > limits.maxJsonDepth) {
        if (scan.asks || (scan.id !== undefined && scan.id !== id)) this.ignored("a message nested too deep");
        else refuse(() => tooDeep(limits));
        return;
      }
      let message: unknown;
      try {
        message = JSON.parse(typeof text === "string" ? text : text.toString("utf8"));
      } catch {
        return; // not JSON: nothing a forwarded request waits for; its answer is still to come, or never
      }
      for (const m of Array.isArray(message) ? message : [message]) this.routeOne(m, id);
    };
    this.pool.dispatch(
      { origin: this.options.url.origin, path: this.path, method: "POST", headers: this.headersOf(request), body },
      {
        onRequestStart: (c) => {
          controller = c;
          if (cancelled) c.abort(cancelled);
        },
        onResponseStart: (_c, statusCode, headers) => {
          status = statusCode;
          if (Number(headers["content-length"] ?? 0) > limits.maxAnswerBytes) return refuse(() => tooLarge(limits));
          const type = String(headers["content-type"] ?? "");
          if (statusCode >= 200 && statusCode < 300 && type.includes("text/event-stream")) {
            sse = sseEvents({
              maxEventBytes: limits.maxAnswerBytes,
              event: (event) => {
                if (event.data !== "" && (event.event === undefined || event.event === "message")) route(event.data);
              },
              tooLarge: () => refuse(() => tooLarge(limits)),
            });
          }
        },
        onResponseData: (_c, chunk) => {
          if (stopped) return;
          if (sse) return sse.push(chunk);
          size += chunk.length;
          if (size > limits.maxAnswerBytes) return refuse(() => tooLarge(limits));
          chunks.push(chunk);
        },
        onResponseEnd: () => {
          if (stopped) return;
          if (sse) sse.end();
          else if (chunks.length > 0) {
            const bytes = Buffer.concat(chunks);
            chunks = [];
            route(bytes); // judged by its status below when it was no answer
          }
          if (status >= 200 && status < 300) failOnce(() => new SdkError(SdkErrorCode.ClientHttpUnexpectedContent, "the answer held no response"));
          else failOnce(() => statusError(status));
        },
        onResponseError: (_c, error) => failOnce(() => cancelled ?? error),
      },
    );
    return {
      cancel: (reason) => {
        if (!this.requests.drop(id)) return;
        cancelled = Object.assign(new Error(reason), { name: "AbortError" });
        controller?.abort(cancelled);
        if (this.era === "legacy") this.notify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id, reason } });
      },
    };
  }

  /**
   * One message on the stream of request `own`: its answer and its progress are taken; a server-to-client request
   * is answered; an answer or progress for another request is ignored (it is bound to its own request's stream).
   */
  private routeOne(m: unknown, own: string): void {
    const r = m as { id?: unknown; method?: unknown; params?: { progressToken?: unknown } };
    if (typeof r.method === "string") {
      if (typeof r.id === "string" || typeof r.id === "number") void this.reply(r as never);
      else if (r.method === "notifications/progress" && r.params?.progressToken !== own) this.ignored("progress for another request");
      else this.requests.take(m as JSONRPCMessage);
      return;
    }
    if (r.id === own) this.requests.take(m as JSONRPCMessage);
    else this.ignored("an answer to another request");
  }

  private ignored(what: string): void {
    this.options.logger.debug(`${what} arrived on a forwarded request's stream; ignored`);
  }

  /** Posts a message that expects no answer (a notification, a reply), best effort. */
  private notify(message: unknown): void {
    this.pool
      .request({ path: this.path, method: "POST", headers: this.headersOf(undefined), body: JSON.stringify(message) })
      .then((answer) => answer.body.dump())
      .catch(() => undefined);
  }

  private async reply(request: { id: string | number; method: string; params?: unknown }): Promise<void> {
    this.notify(await this.options.answer(request));
  }

  /** Closes the kept-alive connections (requests in flight fail: the connection is going away). */
  async close(): Promise<void> {
    this.requests.failAll();
    await this.pool.destroy().catch(() => undefined);
  }
}
