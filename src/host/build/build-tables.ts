/**
 * The compiled tables of one build (docs/design.md §7, §15): the tool list already in wire form, one validator per
 * tool compiled once, the wrapped handlers, and lookup maps for tools, resources, templates and prompts. Every
 * per-request SDK server reads these; nothing here is recomputed per request.
 */
import { UriTemplate, type Prompt, type Resource, type ResourceTemplateType as ResourceTemplate, type Tool } from "@modelcontextprotocol/server";
import { extensionError } from "../../errors.js";
import { isStandardSchema, type SchemaInput } from "../../extension/schema-types.js";
import type { PromptSpec, ResourceSpec, ResourceTemplateSpec, ToolHandler } from "../../extension/types.js";
import type { Logger } from "../../logger.js";
import { byName, compareNames } from "../../compare.js";
import { assignNames, qualifiedName } from "../../names.js";
import { compileSchema, type CompiledSchema } from "./compile-schema.js";
import type { DraftToolEntry, Placed } from "./draft-types.js";
import { defined } from "../../defined.js";
import { EMPTY_SKILLS, type SkillTable } from "../../skills/skill-table.js";
import { paramHeadersOf, type ParamHeader } from "../protocol/param-headers.js";

/** A tool ready to call. */
export interface CompiledTool {
  /** The name clients see (bare, or `<toolset>__<tool>` on a clash). */
  name: string;
  /** The name its extension gave it. */
  rawName: string;
  toolset: string;
  extension: string;
  wire: Tool;
  input: CompiledSchema;
  output?: CompiledSchema;
  /** False when the host must not check `structuredContent` against `output` (the tool's result was checked already). */
  validateOutput: boolean;
  timeoutMs?: number;
  /** May run as an MCP task (absent: never; docs/tasks.md). */
  taskSupport?: "optional" | "required";
  /** How long a call runs before it is answered with a task (ms). */
  taskAfterMs?: number;
  /** How long its tasks are kept (ms; bounded by the host's `tasks.maxTtlMs`). */
  taskTtlMs?: number;
  handler: ToolHandler;
  /** Its handler runs in a worker thread: the event-loop monitor does not count it. */
  isolated?: boolean;
  /** Search mode's `call_tool`: a call of it is the call of the catalogue tool its arguments name (call-tool.ts). */
  dispatches?: true;
  /** The arguments its input schema mirrors into `Mcp-Param-*` headers (`x-mcp-header`), when it has any. */
  paramHeaders?: readonly ParamHeader[];
}

export interface CompiledResource extends Placed<ResourceSpec> {
  /** The URI clients see (bare, or `<toolset>:<uri>` when two active toolsets list it). */
  uri: string;
  wire: Resource;
}

export interface CompiledTemplate extends Placed<ResourceTemplateSpec> {
  matcher: UriTemplate;
  wire: ResourceTemplate;
}

export interface CompiledPrompt extends Placed<PromptSpec> {
  /** The name clients see (bare, or `<toolset>__<prompt>` on a clash). */
  name: string;
  /** The name its extension gave it. */
  rawName: string;
  wire: Prompt;
}

/** Everything a per-request server needs, precomputed. */
export interface BuildTables {
  tools: Tool[];
  toolByName: ReadonlyMap<string, CompiledTool>;
  resources: Resource[];
  resourceByUri: ReadonlyMap<string, CompiledResource>;
  templates: ResourceTemplate[];
  templateList: readonly CompiledTemplate[];
  templateByUriTemplate: ReadonlyMap<string, CompiledTemplate>;
  prompts: Prompt[];
  promptByName: ReadonlyMap<string, CompiledPrompt>;
  /** Tools this build would offer but for a quarantined extension: tool name → why it is missing. */
  missing: ReadonlyMap<string, MissingTool>;
  /** Search mode: the build's real tools, which `find_tools` searches and `call_tool` calls (search-tools.ts). */
  catalogue?: BuildTables;
  /** The skills the build serves (docs/skills.md): `skills/list`, `skills/get`, directory reads, file reads. */
  skills: SkillTable;
}

