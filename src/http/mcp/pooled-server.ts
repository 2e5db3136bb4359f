/**
 * A long-lived SDK server of the fast path (docs/design.md §8), on public SDK classes only: a low-level `Server` made
 * by the protocol core like any other (its handlers read each request's facts from the request's context), listing
 * 2026-07-28 among its versions, connected once to a subclass of the SDK's `PerRequestHTTPServerTransport` — so the
 * SDK binds it to that revision, as it binds the entry's per-request servers — and fed one request at a time through
 * the transport's `onmessage`, with the classification, the request and the caller, as the SDK's own transport feeds
 * it. What the server sends goes to the request it belongs to by JSON-RPC id, so a server never has two requests with
 * one id in flight. A request's SDK context may send to its client only while its exchange is open.
 */
import {
  PerRequestHTTPServerTransport,
  SdkError,
  SdkErrorCode,
  Server,
  SUPPORTED_PROTOCOL_VERSIONS,
  type BaseContext,
  type JSONRPCErrorResponse,
  type JSONRPCMessage,
  type JSONRPCResultResponse,
  type MessageExtraInfo,
  type RequestId,
  type ServerContext,
  type TransportSendOptions,
} from "@modelcontextprotocol/server";
import type { ProtocolCore } from "../../host/protocol/sdk-server.js";
import { createSdkServer } from "../../host/protocol/sdk-server.js";
import { exchangeOf, type FastExchange } from "./fast-exchange.js";
import { FAST_PATH_REVISION } from "./fast-path-guard.js";

/** What a pooled server lists: the SDK's own versions and the one it serves (as the entry's servers end up listing). */
const SERVED_VERSIONS = SUPPORTED_PROTOCOL_VERSIONS.includes(FAST_PATH_REVISION)
  ? SUPPORTED_PROTOCOL_VERSIONS
  : [...SUPPORTED_PROTOCOL_VERSIONS, FAST_PATH_REVISION];

const CLASSIFICATION = { era: "modern", revision: FAST_PATH_REVISION } as const;

/** Why the entry aborts a handler whose client left: its per-request transport closed. */
function closedConnection(): SdkError {
  return new SdkError(SdkErrorCode.ConnectionClosed, "Connection closed");
}

/** The failure of a send on a closed per-request transport, which is what a request whose exchange ended has. */
function notConnected(): Promise<never> {
  return Promise.reject(new SdkError(SdkErrorCode.NotConnected, "Not connected"));
}

/**
 * A `Server` whose request contexts send to the client only while their own exchange is open: one server serves many
 * requests, and a handler that outlives its answer (a task, a timed-out tool) must not reach a later request that
 * happens to reuse its id. When the client leaves, the handler's signal is aborted with the reason the entry gives
 * (its per-request transport closes: `SdkError` ConnectionClosed), not the cancellation's text the pooled server is
 * told with.
 */
class PooledServer extends Server {
  protected override buildContext(ctx: BaseContext, transportInfo?: MessageExtraInfo): ServerContext {
    const exchange = exchangeOf(transportInfo?.request);
    if (exchange === undefined) return super.buildContext(ctx, transportInfo);
    const { notify, send, signal } = ctx.mcpReq;
    const mcpReq = ctx.mcpReq as { notify: typeof notify; send: typeof send; signal: AbortSignal };
    const handlerAbort = new AbortController();
    signal.addEventListener("abort", () => handlerAbort.abort(exchange.open ? signal.reason : closedConnection()), { once: true });
    mcpReq.signal = handlerAbort.signal;
    mcpReq.notify = (notification) => (exchange.open ? notify(notification) : notConnected());
    const sendAny = send as (...args: unknown[]) => Promise<unknown>;
    mcpReq.send = ((...args: unknown[]) => (exchange.open ? sendAny(...args) : notConnected())) as typeof send;
    const context = super.buildContext(ctx, transportInfo) as ServerContext & { [EXCHANGE_OF_CONTEXT]?: FastExchange };
    context[EXCHANGE_OF_CONTEXT] = exchange;
    if (context.http !== undefined) context.http = new LazyHttpInfo(context.http, exchange);
    return context;
  }
}

const EXCHANGE_OF_CONTEXT = Symbol("mcp-host.fastExchange");

/** The exchange a pooled server's request context serves. */
function exchangeOfContext(sdk: ServerContext): FastExchange {
  return (sdk as { [EXCHANGE_OF_CONTEXT]?: FastExchange })[EXCHANGE_OF_CONTEXT]!;
}

