/**
 * `loadExtensions` (docs/design.md §5): discovery then loading, what deployments call. It also applies the `names`
 * limit (`--extension a,b`, `MCP_HOST_EXTENSIONS`), importing as little as it can: a name is matched against
 * package and declared names first, and modules are imported to read their own names only when that is needed.
 */
import { McpHostError } from "../../errors.js";
import { createLogger } from "../../logger.js";
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
 * is logged. With `names`, an entry is kept when its declared name or package name is listed; a listed name that
 * matched no entry that way is then looked for among the extensions' own names, which means importing the
 * remaining entries (their import failures are reported; extensions not named are dropped unused). A name that
 * matches nothing at all is a failure (`EXTENSION_LOAD_FAILED`) naming it.
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
  const byEntry = found.filter((entry) => namesOfEntry(entry).some((name) => wanted.has(name)));
  const first = await loadDiscovered(byEntry, loadOptions);
  const matched = new Set([...byEntry.flatMap(namesOfEntry), ...first.extensions.map((e) => e.extension.name)]);
  const unmatched = [...wanted].filter((name) => !matched.has(name));
  const extensions = [...first.extensions];
  const allFailures = [...failures, ...first.failures];
  if (unmatched.length > 0) {
    const rest = await loadDiscovered(
      found.filter((entry) => !byEntry.includes(entry)),
      loadOptions,
    );
    extensions.push(...rest.extensions.filter((loaded) => unmatched.includes(loaded.extension.name)));
    allFailures.push(...rest.failures);
    const seen = new Set([...matched, ...rest.extensions.map((e) => e.extension.name)]);
    const allNames = [...first.extensions, ...rest.extensions].map((e) => e.extension.name);
    for (const name of unmatched.filter((n) => !seen.has(n)).sort()) {
      const failed = unmatchedFailure(name, found, allNames);
      logger.error(failed.error.message, { code: failed.error.code, source: failed.source });
      allFailures.push(failed);
    }
  }
  return sortLoadResult({ extensions, failures: allFailures });
}
