/**
 * What a build's view does to its contents (docs/design.md §6, §7): a picked tool comes alone from its toolset (its
 * resources, prompts, skills and instructions stay with the toolset), and `readonly` keeps only the tools annotated
 * `readOnlyHint: true` — after tool extensions and `onServer` have had their say, because an annotation is what the
 * client is told. A tool without the annotation is left out: read-only fails closed.
 */
import type { SelectionModifiers } from "../describe.js";
import type { BuildView } from "./build-view.js";
import type { BuildContents, DraftToolEntry } from "./draft-types.js";

/**
 * The contents of the active toolsets, plus only the picked tools of the toolsets the picks come from.
 * @example
 * const contents = viewContents(gatherContents(records, behind, logger), new Set(active), view);
 */
export function viewContents(contents: BuildContents, active: ReadonlySet<string>, view: BuildView): BuildContents {
  if (view.picks.length === 0) return contents;
  const picked = new Set(view.picks.map((pick) => `${pick.toolset}\u0000${pick.tool}`));
  return {
    tools: contents.tools.filter((tool) => active.has(tool.toolset) || picked.has(`${tool.toolset}\u0000${tool.name}`)),
    resources: contents.resources.filter((r) => active.has(r.toolset)),
    resourceTemplates: contents.resourceTemplates.filter((r) => active.has(r.toolset)),
    prompts: contents.prompts.filter((p) => active.has(p.toolset)),
    skills: contents.skills.filter((s) => active.has(s.toolset)),
    participants: contents.participants,
  };
}

/** True when a tool says it only reads. */
export function isReadOnly(tool: { annotations?: { readOnlyHint?: boolean } | undefined }): boolean {
  return tool.annotations?.readOnlyHint === true;
}

/** The tools a read-only view serves. */
export function readOnlyTools(tools: readonly DraftToolEntry[]): DraftToolEntry[] {
  return tools.filter(isReadOnly);
}

/**
 * What `describe` reports of the view, or undefined for a build that used none (its answer is as before views).
 * @example
 * modifiersOf(view, { search: true, searchable: 312 }) // { readonly: false, tools: [], search: true, searchable: 312 }
 */
export function modifiersOf(view: BuildView, served: { search: boolean; searchable: number }): SelectionModifiers | undefined {
  if (!view.readonly && view.picks.length === 0 && !served.search) return undefined;
  return {
    readonly: view.readonly,
    tools: view.picks.map((pick) => `${pick.toolset}.${pick.tool}`),
    search: served.search,
    ...(served.search ? { searchable: served.searchable } : {}),
  };
}
