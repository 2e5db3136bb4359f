/**
 * The shapes a tool answers with, so an extension does not write them by hand: plain text, structured content
 * mirrored as JSON text (clients that read only text see the same facts), and an `isError` result whose message
 * tells the model how to fix its call (it can read it and try again, which a protocol error would not allow).
 */
import type { ToolResult } from "./types.js";

/**
 * @example
 * handler: ({ name }) => textResult(`Hello, ${name}!`)
 */
export function textResult(text: string): ToolResult {
  return { content: [{ type: "text", text }] };
}

/**
 * Structured content (for tools with an `outputSchema`) with the same value as indented JSON text.
 * @example
 * handler: () => jsonResult({ now: new Date().toISOString() })
 */
export function jsonResult<T extends Record<string, unknown>>(value: T): ToolResult {
  return { content: [{ type: "text", text: JSON.stringify(value, null, 2) }], structuredContent: value };
}

/**
 * An `isError` result: the call reached the tool, and the tool says what was wrong with it.
 * @example
 * if (!zones.has(zone)) return errorResult(`Unknown time zone "${zone}"; use an IANA name like "Europe/Paris".`);
 */
export function errorResult(message: string): ToolResult {
  return { content: [{ type: "text", text: message }], isError: true };
}
