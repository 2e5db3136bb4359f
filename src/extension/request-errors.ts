import { defined } from "../defined.js";
/**
 * Errors a resource, prompt or completion handler throws on purpose, to tell the client its request was wrong
 * (JSON-RPC "invalid params", "resource not found") rather than that the extension broke. The host turns them
 * into the protocol's errors for the client's era; anything else a handler throws is treated as a bug (-32603,
 * details only in the log). They carry a brand, not a class identity, so two installed copies agree.
 */

const BRAND = Symbol.for("mcp-host.RequestError");

/** What kind of client mistake a request error reports. */
export type RequestErrorKind = "invalid_params" | "resource_not_found";

/** A client mistake a handler reports; see `invalidParams` and `resourceNotFound`. */
export interface RequestError extends Error {
  readonly kind: RequestErrorKind;
  /** For `resource_not_found`: the URI that was asked for. */
  readonly uri?: string;
  readonly data?: unknown;
}

function requestError(kind: RequestErrorKind, message: string, extra: { uri?: string; data?: unknown }): RequestError {
  const error = Object.assign(new Error(message), { kind, ...extra });
  Object.defineProperty(error, BRAND, { value: true });
  error.name = "RequestError";
  return error;
}

/**
 * The caller's arguments are wrong; the message says how to fix them.
 * @example
 * get: ({ zone }) => { if (!isZone(zone)) throw invalidParams(`"${zone}" is not an IANA time zone`); … }
 */
export function invalidParams(message: string, data?: unknown): RequestError {
  return requestError("invalid_params", message, defined({ data }));
}

/**
 * There is no resource at this URI; the message says what exists.
 * @example
 * read: (uri) => { const note = notes.get(id); if (!note) throw resourceNotFound(uri, `No note ${id}`); … }
 */
export function resourceNotFound(uri: string, message = `Resource not found: ${uri}`): RequestError {
  return requestError("resource_not_found", message, { uri });
}

/** True for an error made by `invalidParams` or `resourceNotFound` (from any installed copy of mcp-host). */
export function isRequestError(value: unknown): value is RequestError {
  return typeof value === "object" && value !== null && (value as { [BRAND]?: unknown })[BRAND] === true;
}
