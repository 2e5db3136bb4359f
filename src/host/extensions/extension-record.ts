/**
 * What the host knows about one registered extension: its status (a quarantined extension keeps its toolsets
 * declared but offers nothing), and the offer it changed after start. The record is the only mutable state per
 * extension; builds read it and never write it.
 */
import type { McpHostError } from "../../errors.js";
import type { UnavailableDescription } from "../describe.js";
import type { DynamicOffer, McpExtension, PromptSpec, ResourceSpec, ResourceTemplateSpec, ServedSkill, ToolSpec, ToolsetSpec } from "../../extension/types.js";

/**
 * An extension that never became one: its module failed to load, or what it exported failed the shape check.
 * It is reported (status `failed`, with its source and reason) but offers nothing, and declares only the
 * toolsets that could be read from it — never a placeholder toolset of its own.
 */
export interface FailureRecord {
  readonly name: string;
  readonly source: string;
  readonly error: McpHostError;
  readonly toolsets: readonly ToolsetSpec[];
}

/**
 * `pending`: registered, not yet set up; `dormant`: `onToolset` and not yet woken; `ready`: serving;
 * `failed`: quarantined (load, validation or setup failed); `stopped`: disposed.
 */
export type ExtensionStatus = "pending" | "dormant" | "ready" | "failed" | "stopped";

/**
 * The key of a contribution: its toolset (as the spec names it; none is the home toolset) and its name, URI or URI
 * template — one extension may offer the same name in two of its toolsets (the gateway does, for two upstreams).
 * @example
 * contributionKey({ toolset: "git", name: "status" }, "status") // "git\u0000status"
 */
export function contributionKey(spec: { toolset?: string }, id: string): string {
  return `${spec.toolset ?? ""}\u0000${id}`;
}

/** The contributions an extension added through its context after start, keyed by `contributionKey`. */
export interface DynamicContributions {
  toolsets: Map<string, ToolsetSpec>;
  tools: Map<string, ToolSpec<any>>;
  resources: Map<string, ResourceSpec>;
  resourceTemplates: Map<string, ResourceTemplateSpec>;
  prompts: Map<string, PromptSpec>;
  skills: Map<string, ServedSkill>;
}

export interface ExtensionRecord {
  readonly extension: McpExtension;
  readonly name: string;
  /** Where it came from: a package and path, or `buildHost() argument #i`. */
  readonly source: string;
  status: ExtensionStatus;
  error?: McpHostError;
  dynamic: DynamicContributions;
  /** The skills its package ships (`skills`), read when the host starts, adds or replaces it (docs/skills.md). */
  skills: ServedSkill[];
  /** Why each of its skills that could not be read was left out (`SKILL_INVALID`). */
  skillProblems: McpHostError[];
  /** What the extension reports as unavailable through `ctx.reportUnavailable` (its upstream servers that are down). */
  unavailable: UnavailableDescription[];
  /** Aborted at stop; given to setup as `ctx.signal`. */
  readonly lifetime: AbortController;
  /** Set while a wake-up is in progress so concurrent requests share it. */
  waking?: Promise<void>;
}

export function emptyDynamic(): DynamicContributions {
  return { toolsets: new Map(), tools: new Map(), resources: new Map(), resourceTemplates: new Map(), prompts: new Map(), skills: new Map() };
}

/** Replaces a record's dynamic contributions with `offer` (used by `replaceOffer`). */
export function dynamicFromOffer(offer: DynamicOffer): DynamicContributions {
  const dynamic = emptyDynamic();
  for (const t of offer.toolsets ?? []) dynamic.toolsets.set(t.name, t);
  for (const t of offer.tools ?? []) dynamic.tools.set(contributionKey(t, t.name), t);
  for (const r of offer.resources ?? []) dynamic.resources.set(contributionKey(r, r.uri), r);
  for (const r of offer.resourceTemplates ?? []) dynamic.resourceTemplates.set(contributionKey(r, r.uriTemplate), r);
  for (const p of offer.prompts ?? []) dynamic.prompts.set(contributionKey(p, p.name), p);
  for (const s of offer.skills ?? []) dynamic.skills.set(contributionKey(s, s.entry.uri), s);
  return dynamic;
}

