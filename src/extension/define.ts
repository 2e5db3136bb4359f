/**
 * Identity helpers that give extension objects their types. They do nothing at run time, by design: an
 * extension is a plain object the host can read without executing anything.
 */
import type { McpExtension, ToolSpec } from "./types.js";
import type { SchemaInput } from "./schema-types.js";

/**
 * Gives an extension object its type.
 * @example
 * export default defineExtension({ name: "clock", tools: [defineTool({ name: "now", handler: () => ({ content: [] }) })] });
 */
export function defineExtension(extension: McpExtension): McpExtension {
  return extension;
}

/**
 * Gives a tool its type, inferring the handler's arguments from a zod / Standard Schema input schema.
 * @example
 * defineTool({ name: "add", inputSchema: z.object({ a: z.number(), b: z.number() }),
 *   handler: ({ a, b }) => ({ content: [{ type: "text", text: String(a + b) }] }) });
 */
export function defineTool<S extends SchemaInput>(tool: ToolSpec<S>): ToolSpec<S> {
  return tool;
}
