/**
 * cosmiconfig's meta configuration, in the project folder only (docs/design.md §12): a `cosmiconfig` key in
 * package.json or package.yaml, or a `.config/config.*` file, which can add search places and hold the configuration
 * itself under an `mcp-host` key. The project folder is the operator's (docs/security.md), so what it says is
 * followed — but only inside that folder. cosmiconfig reads the meta configuration with its own loaders (which quote
 * the text of a syntax error, and run JavaScript without awaiting it); so before an explorer is made, the file it
 * will pick is read here with mcp-host's loaders (positions, no quoted text, a failed import reported) and refused
 * when it points outside the folder: a search place that climbs out, `$import`, or an option other than the two
 * cosmiconfig supports for end users (`searchPlaces`, `mergeSearchPlaces`).
 */
import { readFile } from "node:fs/promises";
import { extname, isAbsolute, join, relative } from "node:path";
import { ConfigFileError, fileProblem } from "./config-file-error.js";
import { loadJsFile } from "./load-js.js";
import { loadJsonText, loadYamlText } from "./parse-text.js";
import type { PathProblem } from "./problems.js";
import { isRecord } from "./schema-parts.js";

/**
 * Where cosmiconfig 9 looks for its meta configuration, in its order (its `metaSearchPlaces`): package.json and
 * package.yaml count only with a `cosmiconfig` key; the first `.config/config.*` that exists is it.
 * @example
 * META_SEARCH_PLACES[2] // ".config/config.json"
 */
export const META_SEARCH_PLACES: readonly string[] = [
  "package.json",
  "package.yaml",
  ".config/config.json",
  ".config/config.yaml",
  ".config/config.yml",
  ".config/config.js",
  ".config/config.ts",
  ".config/config.cjs",
  ".config/config.mjs",
];

/** The extensions mcp-host has a loader for (a search place without one is YAML). */
export const LOADABLE_EXTENSIONS: readonly string[] = ["", ".json", ".yaml", ".yml", ".js", ".cjs", ".mjs"];

/** The options of a meta configuration cosmiconfig supports for end users; any other is refused. */
const META_OPTIONS = new Set(["searchPlaces", "mergeSearchPlaces"]);

/** What the check found. */
export interface MetaConfig {
  /** The meta configuration cosmiconfig will use, if any. */
  file?: string;
  /** Why it cannot be used (each names the file). */
  problems: PathProblem[];
  /** Whether package.json has an `mcp-host` key (so the folder holds a configuration even without other files). */
  packageKey: boolean;
}

/** What an entry that cannot be read as a file means: nothing there (as cosmiconfig treats it). */
const NOT_A_FILE = new Set(["ENOENT", "ENOTDIR", "EISDIR", "EACCES"]);

async function contentOf(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    if (NOT_A_FILE.has((error as { code?: unknown } | null)?.code as string)) return undefined;
    throw error;
  }
}

async function parsed(file: string, content: string): Promise<unknown> {
  if (content.trim() === "") return undefined;
  const ext = extname(file);
  if (ext === ".json") return loadJsonText(file, content);
  if (ext === ".yaml" || ext === ".yml") return loadYamlText(file, content);
  if (ext === ".ts") throw fileProblem(file, "a TypeScript meta configuration is not supported (Node 20 cannot run it); write .config/config.yaml");
  return loadJsFile(file);
}

/** Why a search place the meta configuration adds cannot be used in `dir`, or undefined. */
function placeProblem(dir: string, place: unknown): string | undefined {
  if (typeof place !== "string" || place === "") return `a search place must be a file name, got ${JSON.stringify(place)}`;
  const where = relative(dir, join(dir, place.replaceAll("{name}", "mcp-host")));
  if (where === "" || where.startsWith("..") || isAbsolute(where)) {
    return `the search place ${JSON.stringify(place)} lies outside the project folder ${dir}; a configuration is read from the project folder only`;
  }
  if (!LOADABLE_EXTENSIONS.includes(extname(where)))
    return `mcp-host cannot read ${JSON.stringify(extname(where))} files (search place ${JSON.stringify(place)})`;
  return undefined;
}

/** The problems of the options under the `cosmiconfig` key. */
function optionProblems(file: string, dir: string, options: unknown): PathProblem[] {
  const at = (key: string, message: string): PathProblem => ({ code: "CONFIG_INVALID", path: [], message: `${file}: cosmiconfig.${key}: ${message}` });
  if (options === undefined || options === null) return [];
  if (!isRecord(options)) return [{ code: "CONFIG_INVALID", path: [], message: `${file}: the "cosmiconfig" key must hold an object of options` }];
  const out: PathProblem[] = [];
  for (const key of Object.keys(options).sort()) {
    if (!META_OPTIONS.has(key)) out.push(at(key, "is not followed; a meta configuration may set searchPlaces and mergeSearchPlaces"));
  }
  const places = options.searchPlaces;
  if (places !== undefined && !Array.isArray(places)) out.push(at("searchPlaces", "must be a list of file names"));
  if (Array.isArray(places)) {
    for (const place of places) {
      const problem = placeProblem(dir, place);
      if (problem !== undefined) out.push(at("searchPlaces", problem));
    }
  }
  if (options.mergeSearchPlaces !== undefined && typeof options.mergeSearchPlaces !== "boolean") out.push(at("mergeSearchPlaces", "must be true or false"));
  return out;
}

/**
 * Finds the meta configuration cosmiconfig 9 would use in `dir` and checks it.
 * @example
 * const meta = await checkMetaConfig("/srv/app"); if (meta.problems.length > 0) report(meta.problems);
 */
export async function checkMetaConfig(dir: string): Promise<MetaConfig> {
  let packageKey = false;
  for (const place of META_SEARCH_PLACES) {
    const file = join(dir, place);
    let value: unknown;
    try {
      const content = await contentOf(file);
      if (content === undefined) continue;
      value = await parsed(file, content);
    } catch (error) {
      if (error instanceof ConfigFileError) return { file, problems: error.problems, packageKey };
      const code = (error as { code?: unknown } | null)?.code;
      return {
        file,
        packageKey,
        problems: [{ code: "CONFIG_INVALID", path: [], message: `${file} cannot be read${typeof code === "string" ? ` (${code})` : ""}` }],
      };
    }
    const isPackage = place.startsWith("package.");
    if (place === "package.json") packageKey = isRecord(value) && value["mcp-host"] !== undefined && value["mcp-host"] !== null;
    const options = isRecord(value) ? value.cosmiconfig : undefined;
    // package.json and package.yaml are a meta configuration only with the key; a .config/config.* file always is.
    if (isPackage && (options === undefined || options === null)) continue;
    return { file, problems: optionProblems(file, dir, options), packageKey };
  }
  return { problems: [], packageKey };
}
