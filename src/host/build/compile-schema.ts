/**
 * Turns a tool's declared schema (JSON Schema or Standard Schema) into what a build needs: the JSON Schema sent
 * on the wire and a validator compiled once. Compilation is cached per schema object, so rebuilding a selection
 * after an offer change never recompiles tools that did not change. External `$ref`s are never fetched.
 */
import { Ajv, type ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import type { StandardSchemaV1 } from "@modelcontextprotocol/server";
import { isStandardSchema, type JsonSchemaObject, type SchemaInput } from "../../extension/schema-types.js";

/** The outcome of validating a value: the value to use (a Standard Schema may transform it) or a message. */
export type ValidationOutcome = { ok: true; value: unknown } | { ok: false; message: string };

/** A schema ready for use: its wire form and a validator. */
export interface CompiledSchema {
  json: JsonSchemaObject;
  validate(value: unknown): ValidationOutcome | Promise<ValidationOutcome>;
}

const addFormats = addFormatsModule as unknown as (ajv: Ajv | Ajv2020) => void;
const ajvOptions = { strict: false, allErrors: false, addUsedSchema: false, validateSchema: true } as const;
const ajv2020 = new Ajv2020(ajvOptions);
const ajv07 = new Ajv(ajvOptions);
addFormats(ajv2020);
addFormats(ajv07);

const cache = new WeakMap<object, { input?: CompiledSchema; output?: CompiledSchema }>();

/**
 * Compiles a schema for tool input (`role: "input"`: root must be an object) or output (any root).
 * Throws an Error with a message that says what is wrong; the caller names the extension and tool.
 * @example
 * const { json, validate } = compileSchema({ type: "object", properties: { q: { type: "string" } } }, "input");
 */
export function compileSchema(schema: SchemaInput, role: "input" | "output"): CompiledSchema {
  const cached = cache.get(schema)?.[role];
  if (cached) return cached;
  const compiled = isStandardSchema(schema) ? compileStandard(schema, role) : compileJson(schema, role);
  cache.set(schema, { ...cache.get(schema), [role]: compiled });
  return compiled;
}

function compileJson(schema: JsonSchemaObject, role: "input" | "output"): CompiledSchema {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) {
    throw new Error(`its ${role} schema is not a JSON Schema object`);
  }
  if (role === "input") assertObjectRoot(schema);
  const validator = compileAjv(schema);
  return { json: schema, validate: (value) => outcomeOf(validator, value) };
}

function compileStandard(schema: StandardSchemaV1, role: "input" | "output"): CompiledSchema {
  const props = schema["~standard"] as StandardSchemaV1["~standard"] & {
    jsonSchema?: { input(options: { target: string }): unknown; output(options: { target: string }): unknown };
  };
  if (typeof props.jsonSchema?.input !== "function") {
    throw new Error(`its ${role} schema (vendor "${props.vendor}") cannot describe itself as JSON Schema; use zod 4 or a JSON Schema object`);
  }
  const json = (
    role === "input" ? props.jsonSchema.input({ target: "draft-2020-12" }) : props.jsonSchema.output({ target: "draft-2020-12" })
  ) as JsonSchemaObject;
  if (role === "input") assertObjectRoot(json);
  return {
    json,
    validate: async (value) => {
      const result = await props.validate(value);
      if (result.issues === undefined) return { ok: true, value: result.value };
      return { ok: false, message: result.issues.map(describeIssue).join("; ") };
    },
  };
}

function assertObjectRoot(schema: JsonSchemaObject): void {
  const type = schema.type;
  if (type !== "object") {
    const shown = type === undefined ? "no type" : JSON.stringify(type);
    throw new Error(`its input schema's root is ${shown}; a tool's input schema must be an object (type: "object")`);
  }
}

function compileAjv(schema: JsonSchemaObject): ValidateFunction {
  const draft = typeof schema.$schema === "string" ? schema.$schema : "";
  const engine = draft.includes("draft-07") || draft.includes("draft-06") || draft.includes("draft-04") ? ajv07 : ajv2020;
  try {
    return engine.compile(schema);
  } catch (error) {
    throw new Error(`its schema does not compile: ${(error as Error).message}`);
  }
}

function outcomeOf(validator: ValidateFunction, value: unknown): ValidationOutcome {
  if (validator(value)) return { ok: true, value };
  const first = validator.errors?.[0];
  if (!first) return { ok: false, message: "invalid" };
  const where = first.instancePath === "" ? "the arguments" : `"${first.instancePath}"`;
  return { ok: false, message: `${where} ${first.message ?? "is invalid"} (keyword "${first.keyword}")` };
}

function describeIssue(issue: StandardSchemaV1.Issue): string {
  const path = (issue.path ?? []).map((p) => (typeof p === "object" ? String(p.key) : String(p))).join(".");
  return path ? `"${path}": ${issue.message}` : issue.message;
}