type HttpInfo = NonNullable<ServerContext["http"]>;

/** A context's `http`, whose `req` is the exchange's web `Request`, made when first read. */
class LazyHttpInfo implements HttpInfo {
  readonly authInfo: HttpInfo["authInfo"];
  readonly closeSSE: HttpInfo["closeSSE"];
  readonly closeStandaloneSSE: HttpInfo["closeStandaloneSSE"];

  constructor(
    http: HttpInfo,
    private readonly exchange: FastExchange,
  ) {
    this.authInfo = http.authInfo;
    this.closeSSE = http.closeSSE;
    this.closeStandaloneSSE = http.closeStandaloneSSE;
  }

  get req(): Request {
    return this.exchange.request;
  }
}

/**
 * Whether a message the pooled server sends answers a request (a result or an error) rather than being a request or a
 * notification of its own. The server made the message, so its shape is the SDK's: this reads its keys, where the
 * SDK's `isJSONRPCResultResponse` would parse the whole result with zod again (~2% of a call).
 */
function isAnswer(message: JSONRPCMessage): message is JSONRPCResultResponse | JSONRPCErrorResponse {
  return "id" in message && !("method" in message) && ("result" in message || "error" in message);
}

/** The transport a pooled server is connected to once: it takes requests and routes what the server sends by id. */
export class PooledTransport extends PerRequestHTTPServerTransport {
  /** The requests in flight on this server, by JSON-RPC id. */
  private readonly inFlight = new Map<RequestId, FastExchange>();
  /** Set once the pool let this server go: it takes nothing new and closes when its last request is done. */
  private retiring = false;
  readonly server: Server;

  constructor(core: ProtocolCore) {
    super({ classification: CLASSIFICATION });
    this.server = createSdkServer(core, (sdk) => exchangeOfContext(sdk).info, {
      make: (identity, options) => new PooledServer(identity, { ...options, supportedProtocolVersions: [...SERVED_VERSIONS] }),
    });
  }

  /** Connects the server (once); the SDK binds it to the revision of this transport's classification. */
  async connect(): Promise<void> {
    await this.server.connect(this);
  }

  /** Whether a request with this id may be handed to this server now. */
  takes(id: RequestId): boolean {
    return !this.retiring && !this.inFlight.has(id);
  }

  get idle(): boolean {
    return this.inFlight.size === 0;
  }

  /**
   * Hands a request to the server. False when the server answered it at once (its ladder: nothing ran), for the SDK's
   * entry to answer instead.
   * @example
   * if (!member.dispatch(exchange)) return entry(request);
   */
  dispatch(exchange: FastExchange): boolean {
    const id = exchange.id;
    this.inFlight.set(id, exchange);
    exchange.dispatching = true;
    try {
      this.onmessage?.(exchange.route.message, exchange.extra);
    } finally {
      exchange.dispatching = false;
    }
    if (!exchange.refused) return true;
    this.release(id, exchange);
    return false;
  }

  /** The client left before the answer: the handler's signal is aborted (a cancellation, as the protocol defines). */
  abandon(exchange: FastExchange): void {
    exchange.left();
    const id = exchange.id;
    if (this.inFlight.get(id) !== exchange) return;
    this.release(id, exchange);
    this.onmessage?.(
      { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id, reason: "Connection closed" } },
      { classification: CLASSIFICATION },
    );
  }

  /** The pool no longer hands this server anything; it closes once its requests are done. */
  retire(): void {
    this.retiring = true;
    if (this.idle) void this.close();
  }

  override async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const final = isAnswer(message);
    const id = final ? message.id : options?.relatedRequestId;
    if (id === undefined) return;
    const exchange = this.inFlight.get(id);
    if (exchange === undefined) return;
    if (final && !exchange.dispatching) this.release(id, exchange);
    exchange.deliver(message, final);
  }

  override async close(): Promise<void> {
    const unanswered = [...this.inFlight.values()];
    this.inFlight.clear();
    this.retiring = true;
    await super.close();
    for (const exchange of unanswered) exchange.closedUnanswered();
  }

  private release(id: RequestId, exchange: FastExchange): void {
    if (this.inFlight.get(id) === exchange) this.inFlight.delete(id);
    if (this.retiring && this.idle) void this.close();
  }
}
