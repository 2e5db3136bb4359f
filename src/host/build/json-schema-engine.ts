/**
 * The JSON Schema engine (ajv, drafts 2020-12 and 07, with formats), loaded the first time a build has a JSON
 * Schema to check. An extension written with zod alone never loads it, which keeps `mcp-host stdio`'s cold start
 * short (ajv is one of the larger imports on that path). Every pattern and format it checks runs in linear time
 * (`src/linear-regexp.ts`): a tool's schema, an upstream's above all, is not the host's to trust with a
 * backtracking engine and a client's argument.
 */
import type { Ajv, ValidateFunction } from "ajv";
import type { Ajv2020 } from "ajv/dist/2020.js";
import type { JsonSchemaObject } from "../../extension/schema-types.js";
import type { RefusedPattern } from "../../schema-patterns.js";

interface Engines {
  draft2020: Ajv2020;
  draft07: Ajv;
}

let engines: Engines | undefined;
let loading: Promise<Engines> | undefined;

const OPTIONS = { strict: false, allErrors: false, addUsedSchema: false, validateSchema: true } as const;

/** The build-time pattern check, loaded with ajv (the same lazy import: it loads the linear engine, re2js). */
let patterns: { refusedPatterns(schema: unknown): RefusedPattern[] } | undefined;

/**
 * Loads ajv once (concurrent callers share the import).
 * @example
 * await loadJsonSchemaEngine(); engineFor(schema).validateSchema(schema);
 */
export function loadJsonSchemaEngine(): Promise<Engines> {
  if (engines) return Promise.resolve(engines);
  loading ??= (async () => {
    const [{ Ajv }, { Ajv2020 }, formats, { ajvRegExp }, { useLinearFormats }, schemaPatterns] = await Promise.all([
      import("ajv"),
      import("ajv/dist/2020.js"),
      import("ajv-formats"),
      import("../../linear-regexp.js"),
      import("../../linear-formats.js"),
      import("../../schema-patterns.js"),
    ]);
    const addFormats = formats.default as unknown as (ajv: Ajv | Ajv2020) => void;
    const options = { ...OPTIONS, code: { regExp: ajvRegExp } };
    const draft2020 = new Ajv2020(options);
    const draft07 = new Ajv(options);
    for (const ajv of [draft2020, draft07]) {
      addFormats(ajv);
      useLinearFormats(ajv);
    }
    patterns = schemaPatterns;
    engines = { draft2020, draft07 };
    return engines;
  })();
  return loading;
}

/** The engine for a schema's `$schema` draft; the engine must have been loaded (`loadJsonSchemaEngine`). */
export function engineFor(schema: JsonSchemaObject): Ajv | Ajv2020 {
  if (!engines) throw new Error("the JSON Schema engine was not loaded before a JSON Schema was compiled (a bug in mcp-host)");
  const draft = typeof schema.$schema === "string" ? schema.$schema : "";
  return draft.includes("draft-07") || draft.includes("draft-06") || draft.includes("draft-04") ? engines.draft07 : engines.draft2020;
}

/**
 * The patterns of `schema` no linear engine can run (a lookaround, a backreference), each with its keyword path.
 * @example
 * refusedPatternsOf({ type: "object", properties: { q: { type: "string", pattern: "(a)\\1" } } })[0].path // "/properties/q/pattern"
 */
export function refusedPatternsOf(schema: JsonSchemaObject): RefusedPattern[] {
  if (!patterns) throw new Error("the JSON Schema engine was not loaded before a JSON Schema was checked (a bug in mcp-host)");
  return patterns.refusedPatterns(schema);
}

export type { ValidateFunction };
