/**
 * What the host knows about one registered extension: its status (a quarantined extension keeps its toolsets
 * declared but offers nothing), and the offer it changed after start. The record is the only mutable state per
 * extension; builds read it and never write it.
 */
import type { McpHostError } from "../../errors.js";
import type {
  DynamicOffer,
  McpExtension,
  PromptSpec,
  ResourceSpec,
  ResourceTemplateSpec,
  ToolSpec,
  ToolsetSpec,
} from "../../extension/types.js";

/**
 * `pending`: registered, not yet set up; `dormant`: `onToolset` and not yet woken; `ready`: serving;
 * `failed`: quarantined (load, validation or setup failed); `stopped`: disposed.
 */
export type ExtensionStatus = "pending" | "dormant" | "ready" | "failed" | "stopped";

/** The contributions an extension added through its context after start, keyed by their identity. */
export interface DynamicContributions {
  toolsets: Map<string, ToolsetSpec>;
  tools: Map<string, ToolSpec<any>>;
  resources: Map<string, ResourceSpec>;
  resourceTemplates: Map<string, ResourceTemplateSpec>;
  prompts: Map<string, PromptSpec>;
}

export interface ExtensionRecord {
  readonly extension: McpExtension;
  readonly name: string;
  /** Where it came from: a package and path, or `buildHost() argument #i`. */
  readonly source: string;
  status: ExtensionStatus;
  error?: McpHostError;
  dynamic: DynamicContributions;
  /** Aborted at stop; given to setup as `ctx.signal`. */
  readonly lifetime: AbortController;
  /** Set while a wake-up is in progress so concurrent requests share it. */
  waking?: Promise<void>;
}

export function emptyDynamic(): DynamicContributions {
  return { toolsets: new Map(), tools: new Map(), resources: new Map(), resourceTemplates: new Map(), prompts: new Map() };
}

/** Replaces a record's dynamic contributions with `offer` (used by `replaceOffer`). */
export function dynamicFromOffer(offer: DynamicOffer): DynamicContributions {
  const dynamic = emptyDynamic();
  for (const t of offer.toolsets ?? []) dynamic.toolsets.set(t.name, t);
  for (const t of offer.tools ?? []) dynamic.tools.set(t.name, t);
  for (const r of offer.resources ?? []) dynamic.resources.set(r.uri, r);
  for (const r of offer.resourceTemplates ?? []) dynamic.resourceTemplates.set(r.uriTemplate, r);
  for (const p of offer.prompts ?? []) dynamic.prompts.set(p.name, p);
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

/** Everything the extension offers now, static and dynamic (dynamic wins over a static entry of the same key). */
export function currentOffer(record: ExtensionRecord): Required<DynamicOffer> {
  const merge = <T>(items: readonly T[] | undefined, dyn: Map<string, T>, key: (t: T) => string): T[] => {
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
  };
}

/**
 * What each toolset holds from this record: the spec objects of its contributions (and declarations), by toolset.
 * Comparing two of these tells which toolsets an offer change really touched.
 */
export function contributionsByToolset(record: ExtensionRecord): Map<string, Set<object>> {
  const home = homeToolsetOf(record);
  const offer = currentOffer(record);
  const byToolset = new Map<string, Set<object>>();
  const put = (toolset: string, item: object) => {
    const set = byToolset.get(toolset) ?? new Set<object>();
    set.add(item);
    byToolset.set(toolset, set);
  };
  for (const t of offer.toolsets) put(t.name, t);
  for (const list of [offer.tools, offer.resources, offer.resourceTemplates, offer.prompts] as Array<Array<{ toolset?: string }>>) {
    for (const item of list) put(item.toolset ?? home, item);
  }
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

/** The toolsets a record's contributions touch (for targeted invalidation). */
export function toolsetsTouchedBy(record: ExtensionRecord): Set<string> {
  const home = homeToolsetOf(record);
  const offer = currentOffer(record);
  const touched = new Set<string>(offer.toolsets.map((t) => t.name));
  touched.add(home);
  for (const list of [offer.tools, offer.resources, offer.resourceTemplates, offer.prompts] as Array<Array<{ toolset?: string }>>) {
    for (const item of list) touched.add(item.toolset ?? home);
  }
  return touched;
}
