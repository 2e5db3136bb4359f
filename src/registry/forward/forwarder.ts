/**
 * The raw forwarding channel of one upstream connection (docs/registry.md, "Forwarded calls"): a request that needs
 * nothing but forwarding — `tools/call`, `resources/read`, `prompts/get` — goes to the upstream as one JSON-RPC
 * request on the connection the SDK client already holds, and its answer comes back as the upstream wrote it,
 * without a client round (no request-options object, no result schema parse, no abort controller per call). The
 * stdio channel shares the child's pipe and line reader with the SDK client; the HTTP channel shares its session.
 */
import type { JSONRPCMessage, Progress } from "@modelcontextprotocol/client";

/** The methods a channel forwards (the task methods: to follow an upstream's task, docs/gateway.md "Tasks"). */
export type ForwardedMethod = "tools/call" | "resources/read" | "prompts/get" | TaskMethod;

/** The task methods the gateway sends: the 2026-07-28 lifecycle's three, and 2025-11-25's `tasks/result`. */
export type TaskMethod = "tasks/get" | "tasks/update" | "tasks/cancel" | "tasks/result";

/** One request to forward: its method and params (the caller's `_meta` included; the channel adds its own keys). */
export interface ForwardRequest {
  method: ForwardedMethod;
  params: Record<string, unknown> & { _meta?: Record<string, unknown> };
  /** The tool's or prompt's upstream name (a task method: the task's id), for the `Mcp-Name` header of a 2026-07-28 request. */
  name?: string;
  /** Extensions this request declares beyond the connection's own capabilities (2026-07-28: merged into the envelope). */
  extensions?: Readonly<Record<string, object>>;
}

/**
 * The `_meta` a 2026-07-28 request carries: the connection's envelope, the request's own keys over it, and the
 * extensions the request declares merged into the envelope's client capabilities.
 * @example
 * requestMeta(envelope, { name: "job", params: {}, method: "tools/call", extensions: { "io.modelcontextprotocol/tasks": {} } })
 */
export function requestMeta(envelope: Readonly<Record<string, unknown>> | undefined, request: ForwardRequest): Record<string, unknown> {
  const meta: Record<string, unknown> = { ...envelope, ...request.params._meta };
  if (request.extensions !== undefined && envelope !== undefined) {
    const key = "io.modelcontextprotocol/clientCapabilities";
    const capabilities = (meta[key] ?? {}) as { extensions?: Record<string, object> };
    meta[key] = { ...capabilities, extensions: { ...capabilities.extensions, ...request.extensions } };
  }
  return meta;
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
