/**
 * The requests one channel has forwarded and not yet seen answered, by id, in the channel's own id namespace
 * (`mcp-host-fwd-<n>`: the SDK client numbers its requests, so the two never meet on a shared pipe or session). The
 * id doubles as the request's progress token. A message is taken here when it answers, or reports progress for, one
 * of these requests; everything else goes on to the SDK client as before — one reader, no listener per call.
 */
import { ProtocolError, SdkError, SdkErrorCode, type JSONRPCMessage } from "@modelcontextprotocol/client";
import type { ForwardSink } from "./forwarder.js";

const PREFIX = "mcp-host-fwd-";

/**
 * @example
 * const requests = new ForwardedRequests();
 * const id = requests.add(sink); … transport.intercept = (message) => requests.take(message);
 */
export class ForwardedRequests {
  private next = 0;
  private readonly waiting = new Map<string, ForwardSink>();

  /** Registers a request's sink; returns its id (also its progress token). */
  add(sink: ForwardSink): string {
    const id = `${PREFIX}${++this.next}`;
    this.waiting.set(id, sink);
    return id;
  }

  /** Forgets a request (it was cancelled, or failed to be written); true when it was still waiting. */
  drop(id: string): boolean {
    return this.waiting.delete(id);
  }

  get size(): number {
    return this.waiting.size;
  }

  /** Takes `message` when it is for a forwarded request: true when consumed. */
  take(message: JSONRPCMessage): boolean {
    const m = message as { id?: unknown; method?: unknown; params?: { progressToken?: unknown }; result?: unknown; error?: unknown };
    if (m.method === undefined) {
      if (typeof m.id !== "string" || !m.id.startsWith(PREFIX)) return false;
      const sink = this.waiting.get(m.id);
      if (sink === undefined) return true; // cancelled meanwhile: the answer has nobody to go to
      this.waiting.delete(m.id);
      if (m.error !== undefined) sink.fail(rejectionOf(m.error));
      else sink.result((m.result ?? {}) as Record<string, unknown>);
      return true;
    }
    if (m.method !== "notifications/progress") return false;
    const token = m.params?.progressToken;
    if (typeof token !== "string" || !token.startsWith(PREFIX)) return false;
    const sink = this.waiting.get(token);
    if (sink) {
      const { progressToken: _token, ...progress } = m.params as Record<string, unknown>; // what the SDK client hands on
      sink.progress(progress as never);
    }
    return true;
  }

  /**
   * Fails the request an answer the reader refused (too large, too deep) was for; true when the id is one of this
   * channel's, waiting or not (an id of the SDK client's is not).
   */
  refuse(id: string | number, error: unknown): boolean {
    if (typeof id !== "string" || !id.startsWith(PREFIX)) return false;
    const sink = this.waiting.get(id);
    if (sink !== undefined) {
      this.waiting.delete(id);
      sink.fail(error);
    }
    return true;
  }

  /** Fails every request still waiting (the connection closed under them: they may have run). */
  failAll(error: unknown = new SdkError(SdkErrorCode.ConnectionClosed, "Connection closed")): void {
    const sinks = [...this.waiting.values()];
    this.waiting.clear();
    for (const sink of sinks) sink.fail(error);
  }
}

/** A JSON-RPC error object as the SDK client would raise it: a ProtocolError with the upstream's code and data. */
export function rejectionOf(error: unknown): ProtocolError {
  const e = (error ?? {}) as { code?: unknown; message?: unknown; data?: unknown };
  return ProtocolError.fromError(typeof e.code === "number" ? e.code : -32603, typeof e.message === "string" ? e.message : "error", e.data);
}
