/**
 * One request on the fast path (docs/design.md §8): where what the pooled server sends for it goes. A result with
 * nothing before it is written straight to the node response as the SDK's entry would write it (200, JSON, its
 * length, one write). Anything else — an error, or a notification before the result, which turns the answer into an
 * SSE stream — is shaped by the SDK's own per-request transport, so statuses, stream framing, headers and keep-alive
 * are the SDK's and nothing of them is copied here. The exchange is open while an answer may still reach the client;
 * what a handler sends after that fails as it fails on a closed per-request transport.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { PerRequestHTTPServerTransport, type AuthInfo, type JSONRPCMessage, type MessageExtraInfo } from "@modelcontextprotocol/server";
import type { ServeRequestInfo } from "../../host/protocol/request-context.js";
import type { RequestFacts } from "../edge/request-facts.js";
import type { FastRoute } from "./fast-path-guard.js";
import { webRequestOf, writeWebResponse } from "./web-exchange.js";

export class FastExchange {
  /** An answer may still reach the client: false once answered (after the turn it was sent in), left or closed. */
  open = true;
  /** True while the request is handed to the server: what it answers now is the SDK's ladder (see `refused`). */
  dispatching = false;
  /** The server answered during the hand-over (method not found, a bad envelope…): the SDK's entry answers instead. */
  refused = false;
  /**
   * What the pooled server is handed with the request: its classification, the caller, and in the place of the web
   * `Request` this exchange itself — the pooled server's context turns it into the request's own `Request`, made only
   * if something reads it (`ctx.mcp.http.req`): most calls never do, and making one costs a tenth of a call.
   */
  readonly extra: MessageExtraInfo;
  /** The SDK's per-request transport writing this answer, once it is more than a plain result. */
  private writer: PerRequestHTTPServerTransport | undefined;
  private webRequest: Request | undefined;

  constructor(
    readonly route: FastRoute,
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
    private readonly facts: RequestFacts,
    /** What the host knows of the request: the selection, the caller (a pooled server reads it from the context). */
    readonly info: ServeRequestInfo,
    authInfo: AuthInfo | undefined,
  ) {
    this.extra = { classification: route.classification, request: this as unknown as Request, ...(authInfo === undefined ? {} : { authInfo }) };
  }

  /** The web `Request` the SDK's entry would have been given for this request, made on first use. */
  get request(): Request {
    this.webRequest ??= webRequestOf(this.req, this.res, this.facts);
    return this.webRequest;
  }

  get id(): string | number {
    return this.route.message.id;
  }

  /**
   * A message the server sent for this request: its answer (`final`), or one that comes before it.
   * @example
   * exchange.deliver({ jsonrpc: "2.0", id: 7, result: { content: [] } }, true);
   */
  deliver(message: JSONRPCMessage, final: boolean): void {
    if (this.dispatching) {
      this.refused = true;
      this.open = false;
      return;
    }
    if (final) {
      // As on the SDK's transport, which closes a turn after its answer: what is sent in between is dropped.
      queueMicrotask(() => {
        this.open = false;
      });
      // A final message is an answer (the pooled server said so): a result unless it is an error.
      if (this.writer === undefined && "result" in message) {
        writeJson(this.res, message);
        return;
      }
    }
    this.writerOf()
      .send(message, final ? {} : { relatedRequestId: this.id })
      .catch(() => {});
  }

  /** The server closed before answering (the endpoint closed): answered as the SDK's entry answers it then. */
  closedUnanswered(): void {
    this.open = false;
    if (this.writer !== undefined) {
      void this.writer.close();
      return;
    }
    if (!this.res.destroyed && !this.res.headersSent) this.res.writeHead(499).end();
  }

  /** The client left: nothing more is sent. */
  left(): void {
    this.open = false;
  }

  /**
   * The SDK's per-request transport, serving this exchange as if its server were behind it: it takes the request
   * (nothing is dispatched: the pooled server has it), then turns the messages it is given into the HTTP answer.
   */
  private writerOf(): PerRequestHTTPServerTransport {
    if (this.writer !== undefined) return this.writer;
    const writer = new PerRequestHTTPServerTransport({ classification: this.route.classification });
    writer.onmessage = () => {};
    void writer.start();
    this.writer = writer;
    writer.handleMessage(this.route.message, { request: this.request }).then(
      (response) => writeWebResponse(this.res, response),
      () => {
        // Closed before an answer: the client left, or the endpoint closed.
        if (!this.res.destroyed && !this.res.headersSent) this.res.writeHead(499).end();
      },
    );
    return writer;
  }
}

/** The fast exchange a pooled server was handed in the place of a request (`MessageExtraInfo.request`), if any. */
export function exchangeOf(request: object | undefined): FastExchange | undefined {
  return request instanceof FastExchange ? request : undefined;
}

/** A result as the SDK's entry writes it: 200, JSON, with its length, in one write. */
function writeJson(res: ServerResponse, message: JSONRPCMessage): void {
  if (res.destroyed) return;
  const text = JSON.stringify(message);
  res.writeHead(200, { "content-type": "application/json", "content-length": String(Buffer.byteLength(text)) }).end(text);
}
