/**
 * The seam between the host and whatever serves its selections over HTTP (docs/design.md §7, §8). The host never
 * imports the HTTP layer: when serving starts, that layer hands the host a port, and every selection's handler —
 * the one a serverFactory wraps — forwards to it. One port at a time: a second attempt is refused, never a
 * silent take-over, and a build made before serving started works as soon as it does.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { CompiledBuild } from "./build/compiled-build.js";

/** What the serving layer gives the host. */
export interface ServingPort {
  /**
   * Serves one request of the selection whose active toolsets are `toolsets` (sorted). The list is the build's own
   * identity list: key endpoints by `selectionKey(toolsets)` and hand it back to `compiled` as it is — it carries the
   * build's view (readonly, single tools, search: build/build-view.ts), which a copy of the names would lose.
   */
  handle(toolsets: readonly string[], req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void): unknown;
}

/** What the host gives the serving layer back: the seams only it needs. */
export interface HostServing {
  /** The cached build of an identity list the port was handed, exactly as given (nothing resolved, nothing woken). */
  compiled(toolsets: readonly string[]): Promise<CompiledBuild>;
  /** Detaches the port: selections answer 503 until serving starts again. */
  close(): void;
}

/** The host's method that attaches a port; not part of the public API (the symbol is not exported from an entry). */
export const OPEN_SERVING = Symbol("mcp-host.openServing");

/** Answers a request for a selection of a host that nobody serves right now. */
export function answerNotServed(res: ServerResponse): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const message = "This MCP host is not being served right now (not yet, or no longer): pass it to createHostApp() or listenHost().";
  res.writeHead(503, { "content-type": "application/json", "retry-after": "5" });
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }));
}

export type { IncomingMessage, ServerResponse };
