/**
 * JSON-RPC errors for resource reads and prompts, made without importing the SDK at run time: the SDK answers a
 * thrown error with its `code` and `data` when it has them, so a bad zone is "invalid params" or "resource not
 * found" on the wire, not an internal error.
 */

/** -32602: the caller's arguments are wrong; the message says how. */
export function invalidParams(message: string): Error {
  return Object.assign(new Error(message), { code: -32602 });
}

/** -32002: no resource at this URI; `data.uri` lets clients rebuild the SDK's ResourceNotFoundError. */
export function resourceNotFound(uri: string, message: string): Error {
  return Object.assign(new Error(message), { code: -32002, data: { uri } });
}
