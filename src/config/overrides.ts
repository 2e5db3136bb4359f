/**
 * withOverrides: command-line flags on top of the file. The overrides are a partial configuration merged in deeply
 * (maps merge, lists and values replace) and the result is validated again, with the same problem report. They are
 * plain values: no secret references, and no credentials — those belong in the file, where they are references.
 */
import { credentialFields } from "./credentials.js";
import { ConfigError, sortProblems, type PathProblem } from "./problems.js";
import { isRecord } from "./schema-parts.js";
import type { DeploymentConfig, DeploymentConfigInput } from "./schema.js";
import { parseReferences } from "./secret-refs.js";
import { mergeProblems, validateConfig } from "./validate.js";

/** Every key optional, at every depth (arrays are taken whole). */
export type DeepPartial<T> = T extends readonly (infer _)[] ? T : T extends object ? { [K in keyof T]?: DeepPartial<T[K]> } : T;

/** A partial configuration, as flags give it. */
export type ConfigOverrides = DeepPartial<DeploymentConfigInput>;

function merge(base: unknown, over: unknown): unknown {
  if (over === undefined) return base;
  if (!isRecord(base) || !isRecord(over)) return over;
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    Object.defineProperty(out, key, { value: merge(base[key], value), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

function referenceProblems(value: unknown, path: (string | number)[], out: PathProblem[]): void {
  if (typeof value === "string") {
    const { parts, unterminated } = parseReferences(value);
    if (unterminated || parts.some((p) => "kind" in p))
      out.push({ code: "CONFIG_INVALID", path, message: "secret references are resolved only in the config file, not in overrides" });
  } else if (Array.isArray(value))
    value.forEach((v, i) => {
      referenceProblems(v, [...path, i], out);
    });
  else if (isRecord(value)) for (const [k, v] of Object.entries(value)) referenceProblems(v, [...path, k], out);
}

/**
 * `config` with `overrides` merged in, validated again; throws CONFIG_INVALID listing every problem.
 * @example
 * const served = withOverrides(config, { http: { port: 8080 }, selection: { strict: true } });
 */
export function withOverrides(config: DeploymentConfig, overrides: ConfigOverrides): DeploymentConfig {
  const credentials: PathProblem[] = credentialFields(overrides).map((field) => ({
    code: "MCP_CREDENTIALS_INLINE",
    path: field.path,
    message: "is a credential and cannot be set by an override; write it in the config file as a secret reference (the value is not shown)",
  }));
  const references: PathProblem[] = [];
  if (!isRecord(overrides)) references.push({ code: "CONFIG_INVALID", path: [], message: "overrides must be a map of settings" });
  referenceProblems(overrides, [], references);
  const earlier = mergeProblems([credentials, references]);
  const merged = isRecord(overrides) ? merge(config, overrides) : config;
  const { config: result, problems } = validateConfig(merged, { earlier });
  if (!result) throw new ConfigError(sortProblems(problems), { what: "the configuration with its overrides" });
  return result;
}
