/**
 * The seam between the host and whatever serves its selections over HTTP (docs/design.md §7, §8). The host never
 * imports the HTTP layer: when serving starts, that layer hands the host a `ServingLayer`, and from then on every
 * build's handler — the one its serverFactory wraps — is made by that layer for that build: the deployment's CORS,
 * token verification, caller limits and toolset permissions, then MCP serving, all bound to the build, so the
 * server a selection is built with is what serves it and carries its checks. Attaching or detaching drops every
 * build; one made while nothing served answers 503 (it never serves unchecked), and one made before serving
 * started is simply rebuilt on its next request. One layer at a time: a second is refused, never a silent take-over.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { BuildId } from "./build/build-id.js";
import type { BuildCore, CompiledBuild } from "./build/compiled-build.js";
import type { SelectionPlan } from "./build/selection-plan.js";
import type { NodeHandler } from "./built-server.js";
import type { Selection } from "./selection.js";

/** What the serving layer gives the host. */
export interface ServingLayer {
  /**
   * The handler of one build (what its serverFactory receives as `handler`). `build.id` is the build's identity: key
   * anything by `build.id.key` and hand `build.id` back to `compiled` — it carries the build's view (readonly, single
   * tools, search), which a copy of the toolset names would lose.
   */
  handlerFor(build: BuildCore): NodeHandler;
}

/** What the host gives the serving layer back: the seams only it needs. */
export interface HostServing {
  /** What a selection asks for, resolved against what is declared and offered now; nothing is built or woken. */
  plan(selection: Selection): SelectionPlan;
  /** Sets up the dormant extensions a (narrowed) plan names; true when that changed the offer (plan again, then). */
  wake(plan: SelectionPlan): Promise<boolean>;
  /** The cached build of an identity, exactly as given (nothing resolved, nothing woken). */
  compiled(id: BuildId): Promise<CompiledBuild>;
  /** Detaches the layer: builds made from now on answer 503 until serving starts again. */
  close(): void;
}

/** The host's method that attaches a layer; not part of the public API (the symbol is not exported from an entry). */
export const OPEN_SERVING = Symbol("mcp-host.openServing");

/** Answers a request for a selection of a host that nobody serves right now. */
export function answerNotServed(_req: IncomingMessage, res: ServerResponse): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const message = "This MCP host is not being served right now (not yet, or no longer): pass it to createHostApp() or listenHost().";
  res.writeHead(503, { "content-type": "application/json", "retry-after": "5" });
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }));
}

export type { IncomingMessage, ServerResponse };
