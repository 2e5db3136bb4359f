/**
 * Finds and reads the configuration file with cosmiconfig 9 (module name `mcp-host`), or reads the one `--config`
 * names. Only the given folder is searched — never its parents — so a config in an unrelated folder above can
 * never take effect. Loaders are ours (see parse-text.ts, load-js.ts); whatever goes wrong becomes problems.
 */
import { existsSync, readFileSync } from "node:fs";
import { extname, join, resolve } from "node:path";
import type { CosmiconfigResult, Loader } from "cosmiconfig";
import { ConfigFileError } from "./config-file-error.js";
import { loadJsFile } from "./load-js.js";
import { loadJsonText, loadYamlText } from "./parse-text.js";
import type { PathProblem } from "./problems.js";

/**
 * Where a configuration is looked for, in this order, in the given folder only; the first found wins.
 * @example
 * SEARCH_PLACES[0] // "package.json" (its "mcp-host" key)
 */
export const SEARCH_PLACES: readonly string[] = [
  "package.json",
  ".mcp-hostrc",
  ".mcp-hostrc.json",
  ".mcp-hostrc.yaml",
  ".mcp-hostrc.yml",
  ".mcp-hostrc.js",
  ".mcp-hostrc.cjs",
  ".mcp-hostrc.mjs",
  "mcp-host.config.js",
  "mcp-host.config.cjs",
  "mcp-host.config.mjs",
  "mcp-host.config.json",
  "mcp-host.config.yaml",
  "mcp-host.config.yml",
];

const js: Loader = (file) => loadJsFile(file);
const LOADERS: Record<string, Loader> = {
  ".json": (file, content) => loadJsonText(file, content),
  ".yaml": (file, content) => loadYamlText(file, content),
  ".yml": (file, content) => loadYamlText(file, content),
  noExt: (file, content) => loadYamlText(file, content),
  ".js": js,
  ".mjs": js,
  ".cjs": js,
};

/** What reading found: the raw configuration (undefined when there is none), its file, and file-level problems. */
export interface ReadConfig {
  raw: unknown;
  source?: string;
  problems: PathProblem[];
}

function problem(message: string): ReadConfig & { problems: [PathProblem] } {
  return { raw: undefined, problems: [{ code: "CONFIG_INVALID", path: [], message }] };
}

function explicitFileProblem(file: string): string | undefined {
  const ext = extname(file);
  if ([".ts", ".mts", ".cts"].includes(ext)) {
    return `${file}: TypeScript config files are not supported (cosmiconfig 9 needs the typescript package to load them, and Node 20 cannot run TypeScript); use mcp-host.config.mjs`;
  }
  if (ext !== "" && !(ext in LOADERS)) return `${file}: mcp-host cannot read ${JSON.stringify(ext)} files; use .yaml, .yml, .json, .js, .mjs or .cjs`;
  return undefined;
}

function readFailure(file: string, error: unknown): ReadConfig {
  if (error instanceof ConfigFileError) return { raw: undefined, source: file, problems: error.problems };
  const code = (error as { code?: unknown } | null)?.code;
  if (code === "ENOENT") return problem(`the config file ${file} does not exist`);
  if (code === "EISDIR") return problem(`${file} is a folder, not a config file`);
  if (code === "EACCES" || code === "EPERM") return problem(`${file} cannot be read (permission denied)`);
  return problem(`${file} cannot be read${typeof code === "string" ? ` (${code})` : ""}`);
}

/** True when `dir` has one of the search places (package.json only with an "mcp-host" key). */
function mayHoldConfig(dir: string): boolean {
  if (SEARCH_PLACES.slice(1).some((place) => existsSync(join(dir, place)))) return true;
  try {
    const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as unknown;
    return typeof pkg === "object" && pkg !== null && "mcp-host" in pkg;
  } catch {
    // No package.json, or one that is not JSON (discovery reports that); a broken one might hold the key: look.
    return existsSync(join(dir, "package.json"));
  }
}

/**
 * Reads the configuration: `file` (relative to `cwd`) when given, else the first of SEARCH_PLACES in `cwd`.
 * @example
 * const { raw, source, problems } = await readConfigFile({ cwd: "/srv/app" });
 */
export async function readConfigFile(options: { cwd: string; file?: string }): Promise<ReadConfig> {
  // Most runs have no config file: look before importing cosmiconfig (a cold start counts every import).
  if (options.file === undefined && !mayHoldConfig(resolve(options.cwd))) return { raw: undefined, problems: [] };
  const { cosmiconfig } = await import("cosmiconfig");
  const explorer = cosmiconfig("mcp-host", { searchPlaces: [...SEARCH_PLACES], searchStrategy: "none", cache: false, loaders: LOADERS });
  const file = options.file === undefined ? undefined : resolve(options.cwd, options.file);
  if (file !== undefined) {
    const refused = explicitFileProblem(file);
    if (refused !== undefined) return problem(refused);
  }
  let result: CosmiconfigResult;
  try {
    result = file === undefined ? await explorer.search(resolve(options.cwd)) : await explorer.load(file);
  } catch (error) {
    const failed = (error as { filepath?: unknown } | null)?.filepath;
    return readFailure(typeof failed === "string" ? failed : (file ?? resolve(options.cwd)), error);
  }
  if (result === null) {
    if (file === undefined) return { raw: undefined, problems: [] };
    return problem(`${file} has no "mcp-host" key`);
  }
  return { raw: result.config, source: result.filepath, problems: [] };
}
