/**
 * Which requests may be forwarded as they are, and what their answers need to look like what an SDK client round
 * gives (docs/registry.md, "Forwarded calls"). A tool call is forwarded only for a tool with no `outputSchema` (its
 * structured content is checked by the full path), whose name needs no encoding in `Mcp-Name`, and whose input
 * schema mirrors no argument into a header (`x-mcp-header`: only the SDK client builds those headers). Its answer
 * gets what the SDK client's result schema would give it: `content` defaults to `[]`, and a 2026-07-28 answer's
 * `resultType: "complete"` is the transport's, not the result's.
 */
import type { Tool } from "@modelcontextprotocol/client";

const verdicts = new WeakMap<object, boolean>();

/** Printable ASCII with no space at either end: sent in `Mcp-Name` as it is (anything else is base64-encoded). */
const PLAIN_NAME = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;

/** True when a call of this tool needs nothing but forwarding (judged once per listed definition). */
export function forwardableTool(definition: Tool): boolean {
  let verdict = verdicts.get(definition);
  if (verdict === undefined) {
    verdict =
      definition.outputSchema === undefined &&
      PLAIN_NAME.test(definition.name) &&
      !definition.name.startsWith("=?base64?") &&
      !JSON.stringify(definition.inputSchema ?? {}).includes('"x-mcp-header"');
    verdicts.set(definition, verdict);
  }
  return verdict;
}

/** True when a prompt's name can be sent in `Mcp-Name` as it is. */
export function plainName(name: string): boolean {
  return PLAIN_NAME.test(name) && !name.startsWith("=?base64?");
}

/**
 * The forwarded answer as an SDK client round would hand it back.
 * @example
 * normalised({ content: [], resultType: "complete" }, "tools/call") // { content: [] }
 */
export function normalised(value: Record<string, unknown>, method: string): Record<string, unknown> {
  let result = value;
  if (result.resultType === "complete") {
    const { resultType: _complete, ...rest } = result;
    result = rest;
  }
  if (method === "tools/call" && result.resultType === undefined && !Array.isArray(result.content)) result = { ...result, content: [] };
  return result;
}
