/**
 * `loadExtensions` (docs/design.md §5): discovery then loading, what deployments call. It also applies the `names`
 * limit (`--extension a,b`, `MCP_HOST_EXTENSIONS`), importing as little as it can: a name is matched against
 * package and declared names first, and modules are imported to read their own names only when that is needed.
 */
import { McpHostError } from "../../errors.js";
import { createLogger, silentLogger } from "../../logger.js";
import type { Logger } from "../../logger.js";
import { discoverExtensionsDetailed } from "./discover.js";
import type { DiscoveredExtension, ExtensionLoadFailure } from "./discover.js";
import { loadDiscovered, sortLoadResult } from "./load.js";
import type { LoadResult } from "./load.js";
import { defined } from "../../defined.js";

/** Options for `loadExtensions`. */
export interface LoadExtensionsOptions {
  /** The deployment's project folder (its package.json lists the extensions). */
  cwd: string;
  /** Load only these (see `loadExtensions`); absent or empty: load everything discovered. */
  names?: readonly string[];
  /** Options per extension, by declared name or package name, handed to factories. */
  options?: Record<string, Record<string, unknown>>;
  /** Where failures are logged (default: stderr). */
  logger?: Logger;
}

const NAME_LIST = /[\s,]+/;

/**
 * The `names` limit from the environment: `MCP_HOST_EXTENSIONS`, split on commas and whitespace. Undefined when
 * unset or blank (no limit). Kept apart so the core never reads the environment itself.
 * @example
 * await loadExtensions({ cwd, names: extensionNamesFromEnv(process.env) });
 */
export function extensionNamesFromEnv(env: Readonly<Record<string, string | undefined>>): string[] | undefined {
  const names = (env.MCP_HOST_EXTENSIONS ?? "").split(NAME_LIST).filter((name) => name.length > 0);
  return names.length === 0 ? undefined : names;
}

function namesOfEntry(entry: DiscoveredExtension): string[] {
  return entry.declaredName === undefined ? [entry.packageName] : [entry.declaredName, entry.packageName];
}

function unmatchedFailure(name: string, found: readonly DiscoveredExtension[], loaded: readonly string[]): ExtensionLoadFailure {
  const quote = (names: Iterable<string>) =>
    [...new Set(names)]
      .sort()
      .map((n) => JSON.stringify(n))
      .join(", ") || "none";
  const message =
    `no discovered extension is named ${JSON.stringify(name)} (packages: ${quote(found.map((f) => f.packageName))}; ` +
    `extensions: ${quote(loaded)}); check the spelling in --extension / MCP_HOST_EXTENSIONS, or install the package and list it in package.json dependencies.`;
  return { name, source: "the extension names asked for", error: new McpHostError("EXTENSION_LOAD_FAILED", message, { extension: name }) };
}

/**
 * Finds and loads the project's extensions. Discovery problems are returned as failures too, and every failure
 * is logged. With `names`, what loads is the same as without, narrowed to the extensions that answer to a listed
 * name — by their own name, their declared name or their package name. So every entry is imported (an extension's
 * own name is known only then) and two extensions of one name meet in the result either way, where the host keeps
 * the first by name then source and refuses the other with EXTENSION_NAME_TAKEN (docs/design.md §5). The failures
 * of unlisted entries are reported only when a listed name is declared by no entry (a broken one may be it); a
 * listed name that matches nothing is a failure (`EXTENSION_LOAD_FAILED`) naming it.
 * @example
 * const { extensions, failures } = await loadExtensions({ cwd: process.cwd(), names: ["clock"], options: { clock: { zone: "UTC" } } });
 */
export async function loadExtensions(options: LoadExtensionsOptions): Promise<LoadResult> {
  const logger = options.logger ?? createLogger({ prefix: ["mcp-host"] });
  const { found, failures } = await discoverExtensionsDetailed({ cwd: options.cwd });
  for (const failed of failures) logger.error(failed.error.message, { code: failed.error.code, source: failed.source });
  const loadOptions = { logger, ...defined({ options: options.options }) };
  const wanted = new Set((options.names ?? []).flatMap((name) => name.split(NAME_LIST)).filter((name) => name.length > 0));
  if (wanted.size === 0) {
    const loaded = await loadDiscovered(found, loadOptions);
    return sortLoadResult({ extensions: loaded.extensions, failures: [...failures, ...loaded.failures] });
  }
  const isListed = (entry: DiscoveredExtension) => namesOfEntry(entry).some((name) => wanted.has(name));
  const listed = await loadDiscovered(found.filter(isListed), loadOptions);
  // The others are imported only to read their own names; their failures are kept back until a name goes unmatched.
  const others = await loadDiscovered(
    found.filter((entry) => !isListed(entry)),
    { ...loadOptions, logger: silentLogger },
  );
  const answering = others.extensions.filter((loaded) => wanted.has(loaded.extension.name));
  const extensions = [...listed.extensions, ...answering];
  const allFailures = [...failures, ...listed.failures];
  const byEntry = new Set(found.filter(isListed).flatMap(namesOfEntry));
  // A listed name no entry declares could be any entry's own name, so one that failed to load may be the one asked for.
  if ([...wanted].some((name) => !byEntry.has(name))) {
    for (const failed of others.failures) logger.error(failed.error.message, { code: failed.error.code, source: failed.source });
    allFailures.push(...others.failures);
  }
  const matched = new Set([...byEntry, ...extensions.map((e) => e.extension.name)]);
  const allNames = [...listed.extensions, ...others.extensions].map((e) => e.extension.name);
  for (const name of [...wanted].filter((n) => !matched.has(n)).sort()) {
    const failed = unmatchedFailure(name, found, allNames);
    logger.error(failed.error.message, { code: failed.error.code, source: failed.source });
    allFailures.push(failed);
  }
  return sortLoadResult({ extensions, failures: allFailures });
}
