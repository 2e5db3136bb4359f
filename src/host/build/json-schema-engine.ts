/**
 * The JSON Schema engine (ajv, drafts 2020-12 and 07, with formats), loaded the first time a build has a JSON
 * Schema to check. An extension written with zod alone never loads it, which keeps `mcp-host stdio`'s cold start
 * short (ajv is one of the larger imports on that path).
 */
import type { Ajv, ValidateFunction } from "ajv";
import type { Ajv2020 } from "ajv/dist/2020.js";
import type { JsonSchemaObject } from "../../extension/schema-types.js";

interface Engines {
  draft2020: Ajv2020;
  draft07: Ajv;
}

let engines: Engines | undefined;
let loading: Promise<Engines> | undefined;

const OPTIONS = { strict: false, allErrors: false, addUsedSchema: false, validateSchema: true } as const;

/**
 * Loads ajv once (concurrent callers share the import).
 * @example
 * await loadJsonSchemaEngine(); engineFor(schema).validateSchema(schema);
 */
export function loadJsonSchemaEngine(): Promise<Engines> {
  if (engines) return Promise.resolve(engines);
  loading ??= (async () => {
    const [{ Ajv }, { Ajv2020 }, formats] = await Promise.all([import("ajv"), import("ajv/dist/2020.js"), import("ajv-formats")]);
    const addFormats = formats.default as unknown as (ajv: Ajv | Ajv2020) => void;
    const draft2020 = new Ajv2020(OPTIONS);
    const draft07 = new Ajv(OPTIONS);
    addFormats(draft2020);
    addFormats(draft07);
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

export type { ValidateFunction };
