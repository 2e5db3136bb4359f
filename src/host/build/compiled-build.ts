/**
 * Compiling one active set into a build (docs/design.md §7): gather the ready extensions' contributions to the
 * active toolsets, let participants edit the draft (`onServer`), compile names, wire lists and validators once,
 * add `list_server_toolsets`, and let the deployment's serverFactory wrap the selection's handler. The result is
 * frozen and shared by every request with the same key.
 */
import type { Clock } from "../../clock.js";
import type { Logger } from "../../logger.js";
import type { NodeHandler, ServerFactory } from "../built-server.js";
import type { HostDescription } from "../describe.js";
import type { ExtensionRecord } from "../extensions/extension-record.js";
import type { ToolActivity } from "../monitor/tool-activity.js";
import type { HostObserver } from "../observer.js";
import type { RequestStateSealer } from "../protocol/request-state.js";
import type { ProtocolCore } from "../protocol/sdk-server.js";
import { toolsetsTool, TOOLSETS_TOOL_NAME } from "../protocol/toolsets-tool.js";
import { forEachContribution } from "../extensions/extension-record.js";
import { compileTables, type CompiledTool, type MissingTool } from "./build-tables.js";
import type { IsolateTool } from "./draft-types.js";
import { runOnServerHooks } from "./draft.js";
import type { BuildContents, DraftToolEntry } from "./draft-types.js";
import { loadJsonSchemaEngine } from "./json-schema-engine.js";
import { isStandardSchema } from "../../extension/schema-types.js";
import { gatherContents } from "./gather.js";
import type { ToolCallGate } from "../protocol/tool-limits.js";
import type { TaskBoard } from "../../tasks/task-board.js";
import type { SelectionModifiers } from "../describe.js";
import { modifiersOf, readOnlyTools, viewContents } from "./apply-view.js";
import { toolsetsBehind, type BuildId } from "./build-id.js";
import { searchTables } from "./search-tools.js";
import { defined } from "../../defined.js";
import { buildSkills } from "../../skills/build-skills.js";

/** What a build is before its server is made: what the serving layer binds a build's handler to. */
export interface BuildCore {
  /** The build's identity: its active toolsets and view (build-id.ts). Key anything by `id.key`. */
  readonly id: BuildId;
  /** The build's key (`id.key`): the active toolsets joined by commas, then its view; for logs and `ServerDraft.key`. */
  readonly key: string;
  /** The active toolsets, sorted (`id.toolsets`). */
  readonly toolsets: readonly string[];
  /** What the build's view changed, for `describe` (undefined when it used none). */
  readonly modifiers: SelectionModifiers | undefined;
  readonly revision: number;
  readonly toolNames: readonly string[];
  readonly instructions: string | undefined;
  /** The tables and settings every per-request SDK server of this build reads. */
  readonly protocol: ProtocolCore;
}

/** One compiled build: what every request for its active set shares. */
export interface CompiledBuild extends BuildCore {
  /** What the serverFactory made for this selection, around the handler the serving layer made for it. */
  readonly server: NodeHandler;
}

/** What compiling needs from the host. */
export interface CompileInput {
  records: readonly ExtensionRecord[];
  /** The build's identity: its active toolsets and what the selection asks beyond them (read-only, single tools, search). */
  id: BuildId;
  /** Search mode for a build with more tools than this when its view leaves it open (`search` null). */
  searchAbove?: number;
  /** A toolset's title and description, for the tool search. */
  toolsetText(toolset: string): string;
  revision: number;
  name: string;
  version: string;
  /** Composes the instructions of the toolsets this build really serves something of. */
  instructions(served: readonly string[]): string | undefined;
  logger: Logger;
  toolTimeoutMs: number;
  /** What tool timeouts run on (the host's clock). */
  clock: Clock;
  toolsetsTool: boolean;
  requestState: RequestStateSealer;
  serverFactory: ServerFactory | undefined;
  /** Makes the build's handler (the serving layer's, or a 503 while nothing serves). */
  handlerFor(build: BuildCore): NodeHandler;
  /** Reads the host's description at call time (for `list_server_toolsets`). */
  describe(
    active: readonly string[],
    unknown: readonly string[],
    tools: readonly string[],
    permitted?: readonly string[],
    modifiers?: SelectionModifiers,
  ): HostDescription;
  /** The stand-in handlers of tools that run in workers. */
  isolate?: IsolateTool;
  /** Where tool calls on the main thread are recorded for the event-loop monitor. */
  activity?: ToolActivity;
  /** The host's limits on tool calls (shared by every build). */
  toolGate?: ToolCallGate;
  /** Hears every request this build's servers answer. */
  observer?: HostObserver;
  /** The host's tasks (docs/tasks.md). */
  tasks?: TaskBoard;
}

