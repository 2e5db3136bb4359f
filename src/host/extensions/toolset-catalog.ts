/**
 * The declared toolsets, computed from every registered extension — including dormant and quarantined ones, whose
 * toolsets stay visible so `/toolsets` can show them — and from the toolsets that could be read off extensions
 * that failed to load. A toolset is a subject, not a plugin: two extensions that declare one name make one
 * toolset, titled by the first declarer in load order.
 */
import { byName } from "../../compare.js";
import type { ToolsetSpec } from "../../extension/types.js";
import { forEachContribution, homeToolsetOf, type ExtensionRecord, type FailureRecord } from "./extension-record.js";

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

type Entry = DeclaredToolset & { instructionParts: string[]; declared: boolean };

/** Collects toolsets by name; the first declaration titles a toolset, later ones only add instructions. */
class Catalog {
  private readonly byName = new Map<string, Entry>();

  touch(name: string, extension: string): Entry {
    let entry = this.byName.get(name);
    if (!entry) {
      entry = { name, default: true, always: false, extensions: [], instructionParts: [], declared: false };
      this.byName.set(name, entry);
    }
    if (!entry.extensions.includes(extension)) entry.extensions.push(extension);
    return entry;
  }

  declare(spec: ToolsetSpec, extension: string): void {
    const entry = this.touch(spec.name, extension);
    // Title and flags come from the first declarer, never from an earlier extension that only contributed.
    if (!entry.declared) {
      entry.declared = true;
      if (spec.title !== undefined) entry.title = spec.title;
      if (spec.description !== undefined) entry.description = spec.description;
      entry.default = spec.default ?? true;
      entry.always = spec.always ?? false;
    }
    if (spec.instructions && !entry.instructionParts.includes(spec.instructions)) entry.instructionParts.push(spec.instructions);
  }

  sorted(): DeclaredToolset[] {
    return [...this.byName.values()]
      .map(({ instructionParts, declared: _declared, ...entry }) => ({
        ...entry,
        extensions: [...entry.extensions].sort(),
        ...(instructionParts.length > 0 ? { instructions: instructionParts.join("\n\n") } : {}),
      }))
      .sort(byName);
  }
}

/**
 * Every declared toolset, sorted by name. `records` must be in load order.
 * @example
 * declaredToolsetsFrom(records, failures).map((t) => t.name) // ["core", "spaces"]
 */
export function declaredToolsetsFrom(records: readonly ExtensionRecord[], failures: readonly FailureRecord[] = []): DeclaredToolset[] {
  const catalog = new Catalog();
  for (const record of records) {
    catalog.touch(homeToolsetOf(record), record.name);
    forEachContribution(record, (toolset, item, kind) => {
      if (kind === "toolset") catalog.declare(item as ToolsetSpec, record.name);
      else catalog.touch(toolset, record.name);
    });
  }
  for (const failure of failures) for (const spec of failure.toolsets) catalog.declare(spec, failure.name);
  return catalog.sorted();
}
