/**
 * Finds and reads the configuration file: the first of SEARCH_PLACES in the given folder that exists and is not
 * empty, or the one `--config` names. Only that folder is read — never its parents, never the working folder — so
 * a config lying elsewhere can never take effect. mcp-host reads these files itself rather than through
 * cosmiconfig (docs/design.md §12 says why); the loaders are parse-text.ts and load-js.ts, and whatever goes wrong
 * becomes problems.
 */
import { readFile } from "node:fs/promises";
import { basename, extname, join, resolve } from "node:path";
import { ConfigFileError } from "./config-file-error.js";
import { loadJsFile } from "./load-js.js";
import { loadJsonText, loadYamlText } from "./parse-text.js";
import type { PathProblem } from "./problems.js";
import { isRecord } from "./schema-parts.js";

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

type Loader = (file: string, content: string) => unknown;

const js: Loader = (file) => loadJsFile(file);
/** By extension; a file without one (`.mcp-hostrc`) is YAML, which JSON also is. */
const LOADERS: Record<string, Loader> = {
  ".json": loadJsonText,
  ".yaml": loadYamlText,
  ".yml": loadYamlText,
  "": loadYamlText,
  ".js": js,
  ".mjs": js,
  ".cjs": js,
};

/** What an entry of the search that cannot be read as a file means: nothing there (as cosmiconfig 9 treated it). */
const NOT_A_FILE = new Set(["ENOENT", "ENOTDIR", "EISDIR", "EACCES"]);

/** A package.json without an "mcp-host" key: passed over by the search, a problem when named. */
const NO_KEY = Symbol("no mcp-host key");

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
    return `${file}: TypeScript config files are not supported (Node 20 cannot run TypeScript, and mcp-host does not compile it); use mcp-host.config.mjs`;
  }
  if (!Object.hasOwn(LOADERS, ext)) return `${file}: mcp-host cannot read ${JSON.stringify(ext)} files; use .yaml, .yml, .json, .js, .mjs or .cjs`;
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

/** The configuration `content` of `file` holds: undefined when empty (or only comments), NO_KEY for such a package.json. */
async function parse(file: string, content: string): Promise<unknown> {
  if (content.trim() === "") return undefined;
  const loaded = await LOADERS[extname(file)]!(file, content);
  if (basename(file) !== "package.json") return loaded;
  const config = isRecord(loaded) ? loaded["mcp-host"] : undefined;
  return config === undefined || config === null ? NO_KEY : config;
}

async function readNamed(file: string): Promise<ReadConfig> {
  const refused = explicitFileProblem(file);
  if (refused !== undefined) return problem(refused);
  let config: unknown;
  try {
    config = await parse(file, await readFile(file, "utf8"));
  } catch (error) {
    return readFailure(file, error);
  }
  if (config === NO_KEY) return problem(`${file} has no "mcp-host" key`);
  return { raw: config, source: file, problems: [] };
}

async function search(dir: string): Promise<ReadConfig> {
  for (const place of SEARCH_PLACES) {
    const file = join(dir, place);
    let content: string;
    try {
      content = await readFile(file, "utf8");
    } catch (error) {
      if (NOT_A_FILE.has((error as { code?: unknown } | null)?.code as string)) continue;
      return readFailure(file, error);
    }
    let config: unknown;
    try {
      config = await parse(file, content);
    } catch (error) {
      return readFailure(file, error);
    }
    if (config !== undefined && config !== NO_KEY) return { raw: config, source: file, problems: [] };
  }
  return { raw: undefined, problems: [] };
}

/**
 * Reads the configuration: `file` (relative to `cwd`) when given, else the first of SEARCH_PLACES in `cwd`.
 * @example
 * const { raw, source, problems } = await readConfigFile({ cwd: "/srv/app" });
 */
export async function readConfigFile(options: { cwd: string; file?: string }): Promise<ReadConfig> {
  return options.file === undefined ? search(resolve(options.cwd)) : readNamed(resolve(options.cwd, options.file));
}
