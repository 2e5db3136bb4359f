/**
 * Carries what the HTTP edge learned about a request (its selection and verified caller) down to the SDK server
 * factory, which the SDK calls with only a web Request. AsyncLocalStorage keeps it per request without globals.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { AuthInfo } from "@modelcontextprotocol/server";

export interface RequestScope {
  active: readonly string[];
  unknown: readonly string[];
  authInfo?: AuthInfo;
}

export const requestScope = new AsyncLocalStorage<RequestScope>();

/** Where the serving layer attaches the scope on the node request, for handlers that run outside the store. */
export const SCOPE_KEY = Symbol.for("mcp-host.requestScope");

/** Reads the scope the edge attached to a node request. */
export function scopeOf(req: object): RequestScope | undefined {
  return (req as { [SCOPE_KEY]?: RequestScope })[SCOPE_KEY];
}

/** Attaches a scope to a node request (done by the HTTP edge before handing it to the selection). */
export function attachScope(req: object, scope: RequestScope): void {
  (req as { [SCOPE_KEY]?: RequestScope })[SCOPE_KEY] = scope;
}
