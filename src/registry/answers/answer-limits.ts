/**
 * How much of an upstream's answer the registry reads (docs/registry.md, "Bounded answers"). Every answer — a JSON
 * body, an SSE event, a stdio line — is counted as its bytes arrive and given up past the largest result a caller
 * may get (`maxResultBytes`) plus slack for the JSON-RPC envelope and an upstream's own escaping; and refused, unparsed,
 * when its JSON nests deeper than `maxJsonDepth`. A refusal names the limit and reaches the request it answered:
 * thrown to a forwarded request or from the SDK transport's fetch, or — where only an answer can settle an SDK
 * request — as a JSON-RPC error written in the upstream's place, marked so the registry words it as its own (as it
 * is when a stream ends without answering: the SDK would wait for its timeout).
 */
import type { JSONRPCErrorResponse } from "@modelcontextprotocol/client";
import { ERROR_META_KEY, McpHostError } from "../../errors.js";

/** The largest result when nobody sets one: the host's own `tools.maxResultBytes` default. */
export const DEFAULT_MAX_RESULT_BYTES = 8 * 1024 * 1024;
/** The deepest nesting when nobody sets one: the host's own `http.maxJsonDepth` default for client bodies. */
export const DEFAULT_MAX_JSON_DEPTH = 64;

/** Slack over the largest result: a quarter more, and at least 64 KiB (the envelope; `\u00e9` where a host writes `é`). */
const SLACK_SHARE = 4;
const MIN_SLACK_BYTES = 64 * 1024;

/** The limits every answer of one registry is read under. */
export interface AnswerLimits {
  /** The largest result a caller may get, in bytes of JSON (what a refusal names). */
  readonly maxResultBytes: number;
  /** Bytes read of one answer before it is given up: the largest result and the slack. */
  readonly maxAnswerBytes: number;
  /** The deepest nesting of arrays and objects an answer may have, its JSON-RPC envelope counted (a top-level object is 1). */
  readonly maxJsonDepth: number;
}

/**
 * The answer limits of a registry's options.
 * @example
 * answerLimits({ maxResultBytes: 1 << 20 }).maxAnswerBytes // 1_376_256: 1 MiB and a quarter
 */
export function answerLimits(options: { maxResultBytes?: number; maxJsonDepth?: number }): AnswerLimits {
  const maxResultBytes = options.maxResultBytes ?? DEFAULT_MAX_RESULT_BYTES;
  return {
    maxResultBytes,
    maxAnswerBytes: maxResultBytes + Math.max(MIN_SLACK_BYTES, Math.ceil(maxResultBytes / SLACK_SHARE)),
    maxJsonDepth: options.maxJsonDepth ?? DEFAULT_MAX_JSON_DEPTH,
  };
}

/** The codes of a refused answer. */
export type AnswerRefusalCode = "MCP_ANSWER_TOO_LARGE" | "MCP_ANSWER_TOO_DEEP";

/**
 * An answer given up past the byte limit (its message completes "tool X on server Y failed: …").
 * @example
 * sink.fail(tooLarge(limits))
 */
export function tooLarge(limits: AnswerLimits): McpHostError {
  return new McpHostError(
    "MCP_ANSWER_TOO_LARGE",
    `the answer is larger than the ${limits.maxResultBytes} bytes a result may take (maxResultBytes); it was given up after ${limits.maxAnswerBytes} bytes, unread`,
  );
}

/**
 * An answer refused, unparsed, for its nesting.
 * @example
 * if (scan.deepest > limits.maxJsonDepth) sink.fail(tooDeep(limits));
 */
export function tooDeep(limits: AnswerLimits): McpHostError {
  return new McpHostError("MCP_ANSWER_TOO_DEEP", `the answer nests deeper than ${limits.maxJsonDepth} levels (maxJsonDepth); it was refused unread`);
}

/**
 * A stream that ended without answering the request that opened it (and without an event id to resume it by).
 * @example
 * controller.enqueue(encoded(registryAnswer(id, noAnswer())))
 */
export function noAnswer(): McpHostError {
  return new McpHostError("MCP_CALL_FAILED", "the server ended its answer without a response");
}

/**
 * The JSON-RPC error the registry writes in an upstream's place to settle an SDK client's request (a refused answer,
 * none at all), marked as its own.
 * @example
 * transport.onmessage(registryAnswer(id, tooLarge(limits)))
 */
export function registryAnswer(id: string | number, failure: McpHostError): JSONRPCErrorResponse {
  return { jsonrpc: "2.0", id, error: { code: -32603, message: failure.message, data: { [ERROR_META_KEY]: { code: failure.code } } } };
}

/**
 * The code the registry marked an error it wrote with (`registryAnswer`); undefined for an upstream's own error.
 * @example
 * markOf(protocolError) // "MCP_ANSWER_TOO_LARGE"
 */
export function markOf(error: unknown): string | undefined {
  const data = (error as { data?: unknown } | null)?.data;
  const code = (data as Record<string, { code?: unknown } | undefined> | undefined)?.[ERROR_META_KEY]?.code;
  return typeof code === "string" ? code : undefined;
}

/**
 * The refusal a failure carries: an McpHostError's code, or the mark on an error `registryAnswer` wrote.
 * @example
 * refusalOf(tooDeep(limits)) // "MCP_ANSWER_TOO_DEEP"
 */
export function refusalOf(error: unknown): AnswerRefusalCode | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const own = (error as { code?: unknown }).code;
  const code = typeof own === "string" ? own : markOf(error);
  return code === "MCP_ANSWER_TOO_LARGE" || code === "MCP_ANSWER_TOO_DEEP" ? code : undefined;
}
