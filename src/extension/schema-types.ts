/**
 * The two ways an extension describes a tool's input or output: a JSON Schema object, or any Standard Schema
 * that can render itself as JSON Schema (zod 4 does). The host converts and compiles either once per build.
 */
import type { StandardSchemaV1, StandardSchemaWithJSON } from "@modelcontextprotocol/server";

/** A JSON Schema document (draft 2020-12 or 07); for tool input its root must be `type: "object"`. */
export type JsonSchemaObject = { readonly [keyword: string]: unknown };

/** What a tool may declare as its input or output schema. */
export type SchemaInput = JsonSchemaObject | StandardSchemaWithJSON;

/**
 * The arguments type a handler receives for a given schema: inferred for zod / Standard Schema, a plain record for
 * JSON Schema (and for a tool typed loosely, e.g. written inline without `defineTool`).
 */
export type InferArgs<S> = 0 extends 1 & S ? Record<string, any> : [S] extends [StandardSchemaV1<any, infer Out>] ? Out : Record<string, unknown>;

/** True when the value is a Standard Schema (zod 4, valibot, arktype, …) rather than plain JSON Schema. */
export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  return typeof value === "object" && value !== null && "~standard" in value && typeof (value as StandardSchemaV1)["~standard"]?.validate === "function";
}
