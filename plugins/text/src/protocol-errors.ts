/**
 * JSON-RPC errors for prompts. The host passes an SDK ProtocolError through to the client (the SDK brands its
 * errors, so this works across installed copies) and treats anything else as a bug, so a bad prompt argument must
 * be a ProtocolError to reach the caller as "invalid params" with its message.
 */
import { ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";

/** The caller's arguments are wrong; the message says how. */
export function invalidParams(message: string): Error {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, message);
}
