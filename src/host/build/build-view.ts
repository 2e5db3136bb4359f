/**
 * A build's view (docs/design.md §6, §7): what a selection asks of its active toolsets beyond naming them — read-only,
 * single tools from other toolsets, tool-search mode. Two selections share a build exactly when their active toolsets
 * and their views are equal, so the view is part of the build's identity (build-id.ts).
 */

/** One tool a selection adds by name (`tools=`), outside its active toolsets. */
export interface ToolPick {
  readonly toolset: string;
  /** The name its extension gave it. */
  readonly tool: string;
}

export interface BuildView {
  readonly readonly: boolean;
  /** Sorted by toolset, then tool; never a tool of an active toolset (that one is served already). */
  readonly picks: readonly ToolPick[];
  /** true: search mode; false: never; null: the host's `searchAbove` decides by the number of tools. */
  readonly search: boolean | null;
}

export const PLAIN_VIEW: BuildView = Object.freeze({ readonly: false, picks: Object.freeze([]), search: null });

function comparePicks(a: ToolPick, b: ToolPick): number {
  if (a.toolset !== b.toolset) return a.toolset < b.toolset ? -1 : 1;
  return a.tool < b.tool ? -1 : a.tool > b.tool ? 1 : 0;
}

/**
 * A view with its picks sorted and made unique (so equal views compare and key equally).
 * @example
 * normalView({ readonly: true, picks: [{ toolset: "b", tool: "x" }, { toolset: "a", tool: "y" }], search: null }).picks[0].toolset // "a"
 */
export function normalView(view: BuildView): BuildView {
  const seen = new Set<string>();
  const picks = [...view.picks].sort(comparePicks).filter((pick) => {
    const id = `${pick.toolset}\u0000${pick.tool}`;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
  if (!view.readonly && picks.length === 0 && view.search === null) return PLAIN_VIEW;
  return Object.freeze({ readonly: view.readonly, picks: Object.freeze(picks), search: view.search });
}

/** True when the view asks nothing beyond the toolsets. */
export function isPlainView(view: BuildView): boolean {
  return !view.readonly && view.picks.length === 0 && view.search === null;
}

/**
 * The view's part of a build key, written in the grammar: `&readonly`, `&tools=<toolset>:<tool>,…` (tool names
 * percent-encoded; a toolset name never holds `:`, `,` or `&`), `&search` or `&search=0`. Empty for the plain view.
 * @example
 * viewSuffix({ readonly: true, picks: [], search: true }) // "&readonly&search"
 */
export function viewSuffix(view: BuildView): string {
  let suffix = view.readonly ? "&readonly" : "";
  if (view.picks.length > 0) suffix += `&tools=${view.picks.map((p) => `${p.toolset}:${encodeURIComponent(p.tool)}`).join(",")}`;
  if (view.search !== null) suffix += view.search ? "&search" : "&search=0";
  return suffix;
}
