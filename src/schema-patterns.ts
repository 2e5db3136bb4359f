/**
 * The regular expressions a JSON Schema's validator would compile — every `pattern`, every `patternProperties`
 * key — with the keyword path of each, so a pattern no linear engine can run is named where it is written, at
 * build time rather than on some later call. The walk follows the keywords that hold subschemas (drafts 04 to
 * 2020-12) and never looks inside `enum`, `const`, `default` or `examples`, where a "pattern" key is data.
 */
import { linearRegExp } from "./linear-regexp.js";

/** One pattern of a schema and where it is (a JSON Pointer to the keyword, or to the `patternProperties` key). */
export interface SchemaPattern {
  path: string;
  pattern: string;
}

/** A pattern the linear engine refused, and why: no JavaScript `u` pattern at all (`invalid`), or one it cannot run. */
export interface RefusedPattern extends SchemaPattern {
  reason: string;
  invalid: boolean;
}

const ONE_SCHEMA = [
  "additionalItems",
  "additionalProperties",
  "unevaluatedItems",
  "unevaluatedProperties",
  "propertyNames",
  "contains",
  "not",
  "if",
  "then",
  "else",
  "items",
];
const SCHEMA_LISTS = ["allOf", "anyOf", "oneOf", "prefixItems", "items"];
const SCHEMA_MAPS = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies"];

function pointer(key: string): string {
  return `/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function walk(schema: unknown, path: string, out: SchemaPattern[], depth: number): void {
  if (!isObject(schema) || depth > 256) return;
  if (typeof schema.pattern === "string") out.push({ path: `${path}/pattern`, pattern: schema.pattern });
  if (isObject(schema.patternProperties)) {
    for (const key of Object.keys(schema.patternProperties)) out.push({ path: `${path}/patternProperties${pointer(key)}`, pattern: key });
  }
  for (const keyword of ONE_SCHEMA) walk(schema[keyword], `${path}/${keyword}`, out, depth + 1);
  for (const keyword of SCHEMA_LISTS) {
    const list = schema[keyword];
    if (Array.isArray(list)) for (const [i, item] of list.entries()) walk(item, `${path}/${keyword}/${i}`, out, depth + 1);
  }
  for (const keyword of SCHEMA_MAPS) {
    const map = schema[keyword];
    if (isObject(map)) for (const [key, value] of Object.entries(map)) walk(value, `${path}/${keyword}${pointer(key)}`, out, depth + 1);
  }
}

/**
 * Every pattern in `schema`, in document order.
 * @example
 * patternsOf({ type: "object", properties: { id: { type: "string", pattern: "^[a-z]+$" } } })
 * // [{ path: "/properties/id/pattern", pattern: "^[a-z]+$" }]
 */
export function patternsOf(schema: unknown): SchemaPattern[] {
  const out: SchemaPattern[] = [];
  walk(schema, "", out, 0);
  return out;
}

/**
 * The patterns of `schema` the linear engine cannot run (ajv reads them with the `u` flag), with the reason.
 * @example
 * refusedPatterns({ pattern: "^(?!admin)" }) // [{ path: "/pattern", pattern: "^(?!admin)", reason: 'it uses a lookahead ("(?!")', invalid: false }]
 */
export function refusedPatterns(schema: unknown): RefusedPattern[] {
  const refused: RefusedPattern[] = [];
  for (const found of patternsOf(schema)) {
    try {
      linearRegExp(found.pattern, "u");
    } catch (error) {
      refused.push({ ...found, reason: (error as Error).message, invalid: error instanceof SyntaxError });
    }
  }
  return refused;
}
