/**
 * The shape check of `isolation` (docs/design.md §16), on an extension and on its tools. Kept apart from validate.ts
 * because its rules are their own: a worker must be able to import the extension's module by itself, so a module
 * is required, and a tool can only refine isolation its extension asked for.
 */
import { describeValue } from "../describe-value.js";

type Fields = Record<string, unknown>;

/** The bounds each limit must fall within (whole numbers). */
export const ISOLATION_BOUNDS = {
  heapMb: { min: 16, max: 16_384 },
  cpuMs: { min: 10, max: 3_600_000 },
  poolSize: { min: 1, max: 64 },
} as const;

const EXTENSION_KEYS = ["module", "heapMb", "cpuMs", "poolSize"] as const;
const TOOL_KEYS = ["heapMb", "cpuMs"] as const;

function isObject(value: unknown): value is Fields {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A module a worker can import on its own: a `file:` URL (what `import.meta.url` gives) or an absolute path. */
function isImportable(value: string): boolean {
  return value.startsWith("file:") || value.startsWith("/") || /^[A-Za-z]:[\\/]/.test(value);
}

function limitProblems(where: string, fields: Fields, keys: readonly string[]): string[] {
  const problems: string[] = [];
  for (const key of Object.keys(fields).sort()) {
    if (!keys.includes(key))
      problems.push(`${where}.${key} is not an isolation setting (got ${describeValue(fields[key])}); the settings are ${keys.join(", ")}`);
  }
  for (const key of ["heapMb", "cpuMs", "poolSize"] as const) {
    if (!keys.includes(key) || fields[key] === undefined) continue;
    const value = fields[key];
    const { min, max } = ISOLATION_BOUNDS[key];
    if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
      problems.push(`${where}.${key} must be a whole number from ${min} to ${max} (got ${describeValue(value)})`);
    }
  }
  return problems;
}

function extensionProblems(isolation: unknown): string[] {
  if (isolation === "worker") return ['isolation is "worker" but names no module; write isolation: { module: import.meta.url } so a worker can import it'];
  if (!isObject(isolation)) {
    return [`isolation must be "worker" or an object like { module: import.meta.url, cpuMs: 2000 } (got ${describeValue(isolation)})`];
  }
  const problems = limitProblems("isolation", isolation, EXTENSION_KEYS);
  const module = isolation.module;
  if (module === undefined) problems.push("isolation.module is missing; write isolation: { module: import.meta.url } so a worker can import this extension");
  else if (typeof module !== "string" || !isImportable(module)) {
    problems.push(`isolation.module must be a file: URL or an absolute path (got ${describeValue(module)}); write module: import.meta.url`);
  }
  return problems;
}

function toolProblems(where: string, isolation: unknown, extensionIsolated: boolean): string[] {
  if (isolation === "none") return [];
  if (!isObject(isolation)) return [`${where}: isolation must be "none" or an object like { cpuMs: 5000 } (got ${describeValue(isolation)})`];
  const problems = limitProblems(`${where}: isolation`, isolation, TOOL_KEYS);
  if (!extensionIsolated) {
    problems.push(
      `${where}: asks for isolation, but the extension has none; put isolation on the extension (isolation: { module: import.meta.url }) and isolation: "none" on the tools that stay on the main thread`,
    );
  }
  return problems;
}

/**
 * Every problem with `isolation` on an extension object and its tools, as sentences for EXTENSION_INVALID.
 * @example
 * isolationProblems({ name: "x", isolation: "worker" }) // ['isolation is "worker" but names no module; …']
 */
export function isolationProblems(extension: Fields): string[] {
  const problems = extension.isolation === undefined ? [] : extensionProblems(extension.isolation);
  const tools = Array.isArray(extension.tools) ? extension.tools : [];
  tools.forEach((tool: unknown, index) => {
    if (!isObject(tool) || tool.isolation === undefined) return;
    const where = typeof tool.name === "string" && tool.name.length > 0 ? `tools[${index}] (${JSON.stringify(tool.name)})` : `tools[${index}]`;
    problems.push(...toolProblems(where, tool.isolation, extension.isolation !== undefined));
  });
  return problems;
}
