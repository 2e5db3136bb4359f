/**
 * Carries what the HTTP edge learned about a request — the build its selection resolved to, the names it used
 * that nobody declared, its verified caller — down to the SDK server factory, which the SDK calls with only a
 * web Request. It rides on the node request, and in AsyncLocalStorage for the SDK's callback.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { AuthInfo } from "@modelcontextprotocol/server";
import type { CompiledBuild } from "../host/build/compiled-build.js";

export interface RequestScope {
  readonly compiled: CompiledBuild;
  readonly unknown: readonly string[];
  /** The verified caller's facts, token removed. */
  readonly authInfo?: AuthInfo;
  /** The declared toolsets the caller may reach (with toolset permissions on). */
  readonly permitted?: readonly string[];
  /** The verified caller's subject: a legacy session is bound to it. */
  readonly subject?: string;
  /**
   * The key of the selection as the URL resolves before the caller's permissions narrow it: a legacy session
   * belongs to the URL it was opened on, while what it serves is what its opener could reach.
   */
  readonly requested?: string;
}

export const requestScope = new AsyncLocalStorage<RequestScope>();

const SCOPE_KEY = Symbol.for("mcp-host.requestScope");

/** Reads the scope the edge attached to a node request. */
export function scopeOf(req: object): RequestScope | undefined {
  return (req as { [SCOPE_KEY]?: RequestScope })[SCOPE_KEY];
}

/** Attaches a scope to a node request (done by the HTTP edge before handing it to the selection). */
export function attachScope(req: object, scope: RequestScope): void {
  (req as { [SCOPE_KEY]?: RequestScope })[SCOPE_KEY] = scope;
}
