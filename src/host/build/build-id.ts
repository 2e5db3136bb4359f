/**
 * A build's identity (docs/design.md §7): its active toolsets and its view, and the key both make. It is one value,
 * made once per request at the edge and narrowed by the caller's permissions before anything is built, and the same
 * value keys the build cache, a selection's endpoint, a legacy session and `describe()` — so a view (`readonly`,
 * `tools=`, `search`) can never be lost in a copy of the names.
 */
import type { Selection } from "../selection.js";
import { isPlainView, PLAIN_VIEW, viewSuffix, type BuildView } from "./build-view.js";

export interface BuildId {
  /** The active toolsets, sorted and unique. */
  readonly toolsets: readonly string[];
  /** What the selection asks beyond its toolsets: read-only, single tools, search. */
  readonly view: BuildView;
  /** The toolsets joined by `,` (no toolset name holds one), then the view in the grammar: `core,spaces&readonly`. */
  readonly key: string;
}

/**
 * @example
 * buildIdOf(["spaces", "core"], { readonly: true, picks: [], search: null }).key // "core,spaces&readonly"
 */
export function buildIdOf(active: Iterable<string>, view: BuildView = PLAIN_VIEW): BuildId {
  const toolsets = Object.freeze([...new Set(active)].sort());
  return Object.freeze({ toolsets, view, key: toolsets.join(",") + viewSuffix(view) });
}

/**
 * The toolsets whose offer a build depends on: the active ones and those its view picks single tools from.
 * @example
 * toolsetsBehind(buildIdOf(["a"], { readonly: false, picks: [{ toolset: "b", tool: "x" }], search: null })) // ["a", "b"]
 */
export function toolsetsBehind(id: BuildId): string[] {
  if (id.view.picks.length === 0) return [...id.toolsets];
  return [...new Set([...id.toolsets, ...id.view.picks.map((pick) => pick.toolset)])];
}

/** True when two identities name the same build. */
export function sameBuild(a: BuildId, b: BuildId): boolean {
  return a.key === b.key;
}

/**
 * The selection that asks for exactly this build: its toolsets as `only`, its picks as `toolset.tool`, its modifiers.
 * For a build's handler reached without a request's own selection (its server mounted in another app).
 * @example
 * selectionOfBuild(buildIdOf(["a"], { readonly: true, picks: [], search: null })).readonly // true
 */
export function selectionOfBuild(id: BuildId): Selection {
  return Object.freeze({
    named: new Set<string>(),
    only: new Set(id.toolsets),
    without: new Set<string>(),
    tools: new Set(id.view.picks.map((pick) => `${pick.toolset}.${pick.tool}`)),
    readonly: id.view.readonly,
    search: id.view.search,
  });
}

/** True when the build serves its toolsets as they are (no view). */
export function isPlainBuild(id: BuildId): boolean {
  return isPlainView(id.view);
}
