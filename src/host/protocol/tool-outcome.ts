/**
 * How a `tools/call` ended, for the observer (docs/design.md §18): ok, an `isError` result, a timeout, or refused (the
 * handler never ran: unknown tool, arguments that fail the schema, a call the gateway denied). The host marks its
 * own timeouts and refusals on the result object itself (never on the wire); the gateway's results carry their code
 * under `_meta["mcp-host/error"]`, the registry's shape.
 */
import { ERROR_META_KEY } from "../../errors.js";
import type { ToolCallOutcome } from "../observer.js";

const MARKED = new WeakMap<object, ToolCallOutcome>();

const REFUSED_CODES = new Set(["MCP_TOOL_DENIED"]);
const TIMEOUT_CODES = new Set(["TOOL_TIMEOUT", "MCP_REQUEST_TIMEOUT"]);

/**
 * Marks how a result the host made came about; returns the result.
 * @example
 * return markToolOutcome(errorResult(`tool "x" timed out after 100 ms`), "timeout");
 */
export function markToolOutcome<T extends object>(result: T, outcome: ToolCallOutcome): T {
  MARKED.set(result, outcome);
  return result;
}

/**
 * The outcome a `tools/call` result stands for (an `input_required` round counts as ok).
 * @example
 * toolOutcomeOf({ content: [], isError: true }) // "isError"
 */
export function toolOutcomeOf(result: unknown): ToolCallOutcome {
  if (typeof result !== "object" || result === null) return "ok";
  const marked = MARKED.get(result);
  if (marked !== undefined) return marked;
  const { isError, _meta } = result as { isError?: unknown; _meta?: Record<string, unknown> };
  if (isError !== true) return "ok";
  const code = (_meta?.[ERROR_META_KEY] as { code?: unknown } | undefined)?.code;
  if (typeof code === "string" && TIMEOUT_CODES.has(code)) return "timeout";
  if (typeof code === "string" && REFUSED_CODES.has(code)) return "refused";
  return "isError";
}

/**
 * A short reason an `isError` result gives (its first text, cut to 200 characters), for logs and spans.
 * @example
 * errorTextOf({ content: [{ type: "text", text: "boom" }], isError: true }) // "boom"
 */
export function errorTextOf(result: unknown): string | undefined {
  const content = (result as { isError?: unknown; content?: unknown } | null)?.content;
  if ((result as { isError?: unknown }).isError !== true || !Array.isArray(content)) return undefined;
  const first = content.find((block: { type?: unknown }) => block?.type === "text") as { text?: unknown } | undefined;
  return typeof first?.text === "string" ? first.text.slice(0, 200) : undefined;
}
