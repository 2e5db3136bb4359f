/**
 * Turns what a selection asks beyond its toolsets (docs/design.md §6: `readonly`, `tools=`, `search`) into the build's
 * view, given the active toolsets and who offers which tool: single tools already served by an active toolset add
 * nothing (so `?only=x&tools=x_tool` shares the build of `?only=x`), tools of toolsets the caller may not reach are
 * left out, and names nobody offers are reported the way the selection wrote them (`tools=<name>`).
 */
import type { ToolCatalog } from "../extensions/tool-catalog.js";
import { resolveToolNames } from "../extensions/tool-catalog.js";
import { UNKNOWN_TOOL_PREFIX, type Selection } from "../selection.js";
import { normalView, type BuildView, type ToolPick } from "./build-view.js";

/** The toolsets a selection's `tools=` reaches into (to wake their dormant extensions). */
export function pickedToolsets(selection: Selection, catalog: ToolCatalog): string[] {
  if (selection.tools.size === 0) return [];
  return [...new Set(resolveToolNames(catalog, selection.tools).picks.map((pick) => pick.toolset))];
}

/**
 * @example
 * resolveView(parseSelection("readonly&tools=get_issue"), ["core"], catalog) // { view: { readonly: true, picks: [issues/get_issue], … }, unknown: [] }
 */
export function resolveView(
  selection: Selection,
  active: readonly string[],
  catalog: ToolCatalog,
  permitted?: ReadonlySet<string>,
): { view: BuildView; unknown: string[] } {
  const served = new Set(active);
  let picks: ToolPick[] = [];
  let unknown: string[] = [];
  if (selection.tools.size > 0) {
    const resolved = resolveToolNames(catalog, selection.tools);
    picks = resolved.picks.filter((pick) => !served.has(pick.toolset) && (permitted?.has(pick.toolset) ?? true));
    unknown = resolved.unknown.map((name) => `${UNKNOWN_TOOL_PREFIX}${name}`);
  }
  return { view: normalView({ readonly: selection.readonly, picks, search: selection.search }), unknown };
}
