/**
 * Tool-search mode (docs/design.md §7): a build whose listing never changes — `find_tools` and `call_tool` — over the
 * build's real tool tables, its catalogue. A model too small for 300 tools searches for the few it needs and calls
 * them by name; a client that ignores `notifications/tools/list_changed` loses nothing, because the listing stays
 * the same. `call_tool` is routed in call-tool.ts to the very path a direct call takes, so validation, limits,
 * request state, isolation, approval and the observer's audit and metrics see the real tool.
 */
import type { CallToolResult, Tool } from "@modelcontextprotocol/server";
import type { ToolHandler } from "../../extension/types.js";
import type { BuildTables, CompiledTool } from "./build-tables.js";
import type { CompiledSchema } from "./compile-schema.js";
import type { ToolSearchIndex } from "./tool-search-index.js";
import { defined } from "../../defined.js";

export const FIND_TOOLS = "find_tools";
export const CALL_TOOL = "call_tool";
/** How many matches `find_tools` gives without a `limit`, and at most. */
export const FIND_TOOLS_DEFAULT_LIMIT = 5;
export const FIND_TOOLS_MAX_LIMIT = 25;
const MAX_QUERY_LENGTH = 1_000;

type Check = { ok: true; value: Record<string, unknown> } | { ok: false; message: string };

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A hand-written check (no JSON Schema engine for the host's own two tools), with ajv-like messages. */
function checked(json: Record<string, unknown>, check: (value: Record<string, unknown>) => string | undefined): CompiledSchema {
  return {
    json,
    validate: (value): Check => {
      if (!isObject(value)) return { ok: false, message: 'the arguments must be an object (keyword "type")' };
      const problem = check(value);
      return problem === undefined ? { ok: true, value } : { ok: false, message: problem };
    },
  };
}

function extraKey(value: Record<string, unknown>, allowed: readonly string[]): string | undefined {
  const extra = Object.keys(value).find((key) => !allowed.includes(key));
  return extra === undefined ? undefined : `must NOT have additional property "${extra}" (keyword "additionalProperties")`;
}

const FIND_INPUT = checked(
  {
    type: "object",
    properties: {
      query: {
        type: "string",
        minLength: 1,
        maxLength: MAX_QUERY_LENGTH,
        description: 'What you want to do, in a few words: "create a calendar event", "list open pull requests".',
      },
      limit: { type: "integer", minimum: 1, maximum: FIND_TOOLS_MAX_LIMIT, description: `How many tools to return (default ${FIND_TOOLS_DEFAULT_LIMIT}).` },
    },
    required: ["query"],
    additionalProperties: false,
  },
  (value) => {
    const { query, limit } = value;
    if (typeof query !== "string" || query.trim().length === 0) return '"query" must be a non-empty string (keyword "required")';
    if (query.length > MAX_QUERY_LENGTH) return `"query" must NOT have more than ${MAX_QUERY_LENGTH} characters (keyword "maxLength")`;
    if (limit !== undefined && (!Number.isInteger(limit) || (limit as number) < 1 || (limit as number) > FIND_TOOLS_MAX_LIMIT))
      return `"limit" must be an integer from 1 to ${FIND_TOOLS_MAX_LIMIT} (keyword "maximum")`;
    return extraKey(value, ["query", "limit"]);
  },
);

const CALL_INPUT = checked(
  {
    type: "object",
    properties: {
      name: { type: "string", minLength: 1, description: "The tool's name, exactly as find_tools gave it." },
      arguments: { type: "object", description: "The tool's arguments, matching the inputSchema find_tools gave for it." },
    },
    required: ["name"],
    additionalProperties: false,
  },
  (value) => {
    if (typeof value.name !== "string" || value.name.length === 0) return '"name" must be a non-empty string (keyword "required")';
    if (value.arguments !== undefined && !isObject(value.arguments)) return '"arguments" must be an object (keyword "type")';
    return extraKey(value, ["name", "arguments"]);
  },
);

/** The catalogue's tools, once each, in listed order (every listed name routes to its own tool). */
function catalogueTools(catalogue: BuildTables): CompiledTool[] {
  return catalogue.tools.map((wire) => catalogue.toolByName.get(wire.name)!);
}

/** What `find_tools` says of one tool: everything a model needs to call it. */
function describeMatch(tool: CompiledTool): Record<string, unknown> {
  const { name, title, description, inputSchema, outputSchema, annotations } = tool.wire;
  return {
    name,
    ...defined({ title, description }),
    ...(tool.toolset === "" ? {} : { toolset: tool.toolset }),
    inputSchema,
    ...defined({ outputSchema, annotations }),
  };
}

function findTools(catalogue: BuildTables, toolsetText: (toolset: string) => string): CompiledTool {
  const tools = catalogueTools(catalogue);
  // Made on the first search and kept with the build: a build that is never searched never pays for it, and a host
  // that serves no search mode never loads the search engine (MiniSearch) at all. One promise: concurrent first
  // searches share one index.
  let indexing: Promise<ToolSearchIndex> | undefined;
  const handler: ToolHandler = async (args) => {
    indexing ??= import("./tool-search-index.js").then(
      ({ searchableOf, ToolSearchIndex }) => new ToolSearchIndex(tools.map(searchableOf), toolsetText),
      (error: unknown) => {
        indexing = undefined;
        throw error;
      },
    );
    const index = await indexing;
    const query = String(args.query);
    const limit = typeof args.limit === "number" ? args.limit : FIND_TOOLS_DEFAULT_LIMIT;
    const matches = index.search(query, limit).map((match) => describeMatch(tools[match.index]!));
    const answer = { query, tools: matches, searched: tools.length };
    const hint = matches.length === 0 ? "No tool matches; try other words, or fewer of them." : `Call one with ${CALL_TOOL}({ name, arguments }).`;
    const result: CallToolResult = { content: [{ type: "text", text: `${JSON.stringify(answer)}\n${hint}` }], structuredContent: answer };
    return result;
  };
  const annotations = { title: "Find Tools", readOnlyHint: true, idempotentHint: true, destructiveHint: false, openWorldHint: false };
  const wire: Tool = {
    name: FIND_TOOLS,
    title: "Find Tools",
    description:
      `Searches the ${tools.length} tools of this server for the ones that fit a task, and returns the best matches with their ` +
      `names, descriptions, input schemas and annotations. Describe the task in a few words, then call the tool you choose with ${CALL_TOOL}.`,
    inputSchema: FIND_INPUT.json as Tool["inputSchema"],
    annotations,
  };
  return { name: FIND_TOOLS, rawName: FIND_TOOLS, toolset: "", extension: "mcp-host", wire, input: FIND_INPUT, validateOutput: false, handler };
}

function callToolEntry(catalogue: BuildTables): CompiledTool {
  const tools = catalogueTools(catalogue);
  // call_tool can do what its most powerful tool does: it is read-only only when every tool it reaches is.
  const readOnly = tools.every((tool) => tool.wire.annotations?.readOnlyHint === true);
  const wire: Tool = {
    name: CALL_TOOL,
    title: "Call Tool",
    description: `Calls one of this server's tools by name with its arguments. Find the tool and its input schema with ${FIND_TOOLS} first.`,
    inputSchema: CALL_INPUT.json as Tool["inputSchema"],
    annotations: { title: "Call Tool", readOnlyHint: readOnly, destructiveHint: !readOnly, idempotentHint: false, openWorldHint: true },
  };
  const handler: ToolHandler = () => {
    throw new Error(`${CALL_TOOL} is routed by the protocol core and never runs a handler of its own`);
  };
  return { name: CALL_TOOL, rawName: CALL_TOOL, toolset: "", extension: "mcp-host", wire, input: CALL_INPUT, validateOutput: false, handler, dispatches: true };
}

/**
 * The tables of a build in search mode: the two tools listed; every catalogue tool still reachable by a direct
 * `tools/call` of its name (a model that remembers a name may call it); the host's two names win over an
 * extension's tools of the same names, which stay reachable through `call_tool`. Resources and prompts stay as they are.
 * @example
 * const tables = searchTables(compileTables(draft, logger), (toolset) => "");
 */
export function searchTables(catalogue: BuildTables, toolsetText: (toolset: string) => string): BuildTables {
  const find = findTools(catalogue, toolsetText);
  const call = callToolEntry(catalogue);
  const toolByName = new Map(catalogue.toolByName);
  toolByName.set(CALL_TOOL, call);
  toolByName.set(FIND_TOOLS, find);
  return { ...catalogue, tools: [call.wire, find.wire], toolByName, catalogue };
}
