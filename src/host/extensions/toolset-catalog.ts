/**
 * The declared toolsets, computed from every registered extension — including dormant and quarantined ones, whose
 * toolsets stay visible so `/toolsets` can show them. A toolset is a subject, not a plugin: two extensions that
 * declare one name make one toolset, titled by the first declarer in load order.
 */
import { currentOffer, homeToolsetOf, type ExtensionRecord } from "./extension-record.js";

/** A toolset as the host reports it. */
export interface DeclaredToolset {
  name: string;
  title?: string;
  description?: string;
  instructions?: string;
  default: boolean;
  always: boolean;
  /** Extensions that declared it or contributed to it, sorted. */
  extensions: string[];
}

/**
 * Every declared toolset, sorted by name. `records` must be in load order.
 * @example
 * declaredToolsetsFrom(records).map((t) => t.name) // ["core", "spaces"]
 */
export function declaredToolsetsFrom(records: readonly ExtensionRecord[]): DeclaredToolset[] {
  const byName = new Map<string, DeclaredToolset & { instructionParts: string[] }>();
  const touch = (name: string, extension: string) => {
    let entry = byName.get(name);
    if (!entry) {
      entry = { name, default: true, always: false, extensions: [], instructionParts: [] };
      byName.set(name, entry);
    }
    if (!entry.extensions.includes(extension)) entry.extensions.push(extension);
    return entry;
  };
  // Toolsets some extension has declared so far: title and flags come from the first declarer, never from an
  // earlier extension that only contributed to the toolset.
  const declarers = new Set<string>();
  for (const record of records) {
    const offer = currentOffer(record);
    for (const spec of offer.toolsets) {
      const first = !declarers.has(spec.name);
      const entry = touch(spec.name, record.name);
      declarers.add(spec.name);
      if (first) {
        if (spec.title !== undefined) entry.title = spec.title;
        if (spec.description !== undefined) entry.description = spec.description;
        entry.default = spec.default ?? true;
        entry.always = spec.always ?? false;
      }
      if (spec.instructions && !entry.instructionParts.includes(spec.instructions)) entry.instructionParts.push(spec.instructions);
    }
    const home = homeToolsetOf(record);
    touch(home, record.name);
    for (const list of [offer.tools, offer.resources, offer.resourceTemplates, offer.prompts] as Array<Array<{ toolset?: string }>>) {
      for (const item of list) touch(item.toolset ?? home, record.name);
    }
  }
  return [...byName.values()]
    .map(({ instructionParts, ...entry }) => ({
      ...entry,
      extensions: [...entry.extensions].sort(),
      ...(instructionParts.length > 0 ? { instructions: instructionParts.join("\n\n") } : {}),
    }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
