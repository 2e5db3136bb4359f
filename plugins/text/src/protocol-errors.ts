/**
 * JSON-RPC errors for prompts, made without importing the SDK at run time: the SDK answers a thrown error with
 * its `code` when it has one, so a bad prompt argument is "invalid params" on the wire, not an internal error.
 */

/** -32602: the caller's arguments are wrong; the message says how. */
export function invalidParams(message: string): Error {
  return Object.assign(new Error(message), { code: -32602 });
}
