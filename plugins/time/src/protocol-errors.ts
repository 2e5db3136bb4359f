/**
 * JSON-RPC errors for resource reads and prompts. The host passes an SDK ProtocolError through to the client
 * (the SDK brands its errors, so this works across installed copies) and treats anything else as a bug, so a
 * bad zone must be a ProtocolError to reach the caller as "invalid params" / "resource not found" with its message.
 */
import { ProtocolError, ProtocolErrorCode, ResourceNotFoundError } from "@modelcontextprotocol/server";

/** The caller's arguments are wrong; the message says how. */
export function invalidParams(message: string): Error {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, message);
}

/** No resource at this URI; the message says why and what exists. */
export function resourceNotFound(uri: string, message: string): Error {
  return new ResourceNotFoundError(uri, message);
}
