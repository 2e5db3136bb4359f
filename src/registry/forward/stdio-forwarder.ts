/**
 * Forwarding over a stdio child's pipe (docs/registry.md, "Forwarded calls"): the request is written on the child's
 * stdin by the same transport the SDK client writes with, its answer taken off the same line reader before the SDK
 * client sees it (one id map, no listener per call). Cancelling writes `notifications/cancelled`, as the SDK would; a 2026-07-28 request carries the connection's `_meta`
 * envelope (protocol version, client info and capabilities), as the SDK client's would.
 */
import type { StdioProcessTransport } from "../connect/stdio-process.js";
import type { ForwardedRequests } from "./forwarded-requests.js";
import { requestMeta, type Forwarder, type ForwardHandle, type ForwardRequest, type ForwardSink } from "./forwarder.js";

/**
 * @example
 * const forwarder = stdioForwarder(transport, requests, "legacy", undefined);
 */
export function stdioForwarder(
  transport: StdioProcessTransport,
  requests: ForwardedRequests,
  era: "legacy" | "modern",
  envelope: Readonly<Record<string, unknown>> | undefined,
): Forwarder {
  return {
    era,
    send(request: ForwardRequest, sink: ForwardSink): ForwardHandle {
      const id = requests.add(sink);
      const params = { ...request.params, _meta: { ...requestMeta(envelope, request), progressToken: id } };
      transport.send({ jsonrpc: "2.0", id, method: request.method, params }).catch((error: unknown) => {
        if (requests.drop(id)) sink.fail(error); // never written: the pipe was gone (safe to send again)
      });
      return {
        cancel(reason) {
          if (!requests.drop(id)) return;
          transport.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id, reason } }).catch(() => undefined);
        },
      };
    },
  };
}
