/**
 * Loading (docs/design.md §5, step two of three): imports each discovered module and turns what it exports — an
 * extension, an array of them, or a factory given its options — into validated extension objects. Each failure is
 * logged and returned with its package and path, and costs only that entry; registering is the host's step.
 */
import { existsSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { pathToFileURL } from "node:url";
import { compareNames } from "../../compare.js";
import { McpHostError, isMcpHostError, messageOf } from "../../errors.js";
import type { McpHostErrorCode } from "../../errors.js";
import { createLogger } from "../../logger.js";
import type { Logger } from "../../logger.js";
import type { McpExtension } from "../../extension/types.js";
import { isExtensionLike, validateExtension } from "../../extension/validate.js";
import type { DiscoveredExtension, ExtensionLoadFailure } from "./discover.js";
import { defined } from "../../defined.js";

export type { ExtensionLoadFailure } from "./discover.js";

/** An extension that loaded and passed the shape check, with where it came from. */
export interface LoadedExtension {
  extension: McpExtension;
  source: string;
  packageName: string;
  packageVersion?: string;
}

/** What loading gives: the extensions (sorted by name, then source) and the failures (sorted likewise). */
export interface LoadResult {
  extensions: LoadedExtension[];
  failures: ExtensionLoadFailure[];
}

/** Options for `loadDiscovered`. */
export interface LoadDiscoveredOptions {
  /** Options per extension (`extensions.options` in the config), looked up by declared name, then package name. */
  options?: Record<string, Record<string, unknown>>;
  /** Where failures are logged (default: stderr). */
  logger?: Logger;
  /**
   * Imports each module afresh under this version (a `?mcp-host-dev=<version>` query on its URL), so a changed
   * file is read again — what `mcp-host dev` does on every change.
   */
  version?: number;
}

/** One value a module handed over, with a label that says where in the module it came from. */
interface Exported {
  label: string;
  value: unknown;
  inArray: boolean;
  /** Made by a factory: a worker importing the module could not get it back (so isolation gets no default module). */
  fromFactory?: boolean;
}

/** Why one entry failed, before it becomes an McpHostError naming the package and path. */
class EntryFailure extends Error {
  constructor(
    readonly code: McpHostErrorCode,
    readonly reason: string,
    readonly fix: string,
    readonly original?: unknown,
  ) {
    super(reason);
  }
}

/** The query parameter that versions a module's URL for a fresh import (see `mcp-host dev`). */
export const DEV_VERSION_PARAM = "mcp-host-dev";

const FIX_MODULE = "fix the module (the error's cause has the stack), or remove it from the package's mcpExtensions field";

function exportsOf(module: Record<string, unknown>): Exported[] {
  if (module.default !== undefined) return [{ label: "default export", value: module.default, inArray: false }];
  const named = (["extension", "extensions"] as const).filter((key) => module[key] !== undefined);
  if (named.length === 0) {
    const fix = 'give it a default export (export default defineExtension({ name: "…", … })), or a named export "extension" or "extensions"';
    throw new EntryFailure("EXTENSION_INVALID", "the module exports no extension", fix);
  }
  return named.map((key) => ({ label: `export "${key}"`, value: module[key], inArray: false }));
}

/** Calls a factory with the entry's options; flattens arrays into one value per extension. */
async function unfold(exported: Exported, options: Record<string, unknown>): Promise<Exported[]> {
  let { label, value } = exported;
  if (typeof value === "function") {
    try {
      value = await (value as (options: Record<string, unknown>) => unknown)(options);
    } catch (error) {
      throw new EntryFailure(
        "EXTENSION_LOAD_FAILED",
        `the factory (${label}) threw: ${messageOf(error)}`,
        "fix the factory, or check the options given to this extension",
        error,
      );
    }
    label = `${label} (factory result)`;
    if (typeof value === "function")
      throw new EntryFailure("EXTENSION_INVALID", `${label} is a function`, "a factory must return an extension or an array of extensions");
  }
  const fromFactory = typeof exported.value === "function";
  if (!Array.isArray(value)) return [{ label, value, inArray: false, fromFactory }];
  return value.map((item, index) => ({ label: `${label}[${index}]`, value: item, inArray: true, fromFactory }));
}

/**
 * Isolation that names no module gets the entry the extension was imported from (a worker imports it again to find
 * the tools) — unless a factory made the extension, which a worker could not do again.
 */
function isolationWithModule(isolation: unknown, entry: string): Record<string, unknown> | undefined {
  if (isolation === "worker") return { module: pathToFileURL(entry).href };
  if (typeof isolation !== "object" || isolation === null || Array.isArray(isolation)) return undefined;
  if ((isolation as { module?: unknown }).module !== undefined) return undefined;
  return { ...isolation, module: pathToFileURL(entry).href };
}

/**
 * Skill paths are the package's (docs/skills.md): a relative one is resolved against the package's folder here, so
 * the host reads the same folder wherever the package is installed. Undefined when nothing needs resolving.
 */
function skillsInPackage(skills: unknown, packageDir: string): unknown[] | undefined {
  if (!Array.isArray(skills)) return undefined;
  const relative = (item: unknown) => {
    const path = (item as { path?: unknown } | null)?.path;
    return typeof path === "string" && path.length > 0 && !path.startsWith("file:") && !isAbsolute(path);
  };
  if (!skills.some(relative)) return undefined;
  return skills.map((item) => (relative(item) ? { ...(item as object), path: join(packageDir, (item as { path: string }).path) } : item));
}

/**
 * Gives a nameless extension its default name, a missing version the package's, isolation without a module the
 * entry's, and relative skill paths the package's folder, without touching the export.
 */
function withDefaults(value: Record<string, unknown>, found: DiscoveredExtension, exported: Exported): Record<string, unknown> {
  const name = found.declaredName ?? found.packageName;
  const version = found.packageVersion;
  const additions: Record<string, unknown> = {};
  if (value.name === undefined && name !== undefined) additions.name = name;
  if (value.version === undefined && version !== undefined) additions.version = version;
  const isolation = exported.fromFactory ? undefined : isolationWithModule(value.isolation, found.entry);
  if (isolation !== undefined) additions.isolation = isolation;
  const skills = skillsInPackage(value.skills, found.packageDir);
  if (skills !== undefined) additions.skills = skills;
  if (Object.keys(additions).length === 0) return value;
  return Object.assign(Object.create(Object.getPrototypeOf(value) as object | null) as Record<string, unknown>, value, additions);
}

function toExtension(found: DiscoveredExtension, exported: Exported): McpExtension {
  const { value, label, inArray } = exported;
  const where = `${found.source}, ${label}`;
  const fallbackName = found.declaredName ?? found.packageName;
  const isObject = typeof value === "object" && value !== null && !Array.isArray(value);
  if (isObject && (value as { name?: unknown }).name === undefined) {
    if (!isExtensionLike(value)) {
      throw new McpHostError(
        "EXTENSION_INVALID",
        `${where}: is an object with none of the extension fields (name, toolsets, tools, resources, prompts, toolExtensions, setup…); export an extension made with defineExtension({ name: "…", … }).`,
        { extension: fallbackName },
      );
    }
    if (inArray) {
      throw new McpHostError(
        "EXTENSION_INVALID",
        `${where}: has no name; every extension in an array needs its own name (only a single exported extension takes its default name from the package). Add name: "…".`,
        { extension: fallbackName },
      );
    }
  }
  const completed = isObject ? withDefaults(value as Record<string, unknown>, found, exported) : value;
  return validateExtension(completed, where);
}

function failure(found: DiscoveredExtension, name: string, error: unknown): ExtensionLoadFailure {
  // EntryFailure is checked first: it carries a code too, so it would pass for an McpHostError.
  if (!(error instanceof EntryFailure) && isMcpHostError(error)) return { name, source: found.source, error };
  const reason = error instanceof EntryFailure ? error : new EntryFailure("EXTENSION_LOAD_FAILED", `loading failed: ${messageOf(error)}`, FIX_MODULE, error);
  // Only an error the extension itself threw is wrapped with `[extension <name>]` (CONVENTIONS: wrapped once).
  const prefix = reason.original === undefined ? "" : `[extension ${name}] `;
  const message = `${prefix}${found.source}: ${reason.reason}; ${reason.fix}.`;
  const details = reason.original === undefined ? { extension: name } : { extension: name, cause: reason.original };
  return { name, source: found.source, error: new McpHostError(reason.code, message, details) };
}

async function importEntry(found: DiscoveredExtension, version: number | undefined): Promise<Record<string, unknown>> {
  if (!existsSync(found.entry)) {
    throw new EntryFailure(
      "EXTENSION_LOAD_FAILED",
      `the file ${found.entry} does not exist`,
      "build the package (e.g. npm run build), or fix the path in its mcpExtensions field",
    );
  }
  try {
    const url = pathToFileURL(found.entry).href + (version === undefined ? "" : `?${DEV_VERSION_PARAM}=${version}`);
    return (await import(url)) as Record<string, unknown>;
  } catch (error) {
    throw new EntryFailure("EXTENSION_LOAD_FAILED", `importing ${found.entry} failed: ${messageOf(error)}`, FIX_MODULE, error);
  }
}

async function loadEntry(found: DiscoveredExtension, options: Record<string, unknown>, result: LoadResult, version: number | undefined): Promise<void> {
  const guess = found.declaredName ?? found.packageName;
  let values: Exported[];
  try {
    const module = await importEntry(found, version);
    values = [];
    for (const exported of exportsOf(module)) values.push(...(await unfold(exported, options)));
  } catch (error) {
    result.failures.push(failure(found, guess, error));
    return;
  }
  for (const exported of values) {
    try {
      const extension = toExtension(found, exported);
      result.extensions.push({
        extension,
        source: found.source,
        packageName: found.packageName,
        ...defined({ packageVersion: found.packageVersion }),
      });
    } catch (error) {
      const own = (exported.value as { name?: unknown } | null)?.name;
      result.failures.push(failure(found, typeof own === "string" && own.length > 0 ? own : guess, error));
    }
  }
}

function optionsFor(entry: DiscoveredExtension, all: Record<string, Record<string, unknown>> | undefined): Record<string, unknown> {
  if (all === undefined) return {};
  if (entry.declaredName !== undefined && all[entry.declaredName] !== undefined) return all[entry.declaredName];
  return all[entry.packageName] ?? {};
}

/**
 * Sorts a load result: extensions by name then source, failures by name then source.
 * @example
 * const sorted = sortLoadResult({ extensions, failures });
 */
export function sortLoadResult(result: LoadResult): LoadResult {
  return {
    extensions: [...result.extensions].sort((a, b) => compareNames(a.extension.name, b.extension.name) || compareNames(a.source, b.source)),
    failures: [...result.failures].sort((a, b) => compareNames(a.name, b.name) || compareNames(a.source, b.source)),
  };
}

/**
 * Imports and validates discovered modules, one at a time in the given order. The default export (or else the
 * named `extension` / `extensions` exports) may be an extension, an array, or a factory `(options) => …`; an
 * extension without a name takes the declared name or the package name, and a missing version the package's.
 * A failed import, a throwing factory (`EXTENSION_LOAD_FAILED`) or a wrong shape (`EXTENSION_INVALID`) is logged,
 * returned in `failures` with the package and path, and costs only that entry (or that element of an array).
 * @example
 * const { found } = await discoverExtensions({ cwd });
 * const { extensions, failures } = await loadDiscovered(found, { options: { clock: { zone: "UTC" } } });
 */
export async function loadDiscovered(found: readonly DiscoveredExtension[], options: LoadDiscoveredOptions = {}): Promise<LoadResult> {
  const logger = options.logger ?? createLogger({ prefix: ["mcp-host"] });
  const result: LoadResult = { extensions: [], failures: [] };
  for (const entry of found) {
    const entryOptions = optionsFor(entry, options.options);
    const before = result.failures.length;
    await loadEntry(entry, entryOptions, result, options.version);
    for (const failed of result.failures.slice(before)) logger.error(failed.error.message, { code: failed.error.code, source: failed.source });
  }
  for (const loaded of result.extensions) logger.debug(`loaded extension "${loaded.extension.name}" from ${loaded.source}`);
  return sortLoadResult(result);
}
