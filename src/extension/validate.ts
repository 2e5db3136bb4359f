/**
 * Checks the shape of an extension object before the host registers it (docs/design.md §4, §5). Extensions arrive
 * from JavaScript packages nobody type-checked against us, so a wrong shape must fail with a message that names
 * where it came from and what to change — never as a TypeError deep inside a build. Schemas are not checked here:
 * the host compiles them per tool and leaves a bad tool out without failing its extension.
 */
import { compareNames } from "../compare.js";
import { describeValue } from "../describe-value.js";
import { McpHostError } from "../errors.js";
import { toolsetNameProblem } from "./toolset-name.js";
import { isolationProblems } from "./validate-isolation.js";
import { taskProblems } from "./validate-tasks.js";
import type { McpExtension } from "./types.js";
import { defined } from "../defined.js";

type Fields = Record<string, unknown>;

const CONTRIBUTION_ARRAYS = ["toolsets", "tools", "resources", "resourceTemplates", "prompts", "skills", "toolExtensions"] as const;
const HOOKS = ["setup", "onServer", "dispose"] as const;

function isObject(value: unknown): value is Fields {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isName(value: unknown): value is string {
  return typeof value === "string" && value.trim().length > 0;
}

/** Collects every problem of one extension, so its author fixes them in one round. */
class Problems {
  readonly list: string[] = [];
  add(where: string, what: string, value: unknown, fix: string): void {
    this.list.push(`${where} ${what} (got ${describeValue(value)}); ${fix}`);
  }
  name(where: string, item: Fields, key: string, example: string): void {
    if (!isName(item[key])) this.add(`${where}:`, `${key} must be a non-empty string`, item[key], `e.g. ${key}: ${example}`);
  }
  /** The `toolset` a contribution names, when it names one, must be writable in a URL selection. */
  toolset(where: string, item: Fields): void {
    if (item.toolset === undefined) return;
    if (!isName(item.toolset)) {
      this.add(`${where}:`, "toolset must be a non-empty string when present", item.toolset, "name a toolset, or leave toolset out");
      return;
    }
    const problem = toolsetNameProblem(item.toolset);
    if (problem) this.list.push(`${where}: ${problem}`);
  }
  fn(where: string, item: Fields, key: string, example: string, required: boolean): void {
    const value = item[key];
    if ((required || value !== undefined) && typeof value !== "function") {
      this.add(`${where}:`, `${key} must be a function`, value, `e.g. ${key}: ${example}`);
    }
  }
}

type ItemCheck = (problems: Problems, where: string, item: Fields) => void;

const ITEM_CHECKS: Record<(typeof CONTRIBUTION_ARRAYS)[number], ItemCheck> = {
  toolsets: (p, where, item) => {
    p.name(where, item, "name", '"search"');
    const problem = isName(item.name) ? toolsetNameProblem(item.name) : undefined;
    if (problem) p.list.push(`${where}: ${problem}`);
    for (const flag of ["default", "always"]) {
      if (item[flag] !== undefined && typeof item[flag] !== "boolean") p.add(`${where}:`, `${flag} must be true or false`, item[flag], `write ${flag}: true`);
    }
  },
  tools: (p, where, item) => {
    p.name(where, item, "name", '"search"');
    p.fn(where, item, "handler", '(args, ctx) => ({ content: [{ type: "text", text: "…" }] })', true);
    p.toolset(where, item);
    p.list.push(...taskProblems(where, item));
  },
  resources: (p, where, item) => {
    p.name(where, item, "uri", '"notes://readme"');
    p.name(where, item, "name", '"readme"');
    p.fn(where, item, "read", "(ctx) => ({ contents: [...] })", true);
    p.toolset(where, item);
  },
  resourceTemplates: (p, where, item) => {
    p.name(where, item, "uriTemplate", '"notes://{id}"');
    p.name(where, item, "name", '"note"');
    p.fn(where, item, "read", "(uri, variables, ctx) => ({ contents: [...] })", true);
    p.fn(where, item, "list", "(ctx) => [...]", false);
    p.toolset(where, item);
  },
  prompts: (p, where, item) => {
    p.name(where, item, "name", '"summarise"');
    p.fn(where, item, "get", "(args, ctx) => ({ messages: [...] })", true);
    if (item.arguments !== undefined && !Array.isArray(item.arguments))
      p.add(`${where}:`, "arguments must be an array when present", item.arguments, 'write arguments: [{ name: "topic" }]');
    p.toolset(where, item);
  },
  skills: (p, where, item) => {
    const path = item.path;
    if (!(path instanceof URL) && !isName(path))
      p.add(`${where}:`, "path must be a folder (a non-empty string or a file: URL)", path, 'e.g. path: "./skills/search"');
    p.toolset(where, item);
    const tools = item.tools;
    if (tools !== undefined && (!Array.isArray(tools) || tools.some((tool) => !isName(tool))))
      p.add(`${where}:`, "tools must be a list of tool names when present", tools, 'write tools: ["search"] or leave it out');
  },
  toolExtensions: (p, where, item) => {
    p.name(where, item, "tool", '"search" (the name of the tool to change)');
    p.fn(where, item, "wrap", "(next) => (args, ctx) => next(args, ctx)", false);
  },
};

function label(field: string, index: number, item: unknown): string {
  const name = isObject(item) ? (item.name ?? item.uri ?? item.uriTemplate ?? item.tool ?? (typeof item.path === "string" ? item.path : undefined)) : undefined;
  return typeof name === "string" && name.length > 0 ? `${field}[${index}] (${JSON.stringify(name)})` : `${field}[${index}]`;
}

function checkContributions(p: Problems, extension: Fields): void {
  for (const field of CONTRIBUTION_ARRAYS) {
    const value = extension[field];
    if (value === undefined) continue;
    if (!Array.isArray(value)) {
      p.add(`${field}`, "must be an array when present", value, `write ${field}: [ … ] or leave it out`);
      continue;
    }
    value.forEach((item, index) => {
      const where = label(field, index, item);
      if (isObject(item)) ITEM_CHECKS[field](p, where, item);
      else p.add(where, "must be an object", item, `remove it, or make it an object like the others in ${field}`);
    });
  }
}

function checkScalarsAndHooks(p: Problems, extension: Fields): void {
  for (const key of ["version", "description"]) {
    if (extension[key] !== undefined && typeof extension[key] !== "string")
      p.add(key, "must be a string when present", extension[key], `write ${key}: "…" or leave it out`);
  }
  const timeout = extension.setupTimeoutMs;
  if (timeout !== undefined && (typeof timeout !== "number" || !Number.isFinite(timeout) || timeout <= 0)) {
    p.add("setupTimeoutMs", "must be a positive number of milliseconds when present", timeout, "write setupTimeoutMs: 30000 or leave it out");
  }
  const activation = extension.activation;
  if (activation !== undefined && activation !== "eager" && activation !== "onToolset") {
    p.add("activation", 'must be "eager" or "onToolset"', activation, 'write activation: "onToolset" to set up on first use, or leave it out');
  }
  for (const hook of HOOKS) {
    if (extension[hook] !== undefined && typeof extension[hook] !== "function")
      p.add(hook, "must be a function when present", extension[hook], `write ${hook}() { … } or leave it out`);
  }
  const strategies = extension.authStrategies;
  if (strategies === undefined) return;
  if (!isObject(strategies)) {
    p.add(
      "authStrategies",
      "must be an object of kind → function when present",
      strategies,
      "write authStrategies: { myKind: (settings) => ({ headers: () => ({}) }) }",
    );
    return;
  }
  for (const [kind, strategy] of Object.entries(strategies).sort(([a], [b]) => compareNames(a, b))) {
    if (typeof strategy !== "function") p.add(`authStrategies.${kind}`, "must be a function", strategy, "write (settings) => ({ headers: () => ({ … }) })");
  }
}

/** An extension that declares no toolset gets one named after itself (docs/design.md §4 rule 3): then its name is a toolset name. */
function checkHomeToolset(p: Problems, extension: Fields): void {
  const declared = extension.toolsets;
  if (Array.isArray(declared) && declared.length > 0) return;
  if (!isName(extension.name)) return;
  const problem = toolsetNameProblem(extension.name);
  if (problem) p.list.push(`name: it declares no toolsets, so its name is also its toolset's name, and ${problem}; rename it or declare a toolset`);
}

function notAnObject(value: unknown, source: string): McpHostError {
  const hint =
    typeof value === "function"
      ? "a factory is called only when it is a module's export; pass the extension object it returns"
      : Array.isArray(value)
        ? "pass each extension of the array on its own"
        : 'export an object like defineExtension({ name: "my-extension", tools: [ … ] })';
  return new McpHostError("EXTENSION_INVALID", `${source}: expected an extension object, got ${describeValue(value)}; ${hint}.`);
}

/**
 * Checks an extension object's shape and returns it, typed. Throws `EXTENSION_INVALID` naming `source` (e.g.
 * `package "foo" (./dist/ext.js)` or `buildHost() argument #2`), listing every problem and how to fix it.
 * Tool schemas are not checked here.
 * @example
 * const extension = validateExtension(module.default, 'package "clock" (./dist/extension.js)');
 */
export function validateExtension(value: unknown, source: string): McpExtension {
  if (!isObject(value)) throw notAnObject(value, source);
  const p = new Problems();
  if (!isName(value.name)) p.add("name", "must be a non-empty string", value.name, 'give the extension a name, e.g. name: "my-extension"');
  checkScalarsAndHooks(p, value);
  checkContributions(p, value);
  checkHomeToolset(p, value);
  p.list.push(...isolationProblems(value));
  if (p.list.length === 0) return value as unknown as McpExtension;
  const name = isName(value.name) ? value.name : undefined;
  const who = name === undefined ? "the extension" : `extension ${JSON.stringify(name)}`;
  return throwInvalid(source, who, p.list, name);
}

function throwInvalid(source: string, who: string, problems: string[], name: string | undefined): never {
  const count = problems.length === 1 ? "a problem" : `${problems.length} problems`;
  throw new McpHostError("EXTENSION_INVALID", `${source}: ${who} has ${count}: ${problems.join("; ")}.`, defined({ extension: name }));
}

/**
 * True for a value that looks like an extension object (not a factory, not an array): an object with a string
 * `name`, or with any contribution array or hook. Loading uses it to tell what a module exported.
 * @example
 * isExtensionLike({ tools: [] }) // true
 * isExtensionLike(() => ({}))    // false: a factory
 */
export function isExtensionLike(value: unknown): boolean {
  if (!isObject(value)) return false;
  if (typeof value.name === "string") return true;
  return [...CONTRIBUTION_ARRAYS, ...HOOKS, "authStrategies", "activation", "isolation"].some((key) => value[key] !== undefined);
}
