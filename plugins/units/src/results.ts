/**
 * The two shapes every units tool answers with: structured content mirrored as JSON text (so clients that only
 * read text see the same facts), or an `isError` result whose message tells the caller how to fix the call.
 */
import type { ToolResult } from "mcp-host";

export function structured<T extends Record<string, unknown>>(value: T): ToolResult {
  return { content: [{ type: "text", text: JSON.stringify(value, null, 2) }], structuredContent: value };
}

export function failure(message: string): ToolResult {
  return { content: [{ type: "text", text: message }], isError: true };
}
