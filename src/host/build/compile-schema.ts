/**
 * Turns a tool's declared schema (JSON Schema or Standard Schema) into what a build needs: the JSON Schema sent
 * on the wire and a validator. A JSON Schema is checked when the build is made (against its meta-schema, its root,
 * its `$ref`s — a tool with a broken schema is left out then), and its validator is generated on the first call
 * that needs it: generating one costs about a millisecond, checking one a hundredth of that, so a host with
 * thousands of tools starts in a fraction of the time. Everything is cached per schema object, so rebuilding a
 * selection after an offer change redoes nothing for tools that did not change. External `$ref`s are never fetched.
 */
import type { StandardSchemaV1 } from "@modelcontextprotocol/server";
import { isStandardSchema, type JsonSchemaObject, type SchemaInput } from "../../extension/schema-types.js";
import { engineFor, refusedPatternsOf, type ValidateFunction } from "./json-schema-engine.js";

/** The outcome of validating a value: the value to use (a Standard Schema may transform it) or a message. */
export type ValidationOutcome = { ok: true; value: unknown } | { ok: false; message: string };

/** A schema ready for use: its wire form and a validator. */
export interface CompiledSchema {
  json: JsonSchemaObject;
  validate(value: unknown): ValidationOutcome | Promise<ValidationOutcome>;
}

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
  checkJsonSchema(schema);
  assertLinearPatterns(schema, role);
  let validator: ValidateFunction | undefined;
  let broken: string | undefined;
  return {
    json: schema,
    validate: (value) => {
      if (broken !== undefined) return { ok: false, message: broken };
      try {
        validator ??= engineFor(schema).compile(schema);
      } catch (error) {
        // The build-time checks let it through, yet it does not compile: say so on every call rather than guess.
        broken = `the tool's ${role} schema does not compile: ${(error as Error).message}`;
        return { ok: false, message: broken };
      }
      return outcomeOf(validator, value);
    },
  };
}

/** What a build checks of a JSON Schema without generating its validator: the meta-schema and every `$ref`. */
function checkJsonSchema(schema: JsonSchemaObject): void {
  const engine = engineFor(schema);
  if (!engine.validateSchema(schema)) throw new Error(`its schema does not compile: schema is invalid: ${engine.errorsText(engine.errors)}`);
  for (const ref of refsOf(schema)) {
    const inside = ref.startsWith("#");
    if (!inside || (ref.startsWith("#/") && resolvePointer(schema, ref.slice(1)) === undefined)) {
      // External references are never fetched (nor resolved against anything but the schema itself).
      throw new Error(`its schema does not compile: can't resolve reference ${ref}${inside ? "" : "; external references are never fetched — inline it"}`);
    }
  }
}

/**
 * Every pattern must run on the linear engine: one that needs backtracking (a lookaround, a backreference) leaves
 * the tool out now, named by its keyword path, rather than fail on each call. (The engine refuses it anyway: this
 * only says so early, and where.)
 */
function assertLinearPatterns(schema: JsonSchemaObject, role: "input" | "output"): void {
  const [refused] = refusedPatternsOf(schema);
  if (refused === undefined) return;
  const where = `its ${role} schema's pattern at ${refused.path} (${JSON.stringify(refused.pattern.slice(0, 100))})`;
  if (refused.invalid) throw new Error(`${where} is not a valid pattern (JSON Schema patterns are read with the u flag): ${refused.reason}`);
  throw new Error(
    `${where} cannot be checked in linear time: ${refused.reason}; ` +
      "mcp-host runs schema patterns on a linear-time engine (RE2) — rewrite it without lookaround or backreferences",
  );
}

function refsOf(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) for (const item of node) refsOf(item, out);
  else if (typeof node === "object" && node !== null) {
    for (const [key, value] of Object.entries(node)) {
      if (key === "$ref" && typeof value === "string") out.push(value);
      else refsOf(value, out);
    }
  }
  return out;
}

function resolvePointer(root: unknown, pointer: string): unknown {
  let node = root;
  for (const raw of pointer.split("/").slice(1)) {
    const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    if (typeof node !== "object" || node === null || !(key in node)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
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
    // zod answers synchronously: its outcome is returned as it is, so a call does not wait a turn for it.
    validate: (value) => {
      const result = props.validate(value);
      return typeof (result as PromiseLike<unknown>).then === "function"
        ? Promise.resolve(result).then(standardOutcome)
        : standardOutcome(result as StandardSchemaV1.Result<unknown>);
    },
  };
}

function standardOutcome(result: StandardSchemaV1.Result<unknown>): ValidationOutcome {
  if (result.issues === undefined) return { ok: true, value: result.value };
  return { ok: false, message: result.issues.map(describeIssue).join("; ") };
}

function assertObjectRoot(schema: JsonSchemaObject): void {
  const type = schema.type;
  if (type !== "object") {
    const shown = type === undefined ? "no type" : JSON.stringify(type);
    throw new Error(`its input schema's root is ${shown}; a tool's input schema must be an object (type: "object")`);
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
