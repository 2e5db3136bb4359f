/**
 * What a request's selection asks the host for (docs/design.md §6, §7, §9), resolved once and without building
 * anything: the build's identity (active toolsets and view), the names nobody declared or offers, the dormant
 * toolsets it names, and how each `tools=` name resolved. Narrowing a plan by a caller's permissions is a pure
 * function of the plan, so the serving layer verifies the token first, narrows, and only then builds: a caller who is
 * not yet authenticated makes nothing be built. A `tools=` name that reaches only toolsets the caller may not reach is
 * reported exactly like a name nobody offers, so a narrow token cannot tell the two apart.
 */
import type { ToolCatalog } from "../extensions/tool-catalog.js";
import { resolveToolNames } from "../extensions/tool-catalog.js";
import { expandKeywords, resolveSelection, UNKNOWN_TOOL_PREFIX, type DeclaredToolsetFlags, type Selection } from "../selection.js";
import { buildIdOf, type BuildId } from "./build-id.js";
import { normalView, type ToolPick } from "./build-view.js";

/** One `tools=` name as the selection wrote it, and every tool of that name it reaches (active toolsets' included). */
export interface ToolAsk {
  readonly written: string;
  readonly reaches: readonly ToolPick[];
}

export interface SelectionPlan {
  /** The build the selection asks for. */
  readonly id: BuildId;
  /** Names nobody declared, and `tools=<name>` for tools nobody offers (or the caller may not reach), sorted. */
  readonly unknown: readonly string[];
  /** The toolsets it names or picks tools from: the dormant extensions it may wake (docs/design.md §4 rule 11). */
  readonly wake: readonly string[];
  /** Its `tools=` names, resolved (for narrowing). */
  readonly asks: readonly ToolAsk[];
}

/** What a plan is made from: the host's catalogs at one revision. */
export interface PlanCatalogs {
  readonly declared: readonly DeclaredToolsetFlags[];
  readonly tools: ToolCatalog;
}

function sorted(names: Iterable<string>): string[] {
  return [...new Set(names)].sort();
}

/**
 * @example
 * planSelection(parseSelection("only=docs&tools=get_issue&readonly"), catalogs).id.key // "docs&readonly&tools=issues:get_issue"
 */
export function planSelection(selection: Selection, catalogs: PlanCatalogs): SelectionPlan {
  const resolved = resolveSelection(catalogs.declared, selection);
  const active = new Set(resolved.active);
  const asks: ToolAsk[] = [];
  const unknown = [...resolved.unknown];
  const picks: ToolPick[] = [];
  const pickedFrom: string[] = [];
  for (const written of selection.tools) {
    const reaches = resolveToolNames(catalogs.tools, [written]).picks;
    if (reaches.length === 0) unknown.push(`${UNKNOWN_TOOL_PREFIX}${written}`);
    asks.push({ written, reaches });
    for (const pick of reaches) {
      pickedFrom.push(pick.toolset);
      if (!active.has(pick.toolset)) picks.push(pick);
    }
  }
  const view = normalView({ readonly: selection.readonly, picks, search: selection.search });
  const named = expandKeywords([...selection.named, ...(selection.only ?? [])], catalogs.declared);
  const wake = sorted([...named, ...pickedFrom]);
  return Object.freeze({ id: buildIdOf(resolved.active, view), unknown: sorted(unknown), wake, asks });
}

/**
 * The plan as one caller may have it: only the toolsets it may reach are active, woken or picked from, and a
 * `tools=` name that reaches nothing it may reach joins the unknown names, written as the selection wrote it.
 * `hidden` are more names to report as unknown (a named toolset served without, `auth.onInsufficientScope: omit`).
 * @example
 * narrowPlan(planSelection(parseSelection("tools=wipe"), catalogs), new Set(["time"])).unknown // ["tools=wipe"]
 */
export function narrowPlan(plan: SelectionPlan, permitted: ReadonlySet<string>, hidden: readonly string[] = []): SelectionPlan {
  const active = plan.id.toolsets.filter((toolset) => permitted.has(toolset));
  const served = new Set(active);
  const unknown = [...plan.unknown, ...hidden];
  const picks: ToolPick[] = [];
  const asks: ToolAsk[] = [];
  for (const ask of plan.asks) {
    if (ask.reaches.length === 0) {
      asks.push(ask);
      continue;
    }
    const reaches = ask.reaches.filter((pick) => permitted.has(pick.toolset));
    if (reaches.length === 0) unknown.push(`${UNKNOWN_TOOL_PREFIX}${ask.written}`);
    asks.push({ written: ask.written, reaches });
    for (const pick of reaches) if (!served.has(pick.toolset)) picks.push(pick);
  }
  const view = normalView({ ...plan.id.view, picks });
  return Object.freeze({
    id: buildIdOf(active, view),
    unknown: sorted(unknown),
    wake: plan.wake.filter((toolset) => permitted.has(toolset)),
    asks,
  });
}

/**
 * The plan of a build asked for by its identity (a build's server mounted elsewhere, a session rebinding): nothing
 * unknown, nothing to wake, its picks as they are.
 * @example
 * planOfBuild(build.id).id === build.id // true
 */
export function planOfBuild(id: BuildId): SelectionPlan {
  return Object.freeze({
    id,
    unknown: [],
    wake: [],
    asks: id.view.picks.map((pick) => ({ written: `${pick.toolset}.${pick.tool}`, reaches: [pick] })),
  });
}
