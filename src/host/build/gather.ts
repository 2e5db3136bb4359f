/**
 * Gathers what one build serves from the ready extensions: the tools, resources, templates, prompts and skills whose
 * toolset is active, in load order, with tool extensions applied. Two extensions contributing the same tool name
 * to the same toolset: the first in load order wins, with a warning naming both.
 */
import type { PromptSpec, ResourceSpec, ResourceTemplateSpec, ServedSkill, ToolSpec } from "../../extension/types.js";
import type { Logger } from "../../logger.js";
import { forEachContribution, homeToolsetOf, type ExtensionRecord } from "../extensions/extension-record.js";
import type { BuildContents, DraftToolEntry, IsolateTool } from "./draft-types.js";
import { applyToolExtensions, type PlacedToolExtension } from "./tool-extensions.js";
import { defined } from "../../defined.js";

function draftTool(spec: ToolSpec<any>, toolset: string, record: ExtensionRecord, isolate: IsolateTool | undefined): DraftToolEntry {
  const isolated = isolate?.(record.extension, spec);
  return {
    name: spec.name,
    toolset,
    extension: record.name,
    handler: isolated ?? (spec.handler as DraftToolEntry["handler"]),
    spec,
    ...(isolated === undefined ? {} : { isolated: true }),
    ...defined({ title: spec.title, description: spec.description, annotations: spec.annotations, meta: spec.meta }),
  };
}

/**
 * With `isolate`, a tool that runs in a worker gets its stand-in handler here, before tool extensions wrap it.
 * @example
 * const contents = gatherContents(readyRecordsInLoadOrder, new Set(["time"]), logger);
 */
export function gatherContents(records: readonly ExtensionRecord[], active: ReadonlySet<string>, logger: Logger, isolate?: IsolateTool): BuildContents {
  const contents: BuildContents = { tools: [], resources: [], resourceTemplates: [], prompts: [], skills: [], participants: [] };
  const seen = {
    tools: new Map<string, string>(),
    prompts: new Map<string, string>(),
    resources: new Map<string, string>(),
    templates: new Map<string, string>(),
    skills: new Map<string, string>(),
  };
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
    logger.warn(
      `extensions "${owner}" and "${extension}" both contribute ${kind.replace(/s$/, "")} "${key}" to toolset "${toolset}"; "${owner}" (first in load order) wins`,
      {
        code: "TOOL_NAME_CLASH",
        extension,
      },
    );
    return false;
  };
  for (const record of records) {
    if (record.status !== "ready") continue;
    let participates = active.has(homeToolsetOf(record));
    forEachContribution(record, (toolset, item, kind) => {
      if (!active.has(toolset)) return;
      participates = true;
      if (kind === "toolset") return;
      if (kind === "tool") {
        const spec = item as ToolSpec<any>;
        if (!firstWins("tools", toolset, spec.name, record.name)) return;
        const extended = applyToolExtensions(draftTool(spec, toolset, record, isolate), toolExtensions.get(spec.name) ?? [], logger);
        if (extended) contents.tools.push(extended);
      } else if (kind === "resource") {
        const spec = item as ResourceSpec;
        if (firstWins("resources", toolset, spec.uri, record.name)) contents.resources.push({ spec, toolset, extension: record.name });
      } else if (kind === "resourceTemplate") {
        const spec = item as ResourceTemplateSpec;
        if (firstWins("templates", toolset, spec.uriTemplate, record.name)) contents.resourceTemplates.push({ spec, toolset, extension: record.name });
      } else if (kind === "skill") {
        const skill = item as ServedSkill;
        const name = skill.entry?.frontmatter?.name;
        if (firstWins("skills", toolset, typeof name === "string" ? name : String(skill.entry?.uri), record.name))
          contents.skills.push({ skill, toolset, extension: record.name });
      } else {
        const spec = item as PromptSpec;
        if (firstWins("prompts", toolset, spec.name, record.name)) contents.prompts.push({ spec, toolset, extension: record.name });
      }
    });
    if (participates) contents.participants.push(record);
  }
  return contents;
}