/** Static toolsets then dynamic ones (a dynamic toolset with a static name is ignored). */
export function declaredToolsetsOf(record: ExtensionRecord): ToolsetSpec[] {
  const declared = [...(record.extension.toolsets ?? [])];
  const names = new Set(declared.map((t) => t.name));
  for (const t of record.dynamic.toolsets.values()) if (!names.has(t.name)) declared.push(t);
  return declared;
}

/** The toolset a contribution without `toolset` goes into: the extension's first declared one, or its own name. */
export function homeToolsetOf(record: ExtensionRecord): string {
  return declaredToolsetsOf(record)[0]?.name ?? record.name;
}

/**
 * Everything the extension offers now, static and dynamic (dynamic wins over a static entry of the same key); its
 * skills are those read from its package, then those it serves itself.
 */
export function currentOffer(record: ExtensionRecord): Required<DynamicOffer> {
  const merge = <T extends { toolset?: string }>(items: readonly T[] | undefined, dyn: Map<string, T>, id: (t: T) => string): T[] => {
    const key = (t: T) => contributionKey(t, id(t));
    const out = new Map<string, T>();
    for (const item of items ?? []) if (!out.has(key(item))) out.set(key(item), item);
    for (const [k, item] of dyn) out.set(k, item);
    return [...out.values()];
  };
  const ext = record.extension;
  return {
    toolsets: declaredToolsetsOf(record),
    tools: merge(ext.tools, record.dynamic.tools, (t) => t.name),
    resources: merge(ext.resources, record.dynamic.resources, (r) => r.uri),
    resourceTemplates: merge(ext.resourceTemplates, record.dynamic.resourceTemplates, (r) => r.uriTemplate),
    prompts: merge(ext.prompts, record.dynamic.prompts, (p) => p.name),
    skills: merge(record.skills, record.dynamic.skills, (skill) => skill.entry.uri),
  };
}

/** The kinds of contribution an extension makes into a toolset. */
export type ContributionKind = "toolset" | "tool" | "resource" | "resourceTemplate" | "prompt" | "skill";

/**
 * Visits everything a record offers now, with the toolset each item goes into: its declared toolsets first, then
 * its tools, resources, templates, prompts and skills (a contribution without `toolset` goes into the home toolset).
 * The one walk over an extension's contributions; the catalog, change diffs and invalidation all use it.
 * @example
 * forEachContribution(record, (toolset, item, kind) => console.log(kind, toolset));
 */
export function forEachContribution(record: ExtensionRecord, visit: (toolset: string, item: object, kind: ContributionKind) => void): void {
  const home = homeToolsetOf(record);
  const offer = currentOffer(record);
  for (const t of offer.toolsets) visit(t.name, t, "toolset");
  const lists: Array<[ContributionKind, ReadonlyArray<{ toolset?: string }>]> = [
    ["tool", offer.tools],
    ["resource", offer.resources],
    ["resourceTemplate", offer.resourceTemplates],
    ["prompt", offer.prompts],
    ["skill", offer.skills],
  ];
  for (const [kind, list] of lists) for (const item of list) visit(item.toolset ?? home, item, kind);
}

/**
 * What each toolset holds from this record: the spec objects of its contributions (and declarations), by toolset.
 * Comparing two of these tells which toolsets an offer change really touched.
 */
export function contributionsByToolset(record: ExtensionRecord): Map<string, Set<object>> {
  const byToolset = new Map<string, Set<object>>();
  forEachContribution(record, (toolset, item) => {
    const set = byToolset.get(toolset) ?? new Set<object>();
    set.add(item);
    byToolset.set(toolset, set);
  });
  return byToolset;
}

/** The toolsets whose contributions differ between two `contributionsByToolset` snapshots. */
export function changedToolsets(before: Map<string, Set<object>>, after: Map<string, Set<object>>): Set<string> {
  const changed = new Set<string>();
  for (const name of new Set([...before.keys(), ...after.keys()])) {
    const a = before.get(name) ?? new Set<object>();
    const b = after.get(name) ?? new Set<object>();
    if (a.size !== b.size || [...a].some((item) => !b.has(item))) changed.add(name);
  }
  return changed;
}

/** The toolsets a record's contributions touch, its home toolset included (for targeted invalidation). */
export function toolsetsTouchedBy(record: ExtensionRecord): Set<string> {
  const touched = new Set<string>([homeToolsetOf(record)]);
  forEachContribution(record, (toolset) => touched.add(toolset));
  return touched;
}
