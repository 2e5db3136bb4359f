/**
 * Reads the configuration schema as data: which schema sits at a key path (for messages that quote a range or
 * suggest a key), and the list of every documented key with its default (so docs/config.md is checked against
 * the schema both ways and the two cannot drift).
 */
import type { z } from "zod";
import { dispatchOf, isRecord } from "./schema-parts.js";
import { defined } from "../defined.js";

interface Def {
  type: string;
  innerType?: z.ZodType;
  defaultValue?: unknown;
  in?: z.ZodType;
  out?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  valueType?: z.ZodType;
  element?: z.ZodType;
  options?: readonly z.ZodType[];
}

function defOf(schema: z.ZodType): Def {
  return (schema as unknown as { _zod: { def: Def } })._zod.def;
}

/**
 * Peels optional, default and pipe layers; stops at a dispatch (its variant depends on the input).
 * @example
 * unwrap(z.number().default(3)) // { schema: <the number schema>, hasDefault: true, defaultValue: 3 }
 */
export function unwrap(schema: z.ZodType): { schema: z.ZodType; defaultValue?: unknown; hasDefault: boolean } {
  let current = schema;
  let found: { defaultValue?: unknown; hasDefault: boolean } = { hasDefault: false };
  for (;;) {
    if (dispatchOf(current)) return { schema: current, ...found };
    const def = defOf(current);
    if (def.type === "default" || def.type === "prefault") {
      if (!found.hasDefault) found = { hasDefault: true, defaultValue: def.defaultValue };
      current = def.innerType!;
    } else if (def.type === "optional" || def.type === "nullable" || def.type === "readonly") {
      current = def.innerType!;
    } else if (def.type === "pipe") {
      current = defOf(def.in!).type === "transform" ? def.out! : def.in!;
    } else {
      return { schema: current, ...found };
    }
  }
}

/** The schema of `segment` inside `schema`, choosing a dispatch variant (or union branch) by `input`. */
function child(schema: z.ZodType, segment: string | number, input: unknown): z.ZodType | undefined {
  let inner = unwrap(schema).schema;
  const chosen = dispatchOf(inner);
  if (chosen) inner = unwrap(chosen.pick(input)).schema;
  const def = defOf(inner);
  if (def.type === "object") return typeof segment === "string" ? def.shape![segment] : undefined;
  if (def.type === "record") return def.valueType;
  if (def.type === "array") return typeof segment === "number" ? def.element : undefined;
  if (def.type === "union") {
    for (const option of def.options!) {
      const found = child(option, segment, input);
      if (found) return found;
    }
  }
  return undefined;
}

/**
 * The value at `path` in `input`, or undefined.
 * @example
 * valueAt({ http: { port: 1 } }, ["http", "port"]) // 1
 */
export function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let current = input;
  for (const segment of path) {
    if (Array.isArray(current) && typeof segment === "number") current = current[segment];
    else if (isRecord(current) && typeof segment === "string" && Object.hasOwn(current, segment)) current = current[segment];
    else return undefined;
  }
  return current;
}

/**
 * The schema at `path` (unwrapped), reading `input` to choose variants; undefined past a leaf.
 * @example
 * schemaAt(deploymentConfigSchema, ["http", "port"], {})  // the port's number schema
 */
export function schemaAt(root: z.ZodType, path: readonly PropertyKey[], input: unknown): z.ZodType | undefined {
  let current: z.ZodType | undefined = root;
  for (let i = 0; i < path.length && current; i++) {
    const segment = path[i]!;
    if (typeof segment === "symbol") return undefined;
    current = child(current, segment, valueAt(input, path.slice(0, i)));
  }
  if (!current) return undefined;
  const inner = unwrap(current).schema;
  const chosen = dispatchOf(inner);
  return chosen ? unwrap(chosen.pick(valueAt(input, path))).schema : inner;
}

/**
 * The keys an object schema knows, sorted; empty when `schema` is not an object.
 * @example
 * knownKeys(schemaAt(deploymentConfigSchema, ["selection"], {})) // ["default", "ignoreKeys", "strict"]
 */
export function knownKeys(schema: z.ZodType | undefined): string[] {
  if (!schema) return [];
  const def = defOf(unwrap(schema).schema);
  return def.type === "object" ? Object.keys(def.shape!).sort() : [];
}

/**
 * Bounds of a number schema.
 * @example
 * numberBounds(z.number().int().min(0).max(9)) // { min: 0, max: 9, integer: true }
 */
export function numberBounds(schema: z.ZodType | undefined): { min?: number; max?: number; integer: boolean } | undefined {
  if (!schema) return undefined;
  const inner = unwrap(schema).schema as unknown as { minValue?: number | null; maxValue?: number | null; isInt?: boolean };
  if (defOf(unwrap(schema).schema).type !== "number") return undefined;
  const finite = (n: number | null | undefined) => (typeof n === "number" && Number.isFinite(n) && Math.abs(n) < Number.MAX_SAFE_INTEGER ? n : undefined);
  const min = finite(inner.minValue);
  const max = finite(inner.maxValue);
  return { ...defined({ min, max }), integer: inner.isInt === true };
}

/** One documented key: its dotted path (`*` for any map key), default, and number range. */
export interface ConfigKey {
  path: string;
  hasDefault: boolean;
  defaultValue?: unknown;
  min?: number;
  max?: number;
}

function isContainer(schema: z.ZodType): boolean {
  const inner = unwrap(schema).schema;
  if (dispatchOf(inner)) return true;
  return defOf(inner).type === "object";
}

function walk(schema: z.ZodType, path: string, out: Map<string, ConfigKey>): void {
  const { schema: inner, hasDefault, defaultValue } = unwrap(schema);
  const chosen = dispatchOf(inner);
  if (chosen) {
    for (const variant of chosen.variants) walk(variant, path, out);
    return;
  }
  const def = defOf(inner);
  if (def.type === "object") {
    for (const [key, value] of Object.entries(def.shape!)) walk(value, path === "" ? key : `${path}.${key}`, out);
    return;
  }
  if (def.type === "record" && isContainer(def.valueType!)) {
    walk(def.valueType!, `${path}.*`, out);
    return;
  }
  if (out.has(path)) return;
  const bounds = numberBounds(inner);
  out.set(path, {
    path,
    hasDefault,
    ...(hasDefault ? { defaultValue } : {}),
    ...defined({ min: bounds?.min, max: bounds?.max }),
  });
}

/**
 * Every key a configuration may set (leaves: values, lists and maps of values), in schema order.
 * @example
 * listConfigKeys(deploymentConfigSchema).find((k) => k.path === "http.port") // { path: "http.port", hasDefault: true, defaultValue: 3000, min: 0, max: 65535 }
 */
export function listConfigKeys(root: z.ZodType): ConfigKey[] {
  const out = new Map<string, ConfigKey>();
  walk(root, "", out);
  return [...out.values()];
}
