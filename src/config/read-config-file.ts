/**
 * Finds and reads the configuration file through cosmiconfig 9 (config-explorer.ts): the first search place in the
 * project folder that exists and is not empty — after what the folder's meta configuration says (meta-config.ts) —
 * or the one `--config` names. Only the project folder is read: never its parents, the home folder or the folder
 * the command was started in, so a configuration lying elsewhere can never take effect. Whatever goes wrong becomes
 * problems, with the file and (for YAML and JSON) the line and column.
 */
import { readdir } from "node:fs/promises";
import { extname, join, resolve } from "node:path";
import type { PublicExplorer } from "cosmiconfig";
import { ConfigFileError } from "./config-file-error.js";
import { configExplorer } from "./config-explorer.js";
import { checkMetaConfig, LOADABLE_EXTENSIONS, type MetaConfig } from "./meta-config.js";
import type { PathProblem } from "./problems.js";

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
  if (!LOADABLE_EXTENSIONS.includes(ext)) return `${file}: mcp-host cannot read ${JSON.stringify(ext)} files; use .yaml, .yml, .json, .js, .mjs or .cjs`;
  return undefined;
}

function readFailure(file: string, error: unknown): ReadConfig {
  if (error instanceof ConfigFileError) return { raw: undefined, source: file, problems: error.problems };
  const failed = error as { code?: unknown; filepath?: unknown; path?: unknown } | null;
  const where = typeof failed?.filepath === "string" ? failed.filepath : typeof failed?.path === "string" ? failed.path : file;
  const code = failed?.code;
  if (code === "ENOENT") return problem(`the config file ${where} does not exist`);
  if (code === "EISDIR") return problem(`${where} is a folder, not a config file`);
  if (code === "EACCES" || code === "EPERM") return problem(`${where} cannot be read (permission denied)`);
  // Never the message: a parser's (cosmiconfig's own, for a meta configuration) quotes the text, which may be a secret.
  const kind = error instanceof Error ? error.name : "an error";
  return problem(`${where} cannot be read${typeof code === "string" ? ` (${code})` : ` (${kind})`}`);
}

/**
 * True when `dir` may hold a configuration: a meta configuration, package.json's `mcp-host` key, or a name of the
 * search's (`.mcp-hostrc*`, `mcp-host.config.*`, `.config/mcp-hostrc*`). Most starts (a desktop client's stdio
 * server) have none, and are spared loading cosmiconfig; the search itself is cosmiconfig's.
 */
async function mayHoldConfig(dir: string): Promise<boolean> {
  const names = async (folder: string) => readdir(folder).catch(() => [] as string[]);
  const here = await names(dir);
  if (here.some((name) => name.startsWith(".mcp-hostrc") || name.startsWith("mcp-host.config."))) return true;
  return here.includes(".config") && (await names(join(dir, ".config"))).some((name) => name.startsWith("mcp-hostrc"));
}

/** What a meta configuration with problems reads as. */
function refusedMeta(meta: MetaConfig): ReadConfig {
  return { raw: undefined, ...(meta.file === undefined ? {} : { source: meta.file }), problems: meta.problems };
}

/** Runs `use` with a new explorer of `dir`; a problem when cosmiconfig refuses to make one, or `use` fails. */
async function explore(dir: string, meta: MetaConfig, where: string, use: (explorer: PublicExplorer) => Promise<ReadConfig>): Promise<ReadConfig> {
  let explorer: PublicExplorer;
  try {
    explorer = configExplorer(dir);
  } catch (error) {
    return readFailure(meta.file ?? dir, error);
  }
  try {
    return await use(explorer);
  } catch (error) {
    return readFailure(where, error);
  }
}

async function readNamed(dir: string, file: string): Promise<ReadConfig> {
  const refused = explicitFileProblem(file);
  if (refused !== undefined) return problem(refused);
  // cosmiconfig reads the project folder's meta configuration whenever an explorer is made: it is checked first.
  const meta = await checkMetaConfig(dir);
  if (meta.problems.length > 0) return refusedMeta(meta);
  return explore(dir, meta, file, async (explorer) => {
    const result = await explorer.load(file);
    if (result === null) return problem(`${file} has no "mcp-host" key`);
    return { raw: result.config, source: result.filepath, problems: [] };
  });
}

async function search(dir: string): Promise<ReadConfig> {
  const meta = await checkMetaConfig(dir);
  if (meta.problems.length > 0) return refusedMeta(meta);
  if (meta.file === undefined && !meta.packageKey && !(await mayHoldConfig(dir))) return { raw: undefined, problems: [] };
  return explore(dir, meta, dir, async (explorer) => {
    const result = await explorer.search(dir);
    if (result === null || result.isEmpty === true) return { raw: undefined, problems: [] };
    return { raw: result.config, source: result.filepath, problems: [] };
  });
}

/**
 * Reads the configuration: `file` (relative to `cwd`) when given, else the search of the project folder `cwd`.
 * @example
 * const { raw, source, problems } = await readConfigFile({ cwd: "/srv/app" });
 */
export async function readConfigFile(options: { cwd: string; file?: string }): Promise<ReadConfig> {
  const dir = resolve(options.cwd);
  return options.file === undefined ? search(dir) : readNamed(dir, resolve(dir, options.file));
}
