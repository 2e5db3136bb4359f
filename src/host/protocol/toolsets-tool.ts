/**
 * `list_server_toolsets`: the tool the host adds to every build so a model can ask what this endpoint offers and
 * how to ask for more. Read-only and idempotent; it reports the caller's own selection, including its `unknown`,
 * and only the toolsets the caller may reach.
 */
import type { Tool } from "@modelcontextprotocol/server";
import type { ToolHandler } from "../../extension/types.js";
import type { CompiledTool } from "../build/build-tables.js";
import type { CompiledSchema } from "../build/compile-schema.js";
import { HOW_TO_SELECT, type HostDescription } from "../describe.js";

export const TOOLSETS_TOOL_NAME = "list_server_toolsets";

/**
 * @example
 * const tool = toolsetsTool((active, unknown, permitted) => host.describeActive(active, unknown, toolNames, permitted));
 */
export function toolsetsTool(
  describe: (active: readonly string[], unknown: readonly string[], permitted: readonly string[] | undefined) => HostDescription,
): CompiledTool {
  // It takes no arguments; a check written out here keeps the JSON Schema engine off a zod-only host's way.
  const input: CompiledSchema = {
    json: { type: "object", properties: {}, additionalProperties: false },
    validate: (value) =>
      typeof value === "object" && value !== null && !Array.isArray(value) && Object.keys(value).length === 0
        ? { ok: true, value }
        : { ok: false, message: `the arguments must be an empty object (keyword "additionalProperties")` },
  };
  const wire: Tool = {
    name: TOOLSETS_TOOL_NAME,
    title: "List Server Toolsets",
    description: "Lists the toolsets this MCP server declares, which are active on this connection, the tools they give, and how to select others by URL.",
    inputSchema: input.json as Tool["inputSchema"],
    annotations: { title: "List Server Toolsets", readOnlyHint: true, idempotentHint: true, destructiveHint: false, openWorldHint: false },
  };
  const handler: ToolHandler = (_args, ctx) => {
    // With toolset scopes, the answer is this caller's: toolsets its token does not reach are left out.
    const answer = { ...describe(ctx.selection.active, ctx.selection.unknown, ctx.selection.permitted), how_to_select: HOW_TO_SELECT[ctx.transport] };
    return { content: [{ type: "text", text: JSON.stringify(answer, null, 2) }], structuredContent: answer };
  };
  return { name: TOOLSETS_TOOL_NAME, rawName: TOOLSETS_TOOL_NAME, toolset: "", extension: "mcp-host", wire, input, validateOutput: true, handler };
}
