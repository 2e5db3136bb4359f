/**
 * Error codes in the words of the era a client speaks (docs/design.md §16). "Resource not found" is -32002 in the 2025
 * revisions and -32602 (Invalid params) from 2026-07-28 on; the SDK answers -32602 in both (its 2025 codec maps
 * -32002 away), so a 2025-era server instance puts the old code back on the wire: an error of -32602 whose data is
 * exactly `{ uri }` is how the SDK itself recognises resource-not-found.
 */
import type { JSONRPCMessage, Server } from "@modelcontextprotocol/server";

const INVALID_PARAMS = -32602;
const LEGACY_RESOURCE_NOT_FOUND = -32002;

/** The message with a resource-not-found error given its 2025 code; anything else as it is. */
export function legacyErrorCode(message: JSONRPCMessage): JSONRPCMessage {
  if (!("error" in message) || message.error.code !== INVALID_PARAMS) return message;
  const data = message.error.data as Record<string, unknown> | undefined;
  if (typeof data !== "object" || data === null || typeof data.uri !== "string" || Object.keys(data).length !== 1) return message;
  return { ...message, error: { ...message.error, code: LEGACY_RESOURCE_NOT_FOUND } };
}

/**
 * Makes a 2025-era server send 2025 error codes on whatever transport it is connected to.
 * @example
 * const server = new Server(info, options); speakLegacyErrorCodes(server); await server.connect(transport);
 */
export function speakLegacyErrorCodes(server: Server): void {
  const connect = server.connect.bind(server);
  server.connect = (transport) => {
    const send = transport.send.bind(transport);
    transport.send = (message, options) => send(legacyErrorCode(message), options);
    return connect(transport);
  };
}
