/**
 * Parses the mcp-host command line into a plain settings object. Unknown options and bad values are a
 * CLI_USAGE error that says what was wrong and points at --help; nothing is guessed.
 */
import { parseArgs } from "node:util";
import { McpHostError } from "../errors.js";

export type Command = "serve" | "toolsets" | "stdio" | "help" | "version";

export interface CliSettings {
  command: Command;
  /** Selection in the URL grammar (`only=a,b`), for `toolsets` and `stdio`, or the serve default. */
  selection?: string;
  port?: number;
  host?: string;
  path?: string;
  extensions?: string[];
  cwd: string;
  json: boolean;
  logLevel?: "debug" | "info" | "warn" | "error";
  legacy?: "stateful" | "stateless" | "reject";
  strict: boolean;
  allowedHosts?: string[];
  allowedOrigins?: string[];
  cors?: string[];
}

const COMMANDS = new Set<Command>(["serve", "toolsets", "stdio", "help", "version"]);

function list(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const parts = value.split(/[\s,]+/).filter(Boolean);
  return parts.length > 0 ? parts : undefined;
}

function port(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new McpHostError("CLI_USAGE", `--port must be a whole number from 0 to 65535, got "${value}"`);
  return n;
}

function oneOf<T extends string>(flag: string, value: string | undefined, allowed: readonly T[]): T | undefined {
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value)) throw new McpHostError("CLI_USAGE", `${flag} must be one of ${allowed.join(", ")}, got "${value}"`);
  return value as T;
}

/** Every option the command knows (node's parseArgs refuses any other). */
const OPTIONS = {
  port: { type: "string", short: "p" },
  host: { type: "string" },
  path: { type: "string" },
  extension: { type: "string", short: "e", multiple: true },
  cwd: { type: "string" },
  json: { type: "boolean" },
  "log-level": { type: "string" },
  legacy: { type: "string" },
  strict: { type: "boolean" },
  "allowed-hosts": { type: "string" },
  "allowed-origins": { type: "string" },
  cors: { type: "string" },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean", short: "v" },
} as const;

function parse(argv: readonly string[]) {
  try {
    return parseArgs({ args: [...argv], allowPositionals: true, strict: true, options: OPTIONS });
  } catch (error) {
    // node's parseArgs messages can span lines and end with a period; a usage error is one line on stderr.
    const message = (error as Error).message.replace(/\s*\n\s*/g, " ").replace(/\.$/, "");
    throw new McpHostError("CLI_USAGE", `${message}. Run "mcp-host --help" for the options.`);
  }
}

/**
 * @example
 * parseCli(["serve", "--port", "0", "--extension", "time"]) // { command: "serve", port: 0, extensions: ["time"], … }
 */
export function parseCli(argv: readonly string[], cwd: string): CliSettings {
  const { values, positionals } = parse(argv);
  const first = positionals[0];
  if (values.version) return { command: "version", cwd, json: false, strict: false };
  if (values.help || first === undefined || first === "help") return { command: "help", cwd, json: false, strict: false };
  if (!COMMANDS.has(first as Command))
    throw new McpHostError("CLI_USAGE", `unknown command "${first}"; the commands are serve, toolsets, stdio. Run "mcp-host --help".`);
  if (positionals.length > 2)
    throw new McpHostError(
      "CLI_USAGE",
      `too many arguments: ${positionals.slice(2).join(" ")}. Quote a selection with "&" in it: mcp-host ${first} "only=a&without=b"`,
    );
  const extensions = (values.extension ?? []).flatMap((e) => list(e) ?? []);
  const settings: CliSettings = {
    command: first as Command,
    cwd: values.cwd ?? cwd,
    json: values.json ?? false,
    strict: values.strict ?? false,
    ...(positionals[1] === undefined ? {} : { selection: positionals[1].replace(/^\?/, "") }),
    ...(values.port === undefined ? {} : { port: port(values.port)! }),
    ...(values.host === undefined ? {} : { host: values.host }),
    ...(values.path === undefined ? {} : { path: values.path.startsWith("/") ? values.path : `/${values.path}` }),
    ...(extensions.length > 0 ? { extensions } : {}),
  };
  const logLevel = oneOf("--log-level", values["log-level"], ["debug", "info", "warn", "error"] as const);
  if (logLevel) settings.logLevel = logLevel;
  const legacy = oneOf("--legacy", values.legacy, ["stateful", "stateless", "reject"] as const);
  if (legacy) settings.legacy = legacy;
  const allowedHosts = list(values["allowed-hosts"]);
  if (allowedHosts) settings.allowedHosts = allowedHosts;
  const allowedOrigins = list(values["allowed-origins"]);
  if (allowedOrigins) settings.allowedOrigins = allowedOrigins;
  const corsOrigins = list(values.cors);
  if (corsOrigins) settings.cors = corsOrigins;
  return settings;
}

export const HELP = `mcp-host — serve MCP extensions, selected by URL

Usage:
  mcp-host serve    [SELECTION] [--port N] [--host H] [--path /mcp] [--extension a,b]
  mcp-host toolsets [SELECTION] [--json] [--extension a,b]
  mcp-host stdio    [SELECTION] [--extension a,b]
  mcp-host --help | --version

SELECTION uses the URL grammar: "only=time,text", "toolsets=units", "without=text".
For serve it is the default selection applied when a URL names nothing.

Options:
  -p, --port N             port to listen on (default 3000; 0 picks a free one)
      --host H             interface to bind (default 127.0.0.1)
      --path P             MCP endpoint path (default /mcp)
  -e, --extension a,b      load only these extensions (also MCP_HOST_EXTENSIONS)
      --cwd DIR            the project whose package.json lists the extensions (default: .)
      --json               toolsets: print JSON instead of a table
      --legacy MODE        2025-era clients: stateful (default), stateless, reject
      --strict             refuse toolset names nobody declared (400)
      --allowed-hosts a,b  Host names accepted besides loopback
      --allowed-origins o  Origins accepted besides loopback
      --cors o1,o2         enable CORS for these origins ("*" for any)
      --log-level L        debug, info (default), warn, error
  -h, --help               this help
  -v, --version            the version

Endpoints while serving: POST/GET/DELETE {path}, GET /toolsets[?SELECTION], GET /healthz.
Docs: docs/serving.md, docs/extensions.md.`;
