/**
 * Gathers what one build serves from the ready extensions: the tools, resources, templates and prompts whose
 * toolset is active, in load order, with tool extensions applied. Two extensions contributing the same tool name
 * to the same toolset: the first in load order wins, with a warning naming both.
 */
import type { PromptSpec, ResourceSpec, ResourceTemplateSpec, ToolSpec } from "../../extension/types.js";
import type { DraftTool } from "../../extension/types.js";
import type { Logger } from "../../logger.js";
import { currentOffer, homeToolsetOf, type ExtensionRecord } from "../extensions/extension-record.js";
import { applyToolExtensions, type PlacedToolExtension } from "./tool-extensions.js";

/** A tool on a draft, with the spec it came from (for its schemas and timeout). */
export interface DraftToolEntry extends DraftTool {
  spec: ToolSpec<any>;
}

/** A resource, template or prompt with the toolset and extension it belongs to. */
export interface Placed<T> {
  spec: T;
  toolset: string;
  extension: string;
}

/** The raw contents of one build, before `onServer` and compilation. */
export interface BuildContents {
  tools: DraftToolEntry[];
  resources: Placed<ResourceSpec>[];
  resourceTemplates: Placed<ResourceTemplateSpec>[];
  prompts: Placed<PromptSpec>[];
  /** Ready extensions that declared an active toolset or contributed to one, in load order. */
  participants: ExtensionRecord[];
}

/**
 * @example
 * const contents = gatherContents(readyRecordsInLoadOrder, new Set(["time"]), logger);
 */
export function gatherContents(records: readonly ExtensionRecord[], active: ReadonlySet<string>, logger: Logger): BuildContents {
  const contents: BuildContents = { tools: [], resources: [], resourceTemplates: [], prompts: [], participants: [] };
  const seen = { tools: new Map<string, string>(), prompts: new Map<string, string>(), resources: new Map<string, string>(), templates: new Map<string, string>() };
  const toolExtensions = new Map<string, PlacedToolExtension[]>();
  for (const record of records) {
    if (record.status !== "ready") continue;
    for (const spec of record.extension.toolExtensions ?? []) {
      const list = toolExtensions.get(spec.tool) ?? [];
      list.push({ extension: record.name, spec });
      toolExtensions.set(spec.tool, list);
    }
  }
  const firstWins = (kind: keyof typeof seen, toolset: string, key: string, extension: string): boolean => {
    const id = `${toolset}\u0000${key}`;
    const owner = seen[kind].get(id);
    if (owner === undefined) {
      seen[kind].set(id, extension);
      return true;
    }
    logger.warn(`extensions "${owner}" and "${extension}" both contribute ${kind.replace(/s$/, "")} "${key}" to toolset "${toolset}"; "${owner}" (first in load order) wins`, {
      code: "TOOL_NAME_CLASH",
      extension,
    });
    return false;
  };
  for (const record of records) {
    if (record.status !== "ready") continue;
    const offer = currentOffer(record);
    const home = homeToolsetOf(record);
    let participates = offer.toolsets.some((t) => active.has(t.name)) || active.has(home);
    for (const spec of offer.tools) {
      const toolset = spec.toolset ?? home;
      if (!active.has(toolset)) continue;
      participates = true;
      if (!firstWins("tools", toolset, spec.name, record.name)) continue;
      const entry: DraftToolEntry = {
        name: spec.name,
        toolset,
        extension: record.name,
        handler: spec.handler as DraftToolEntry["handler"],
        spec,
        ...(spec.title === undefined ? {} : { title: spec.title }),
        ...(spec.description === undefined ? {} : { description: spec.description }),
        ...(spec.annotations === undefined ? {} : { annotations: spec.annotations }),
        ...(spec.meta === undefined ? {} : { meta: spec.meta }),
      };
      const extended = applyToolExtensions(entry, toolExtensions.get(spec.name) ?? [], logger);
      if (extended) contents.tools.push(extended);
    }
    const place = <T extends { toolset?: string }>(items: readonly T[], kind: "resources" | "templates" | "prompts", key: (t: T) => string, into: Placed<T>[]) => {
      for (const spec of items) {
        const toolset = spec.toolset ?? home;
        if (!active.has(toolset)) continue;
        participates = true;
        if (firstWins(kind, toolset, key(spec), record.name)) into.push({ spec, toolset, extension: record.name });
      }
    };
    place(offer.resources, "resources", (r) => r.uri, contents.resources);
    place(offer.resourceTemplates, "templates", (r) => r.uriTemplate, contents.resourceTemplates);
    place(offer.prompts, "prompts", (p) => p.name, contents.prompts);
    if (participates) contents.participants.push(record);
  }
  return contents;
}