/** A tool a quarantined extension declares for an active toolset, and why it is not served. */
export interface MissingTool {
  extension: string;
  code: string;
}

/** The schema of a tool that declares none: any object of arguments (checked here, without the JSON Schema engine). */
const NO_INPUT_SCHEMA: CompiledSchema = {
  json: { type: "object", properties: {} },
  validate: (value) =>
    typeof value === "object" && value !== null && !Array.isArray(value)
      ? { ok: true, value }
      : { ok: false, message: 'the arguments must be an object (keyword "type")' },
};

/** An output schema: compiled when the host checks results against it, else only carried to the wire as it is. */
function outputSchemaOf(schema: SchemaInput, validated: boolean): CompiledSchema {
  if (validated || isStandardSchema(schema)) return compileSchema(schema, "output");
  return { json: schema, validate: (value) => ({ ok: true, value }) };
}

function compileTools(tools: readonly DraftToolEntry[], logger: Logger): CompiledTool[] {
  const usable: Array<{ tool: DraftToolEntry; input: CompiledSchema; output?: CompiledSchema }> = [];
  for (const tool of tools) {
    try {
      const input = tool.spec.inputSchema === undefined ? NO_INPUT_SCHEMA : compileSchema(tool.spec.inputSchema, "input");
      const output = tool.spec.outputSchema === undefined ? undefined : outputSchemaOf(tool.spec.outputSchema, tool.spec.validateOutput !== false);
      usable.push({ tool, input, ...(output ? { output } : {}) });
    } catch (error) {
      // The toolset says which upstream server a gateway tool came from (its extension is the gateway's).
      const failure = extensionError("TOOL_SCHEMA_INVALID", tool.extension, `tool "${tool.name}" (toolset "${tool.toolset}") is left out`, error);
      logger.warn(failure.message, { code: failure.code, extension: tool.extension, toolset: tool.toolset, tool: tool.name });
    }
  }
  const names = assignNames(usable.map(({ tool }) => ({ owner: tool.toolset, name: tool.name })));
  return usable.map(({ tool, input, output }, i) => {
    const name = names[i]!;
    const wire: Tool = {
      name,
      ...defined({ title: tool.title, description: tool.description }),
      inputSchema: input.json as Tool["inputSchema"],
      ...(output === undefined ? {} : { outputSchema: output.json as Tool["outputSchema"] }),
      ...defined({ annotations: tool.annotations, _meta: tool.meta }),
    };
    const paramHeaders = paramHeadersOf(input.json);
    return {
      name,
      rawName: tool.name,
      toolset: tool.toolset,
      extension: tool.extension,
      wire,
      input,
      ...(paramHeaders.length > 0 ? { paramHeaders } : {}),
      ...(output ? { output } : {}),
      validateOutput: tool.spec.validateOutput !== false,
      ...defined({ timeoutMs: tool.spec.timeoutMs }),
      ...(tool.spec.taskSupport === "optional" || tool.spec.taskSupport === "required"
        ? { taskSupport: tool.spec.taskSupport, ...defined({ taskAfterMs: tool.spec.taskAfterMs, taskTtlMs: tool.spec.taskTtlMs }) }
        : {}),
      handler: tool.handler,
      ...(tool.isolated === true ? { isolated: true } : {}),
    };
  });
}

/**
 * Routes every accepted spelling of a tool's or a prompt's name (docs/design.md §7): the listed name, `<toolset>__<raw>`
 * (also in its cleaned form), `<toolset>.<raw>`, and the bare raw name when only one entry has it. A listed name
 * always wins over an alias.
 */
function aliasRoutes<T extends { name: string; rawName: string; toolset: string }>(entries: readonly T[]): Map<string, T> {
  const routes = new Map<string, T>();
  const rawCount = new Map<string, number>();
  for (const e of entries) rawCount.set(e.rawName, (rawCount.get(e.rawName) ?? 0) + 1);
  for (const e of entries) {
    for (const alias of [qualifiedName(e.toolset, e.rawName), `${e.toolset}__${e.rawName}`, `${e.toolset}.${e.rawName}`]) {
      if (!routes.has(alias)) routes.set(alias, e);
    }
    if (rawCount.get(e.rawName) === 1 && !routes.has(e.rawName)) routes.set(e.rawName, e);
  }
  for (const e of entries) routes.set(e.name, e);
  return routes;
}

