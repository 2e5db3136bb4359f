/**
 * Which toolsets offer a tool of each name, read off every registered extension's contributions (dormant and
 * quarantined ones too, like the toolset catalog) — so `tools=a,b` (docs/design.md §6) can be resolved to the
 * toolsets it reaches into, and a name nobody offers reported, without building anything.
 */
import { qualifiedName } from "../../names.js";
import type { ToolPick } from "../build/build-view.js";
import { forEachContribution, type ExtensionRecord } from "./extension-record.js";

/** Tool names by the toolsets that offer them. */
export interface ToolCatalog {
  /** Raw tool name → the toolsets offering a tool of that name, sorted. */
  readonly byName: ReadonlyMap<string, readonly string[]>;
  /** `<toolset>__<tool>` (also cleaned) and `<toolset>.<tool>` → that one tool. */
  readonly byQualified: ReadonlyMap<string, ToolPick>;
}

/**
 * @example
 * toolCatalogFrom(records).byName.get("search") // ["docs", "issues"]
 */
export function toolCatalogFrom(records: readonly ExtensionRecord[]): ToolCatalog {
  const byName = new Map<string, Set<string>>();
  const byQualified = new Map<string, ToolPick>();
  for (const record of records) {
    forEachContribution(record, (toolset, item, kind) => {
      if (kind !== "tool") return;
      const tool = (item as { name: string }).name;
      byName.set(tool, (byName.get(tool) ?? new Set()).add(toolset));
      const pick = { toolset, tool };
      for (const alias of [`${toolset}__${tool}`, qualifiedName(toolset, tool), `${toolset}.${tool}`])
        if (!byQualified.has(alias)) byQualified.set(alias, pick);
    });
  }
  return { byName: new Map([...byName].map(([name, toolsets]) => [name, [...toolsets].sort()])), byQualified };
}

/**
 * The tools `names` reach (a raw name reaches every toolset offering it; a qualified one, that toolset's), and the
 * names nothing offers. A raw name wins over a qualified reading of the same text.
 * @example
 * resolveToolNames(catalog, ["search", "docs.fetch", "nosuch"]) // { picks: [docs/search, issues/search, docs/fetch], unknown: ["nosuch"] }
 */
export function resolveToolNames(catalog: ToolCatalog, names: Iterable<string>): { picks: ToolPick[]; unknown: string[] } {
  const picks: ToolPick[] = [];
  const unknown: string[] = [];
  for (const name of names) {
    const toolsets = catalog.byName.get(name);
    if (toolsets !== undefined) {
      for (const toolset of toolsets) picks.push({ toolset, tool: name });
      continue;
    }
    const qualified = catalog.byQualified.get(name);
    if (qualified !== undefined) picks.push(qualified);
    else unknown.push(name);
  }
  return { picks, unknown };
}