/**
 * The tools quarantined extensions declare for the active toolsets, so a call to one is told why it is missing
 * (the extension failed) rather than that the URL does not select it.
 */
function missingTools(records: readonly ExtensionRecord[], active: readonly string[]): Map<string, MissingTool> {
  const selected = new Set(active);
  const missing = new Map<string, MissingTool>();
  for (const record of records) {
    if (record.status !== "failed") continue;
    forEachContribution(record, (toolset, item, kind) => {
      if (kind === "tool" && selected.has(toolset))
        missing.set((item as { name: string }).name, { extension: record.name, code: record.error?.code ?? "EXTENSION_SETUP_FAILED" });
    });
  }
  return missing;
}

/** True when a tool's schemas need the JSON Schema engine (a zod schema brings its own validator). */
function usesJsonSchema(tool: DraftToolEntry): boolean {
  const { inputSchema, outputSchema, validateOutput } = tool.spec;
  return (
    (inputSchema !== undefined && !isStandardSchema(inputSchema)) || (outputSchema !== undefined && validateOutput !== false && !isStandardSchema(outputSchema))
  );
}

/** The toolsets a build's gathered contents put something into. */
function servedToolsets(contents: BuildContents): string[] {
  const served = new Set<string>();
  for (const list of [contents.tools, contents.resources, contents.resourceTemplates, contents.prompts, contents.skills])
    for (const item of list) served.add(item.toolset);
  return [...served];
}

/**
 * @example
 * const build = compileBuild({ records, id: buildIdOf(["time"]), revision: 3, … });
 */
export async function compileBuild(input: CompileInput): Promise<CompiledBuild> {
  const { id } = input;
  const { key, view } = id;
  const logger = input.logger.child(`build ${key || "(none)"}`);
  const active = new Set(id.toolsets);
  const gathered = gatherContents(input.records, new Set(toolsetsBehind(id)), logger, input.isolate);
  const contents = viewContents(gathered, active, view);
  // A toolset that serves nothing here (its extension failed, or it only declares) sends no instructions: the model
  // would be told to use tools that are not there. A toolset only picked from sends none either.
  const served = servedToolsets(contents).filter((toolset) => active.has(toolset));
  const draft = runOnServerHooks(contents, input.instructions(served), key, id.toolsets, logger);
  if (view.readonly) draft.tools = readOnlyTools(draft.tools);
  if (draft.tools.some(usesJsonSchema)) await loadJsonSchemaEngine();
  let toolNames: string[] = [];
  let modifiers: SelectionModifiers | undefined;
  const extra: CompiledTool[] = [];
  // Declared toolsets are read when the tool is called, as describe() reads them: a build of an unrelated toolset
  // survives another extension's offer change, and must not report the catalog as it was when it was built.
  if (input.toolsetsTool && !draft.tools.some((t) => t.name === TOOLSETS_TOOL_NAME)) {
    extra.push(toolsetsTool((active, unknown, permitted) => input.describe(active, unknown, toolNames, permitted, modifiers)));
  }
  const catalogue = compileTables(draft, logger, extra, missingTools(input.records, id.toolsets));
  catalogue.skills = buildSkills(contents.skills, {
    active,
    readonly: view.readonly,
    servedTools: new Set(draft.tools.map((tool) => `${tool.toolset}\u0000${tool.name}`)),
    logger,
  });
  const search = view.search ?? (input.searchAbove !== undefined && catalogue.tools.length > input.searchAbove);
  const tables = search ? searchTables(catalogue, input.toolsetText) : catalogue;
  toolNames = tables.tools.map((t) => t.name);
  modifiers = modifiersOf(view, { search, searchable: catalogue.tools.length });
  const protocol: ProtocolCore = {
    name: input.name,
    version: input.version,
    instructions: draft.instructions,
    tables,
    logger: input.logger,
    toolTimeoutMs: input.toolTimeoutMs,
    clock: input.clock,
    requestState: input.requestState,
    ...defined({ activity: input.activity, toolGate: input.toolGate, observer: input.observer, tasks: input.tasks }),
  };
  const core: BuildCore = Object.freeze({
    id,
    key,
    toolsets: id.toolsets,
    modifiers,
    revision: input.revision,
    toolNames,
    instructions: draft.instructions,
    protocol,
  });
  // A factory composes with the handler (it carries the deployment's CORS and token checks); it cannot take them out.
  const factory = input.serverFactory ?? ((parts) => parts.handler);
  const server = factory({ name: input.name, instructions: draft.instructions, toolsets: id.toolsets, key, handler: input.handlerFor(core) });
  return Object.freeze({ ...core, server });
}
