/**
 * The raw forwarding channel of one upstream connection (docs/registry.md, "Forwarded calls"): a request that needs
 * nothing but forwarding — `tools/call`, `resources/read`, `prompts/get` — goes to the upstream as one JSON-RPC
 * request on the connection the SDK client already holds, and its answer comes back as the upstream wrote it,
 * without a client round (no request-options object, no result schema parse, no abort controller per call). The
 * stdio channel shares the child's pipe and line reader with the SDK client; the HTTP channel shares its session.
 */
import type { JSONRPCMessage, Progress } from "@modelcontextprotocol/client";

/** The methods a channel forwards. */
export type ForwardedMethod = "tools/call" | "resources/read" | "prompts/get";

/** One request to forward: its method and params (the caller's `_meta` included; the channel adds its own keys). */
export interface ForwardRequest {
  method: ForwardedMethod;
  params: Record<string, unknown> & { _meta?: Record<string, unknown> };
  /** The tool's or prompt's upstream name, for the `Mcp-Name` header of a 2026-07-28 request. */
  name?: string;
}

/** Where a forwarded request's outcome goes; exactly one of `result` and `fail` is called, once. */
export interface ForwardSink {
  result(value: Record<string, unknown>): void;
  /** A rejection (a ProtocolError carrying the upstream's code), or a transport failure (classified by failure.ts). */
  fail(error: unknown): void;
  progress(progress: Progress): void;
}

/** A request in flight: cancelling it tells the upstream (notifications/cancelled, or closing the HTTP request). */
export interface ForwardHandle {
  cancel(reason: string): void;
}

/**
 * @example
 * const handle = forwarder.send({ method: "tools/call", params: { name: "echo", arguments: { text: "hi" } } }, sink);
 */
export interface Forwarder {
  /** The era of the connection it shares (a 2026-07-28 answer is normalised as the SDK client would). */
  readonly era: "legacy" | "modern";
  send(request: ForwardRequest, sink: ForwardSink): ForwardHandle;
}

/** A message is the response to a request (not a request or a notification). */
export function isResponse(message: JSONRPCMessage): message is JSONRPCMessage & { id: string | number } {
  return "id" in message && !("method" in message);
}
