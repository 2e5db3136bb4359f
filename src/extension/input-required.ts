/**
 * Asking the client for input in the middle of a request (MCP 2026-07-28 "input required"; the host serves the
 * same handler to 2025-era clients by sending real requests). A handler returns `inputRequired({ … })`; when the
 * client answered, the handler runs again and reads the answers with `acceptedContent` or `inputResponse`.
 * These build plain values only, so an extension needs nothing heavier than mcp-host's root to use them; the host
 * converts a zod `requestedSchema` to JSON Schema and checks it when the result leaves.
 */
import type { CreateMessageResult, InputRequest, InputRequiredResult, Root } from "@modelcontextprotocol/server";
import type { JsonSchemaObject, SchemaInput } from "./schema-types.js";
import { defined } from "../defined.js";

export type { InputRequest };

/** The answers a retried request carries, keyed as the handler asked. */
export type InputResponses = Readonly<Record<string, unknown>> | undefined;

/** What `inputRequired` takes: the requests to send (by key) and/or opaque state to get back on the retry. */
export interface InputRequiredSpec {
  inputRequests?: Record<string, InputRequest>;
  requestState?: string;
}

/** A form elicitation: a message and a flat object schema (JSON Schema, or a zod object the host converts). */
export interface ElicitSpec {
  message: string;
  requestedSchema: JsonSchemaObject | SchemaInput;
  [key: string]: unknown;
}

function build(spec: InputRequiredSpec): InputRequiredResult {
  const hasRequests = spec.inputRequests !== undefined && Object.keys(spec.inputRequests).length > 0;
  if (!hasRequests && typeof spec.requestState !== "string") {
    throw new TypeError("inputRequired() needs at least one entry in inputRequests, or a requestState string");
  }
  return {
    resultType: "input_required",
    ...defined({ inputRequests: spec.inputRequests, requestState: spec.requestState }),
  } as InputRequiredResult;
}

/** `inputRequired(spec)` builds the result a handler returns; its methods build the requests that result carries. */
export interface InputRequiredBuilder {
  (spec: InputRequiredSpec): InputRequiredResult;
  /** A form elicitation request. */
  elicit(params: ElicitSpec): InputRequest;
  /** A URL elicitation request (the user completes something in a browser). */
  elicitUrl(params: { message: string; url: string; elicitationId: string; [key: string]: unknown }): InputRequest;
  /** A sampling request (the client's model answers). */
  createMessage(params: Record<string, unknown>): InputRequest;
  /** A roots request (the client's workspace roots). */
  listRoots(): InputRequest;
}

/**
 * @example
 * const ok = acceptedContent(ctx.inputResponses, "confirm");
 * if (ok?.confirm !== true) return inputRequired({ inputRequests: { confirm: inputRequired.elicit({ message: "Deploy?", requestedSchema: z.object({ confirm: z.boolean() }) }) } });
 */
export const inputRequired: InputRequiredBuilder = Object.assign(build, {
  /** A form elicitation request. */
  elicit: (params: ElicitSpec): InputRequest => ({ method: "elicitation/create", params: { ...params, mode: "form" } }) as unknown as InputRequest,
  /** A URL elicitation request (the user completes something in a browser). */
  elicitUrl: (params: { message: string; url: string; elicitationId: string; [key: string]: unknown }): InputRequest =>
    ({ method: "elicitation/create", params: { ...params, mode: "url" } }) as unknown as InputRequest,
  /** A sampling request (the client's model answers). */
  createMessage: (params: Record<string, unknown>): InputRequest => ({ method: "sampling/createMessage", params }) as unknown as InputRequest,
  /** A roots request (the client's workspace roots). */
  listRoots: (): InputRequest => ({ method: "roots/list" }) as unknown as InputRequest,
});

/** One answer, as a discriminated view: an elicitation's action and content, roots, a sampling result, or missing. */
export type InputResponseView =
  | { kind: "missing" }
  | { kind: "elicit"; action: "accept" | "decline" | "cancel"; content?: Record<string, unknown> }
  | { kind: "roots"; roots: Root[] }
  | { kind: "sampling"; result: CreateMessageResult };

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Reads one answer. The values come from the client: treat them as untrusted.
 * @example
 * const view = inputResponse(ctx.inputResponses, "confirm"); if (view.kind === "elicit" && view.action === "decline") …
 */
export function inputResponse(responses: InputResponses, key: string): InputResponseView {
  const entry = isPlainObject(responses) ? responses[key] : undefined;
  if (!isPlainObject(entry)) return { kind: "missing" };
  const action = entry.action;
  if (action === "accept" || action === "decline" || action === "cancel") {
    return { kind: "elicit", action, ...(isPlainObject(entry.content) ? { content: entry.content } : {}) };
  }
  if (Array.isArray(entry.roots)) return { kind: "roots", roots: entry.roots as Root[] };
  if (typeof entry.role === "string" && entry.content !== undefined) return { kind: "sampling", result: entry as unknown as CreateMessageResult };
  return { kind: "missing" };
}

/**
 * The content of an accepted elicitation, or undefined (declined, cancelled, missing, or — with a schema — not
 * valid). A schema must validate synchronously (zod does).
 * @example
 * const answer = acceptedContent(ctx.inputResponses, "user_context", z.object({ context: z.string() }));
 */
export function acceptedContent<T = Record<string, unknown>>(responses: InputResponses, key: string, schema?: SchemaInput): T | undefined {
  const view = inputResponse(responses, key);
  if (view.kind !== "elicit" || view.action !== "accept" || view.content === undefined) return undefined;
  if (schema === undefined || !("~standard" in (schema as object))) return view.content as T;
  const outcome = (schema as { "~standard": { validate(value: unknown): unknown } })["~standard"].validate(view.content);
  if (outcome instanceof Promise) throw new TypeError("acceptedContent(responses, key, schema) needs a schema that validates synchronously");
  const result = outcome as { issues?: unknown; value?: unknown };
  return result.issues === undefined ? (result.value as T) : undefined;
}