function compileResources(resources: readonly Placed<ResourceSpec>[]): CompiledResource[] {
  const owners = new Map<string, Set<string>>();
  for (const r of resources) owners.set(r.spec.uri, (owners.get(r.spec.uri) ?? new Set()).add(r.toolset));
  return resources.map((r) => {
    const uri = (owners.get(r.spec.uri)?.size ?? 0) > 1 ? `${r.toolset}:${r.spec.uri}` : r.spec.uri;
    const s = r.spec;
    const wire: Resource = {
      uri,
      name: s.name,
      ...defined({ title: s.title, description: s.description, mimeType: s.mimeType, size: s.size, annotations: s.annotations, _meta: s.meta }),
    };
    return { ...r, uri, wire };
  });
}

function compileTemplates(templates: readonly Placed<ResourceTemplateSpec>[], logger: Logger): CompiledTemplate[] {
  const out: CompiledTemplate[] = [];
  for (const t of templates) {
    const s = t.spec;
    let matcher: UriTemplate;
    try {
      matcher = new UriTemplate(s.uriTemplate);
    } catch (error) {
      const failure = extensionError(
        "EXTENSION_INVALID",
        t.extension,
        `resource template "${s.uriTemplate}" is not a valid URI template and is left out`,
        error,
      );
      logger.warn(failure.message, { code: failure.code, extension: t.extension });
      continue;
    }
    const wire: ResourceTemplate = {
      uriTemplate: s.uriTemplate,
      name: s.name,
      ...defined({ title: s.title, description: s.description, mimeType: s.mimeType, annotations: s.annotations, _meta: s.meta }),
    };
    out.push({ ...t, matcher, wire });
  }
  return out;
}

function compilePrompts(prompts: readonly Placed<PromptSpec>[]): CompiledPrompt[] {
  const names = assignNames(prompts.map((p) => ({ owner: p.toolset, name: p.spec.name })));
  return prompts.map((p, i) => {
    const s = p.spec;
    const wire: Prompt = {
      name: names[i]!,
      ...defined({ title: s.title, description: s.description, arguments: s.arguments, _meta: s.meta }),
    };
    return { ...p, name: names[i]!, rawName: s.name, wire };
  });
}

/** What a build compiles from (the draft after `onServer`). */
export interface TableSource {
  tools: readonly DraftToolEntry[];
  resources: readonly Placed<ResourceSpec>[];
  resourceTemplates: readonly Placed<ResourceTemplateSpec>[];
  prompts: readonly Placed<PromptSpec>[];
}

/**
 * Compiles a draft into tables. Tools whose schema fails are left out with a warning naming the extension.
 * @example
 * const tables = compileTables(draftState, logger); tables.tools.map((t) => t.name);
 */
export function compileTables(
  source: TableSource,
  logger: Logger,
  extraTools: readonly CompiledTool[] = [],
  missing: ReadonlyMap<string, MissingTool> = new Map(),
): BuildTables {
  const tools = [...compileTools(source.tools, logger), ...extraTools].sort(byName);
  const resources = compileResources(source.resources).sort((a, b) => compareNames(a.uri, b.uri));
  const templates = compileTemplates(source.resourceTemplates, logger);
  const prompts = compilePrompts(source.prompts).sort(byName);
  return {
    tools: tools.map((t) => t.wire),
    toolByName: aliasRoutes(tools),
    resources: resources.map((r) => r.wire),
    resourceByUri: new Map(resources.map((r) => [r.uri, r])),
    templates: templates.map((t) => t.wire),
    templateList: templates,
    templateByUriTemplate: new Map(templates.map((t) => [t.spec.uriTemplate, t])),
    prompts: prompts.map((p) => p.wire),
    promptByName: aliasRoutes(prompts),
    missing,
    skills: EMPTY_SKILLS,
  };
}
