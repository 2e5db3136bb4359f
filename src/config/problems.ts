/**
 * A configuration problem and the one error that carries all of them. A deployment should see every mistake in its
 * file at once, each on its own line as `CODE  key.path  message`, in key-path order, so fixing is one pass.
 * Messages name keys, never values: a value may be a secret or a URL that carries one.
 */
import { McpHostError, type McpHostErrorCode } from "../errors.js";

/** One thing wrong with a configuration. `path` is the formatted key path (`servers.git.url`, `auth.keys[0]`). */
export interface ConfigProblem {
  code: McpHostErrorCode;
  path: string;
  message: string;
}

/** A key path as segments: object keys and list indexes. */
export type KeyPath = readonly (string | number)[];

/** A problem before it is formatted: the path is still segments, so problems sort like the file reads. */
export interface PathProblem {
  code: McpHostErrorCode;
  path: KeyPath;
  message: string;
}

const BARE_SEGMENT = /^[A-Za-z_$][A-Za-z0-9_$-]*$/;

/**
 * Writes a key path the way a reader finds it in the file.
 * @example
 * formatKeyPath(["servers", "git", "args", 0])    // "servers.git.args[0]"
 * formatKeyPath(["servers", "my.server", "url"])  // 'servers["my.server"].url'
 * formatKeyPath([])                               // "(root)"
 */
export function formatKeyPath(path: KeyPath): string {
  if (path.length === 0) return "(root)";
  let out = "";
  for (const segment of path) {
    if (typeof segment === "number") out += `[${segment}]`;
    else if (BARE_SEGMENT.test(segment)) out += out === "" ? segment : `.${segment}`;
    else out += `[${JSON.stringify(segment.length > 70 ? `${segment.slice(0, 67)}...` : segment)}]`;
  }
  return out;
}

function compareSegments(a: KeyPath, b: KeyPath): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x === y) continue;
    if (typeof x === "number" && typeof y === "number") return x - y;
    if (typeof x === "number") return -1;
    if (typeof y === "number") return 1;
    return x < y ? -1 : 1;
  }
  return a.length - b.length;
}

/**
 * Sorts problems by key path (then code, then message), drops exact duplicates, and formats their paths.
 * @example
 * sortProblems([{ code: "CONFIG_INVALID", path: ["http", "port"], message: "…" }]) // [{ …, path: "http.port" }]
 */
export function sortProblems(problems: readonly PathProblem[]): ConfigProblem[] {
  const sorted = [...problems].sort(
    (a, b) =>
      compareSegments(a.path, b.path) || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0) || (a.message < b.message ? -1 : a.message > b.message ? 1 : 0),
  );
  const out: ConfigProblem[] = [];
  for (const p of sorted) {
    const formatted = { code: p.code, path: formatKeyPath(p.path), message: p.message };
    const last = out[out.length - 1];
    if (last && last.code === formatted.code && last.path === formatted.path && last.message === formatted.message) continue;
    out.push(formatted);
  }
  return out;
}

/**
 * One line per problem: `CODE  key.path  message`.
 * @example
 * formatConfigProblems([{ code: "CONFIG_INVALID", path: "http.prot", message: 'unknown key; did you mean "port"?' }])
 * // 'CONFIG_INVALID  http.prot  unknown key; did you mean "port"?'
 */
export function formatConfigProblems(problems: readonly ConfigProblem[]): string {
  return problems.map((p) => `${p.code}  ${p.path}  ${p.message}`).join("\n");
}

/**
 * The error a bad configuration throws: code `CONFIG_INVALID`, every problem in `problems` and in the message.
 * Match on `code` (and read `problems` when present); `instanceof` breaks across two installed copies.
 * @example
 * try { await loadConfig({ cwd, env }); } catch (e) { if (isMcpHostError(e, "CONFIG_INVALID")) console.error(e.message); }
 */
export class ConfigError extends McpHostError {
  /** Every problem found, sorted by key path. */
  readonly problems: readonly ConfigProblem[];
  /** The file the configuration came from, when there was one. */
  readonly source?: string;

  constructor(problems: readonly ConfigProblem[], options: { source?: string; what?: string } = {}) {
    const what = options.what ?? (options.source === undefined ? "the configuration" : `the configuration in ${options.source}`);
    const count = problems.length === 1 ? "1 problem" : `${problems.length} problems`;
    super("CONFIG_INVALID", `${what} has ${count}:\n${formatConfigProblems(problems)}`);
    this.name = "ConfigError";
    this.problems = problems;
    if (options.source !== undefined) this.source = options.source;
  }

  /** The plain form, with the problems. */
  override toJSON(): ReturnType<McpHostError["toJSON"]> & { problems: ConfigProblem[] } {
    return { ...super.toJSON(), problems: [...this.problems] };
  }
}
