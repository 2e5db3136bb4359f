/**
 * Parses the mcp-host command line (lexed by `node:util` `parseArgs`) into a plain settings object. Each command
 * accepts only its own options (the table in options.ts); anything else — an unknown option, an option of another
 * command, a missing or bad value — is one CLI_USAGE line that says what was wrong and where to look.
 */
import { type ParseArgsConfig, parseArgs } from "node:util";
import { McpHostError } from "../errors.js";
import type { LogLevel } from "../logger.js";
import { COMMANDS, type Command, OPTIONS, type OptionSpec, optionsOf } from "./options.js";

export type { Command } from "./options.js";

export interface CliSettings {
  command: Command | "help" | "version";
  /** For `help`: the command whose help was asked for. */
  helpFor?: Command;
  /** The positional argument: a selection in the URL grammar, or for `init` the folder. */
  argument?: string;
  cwd: string;
  config?: string;
  port?: number;
  host?: string;
  path?: string;
  extensions?: string[];
  json: boolean;
  logLevel?: LogLevel;
  logFormat?: "json" | "pretty" | "auto";
  legacy?: "stateful" | "stateless" | "reject";
  strict: boolean;
  watch: boolean;
  allowedHosts?: string[];
  allowedOrigins?: string[];
  cors?: string[];
}

function usage(message: string, command?: Command): McpHostError {
  const help = command ? `mcp-host ${command} --help` : "mcp-host --help";
  return new McpHostError("CLI_USAGE", `${message}. Run "${help}" for the options.`);
}

function list(value: string): string[] {
  return value.split(/[\s,]+/).filter(Boolean);
}

/** parseArgs' configuration for every option of every command: one lexer, so `-p 3000` splits the same everywhere. */
const PARSE_OPTIONS: ParseArgsConfig["options"] = Object.fromEntries(
  OPTIONS.map((o) => [
    o.name,
    { type: o.value === undefined ? "boolean" : "string", ...(o.short ? { short: o.short } : {}), ...(o.repeatable ? { multiple: true } : {}) },
  ]),
);

/**
 * Reads `--name value`, `--name=value`, `-x value` and flags with `node:util` `parseArgs`, for `command`. It runs
 * non-strict because strict mode refuses `--port -1` as ambiguous (a bad port, not a mystery, here) and words its
 * own errors; the tokens it returns are checked here instead, in order, so the first mistake is the one reported.
 */
function readOptions(args: readonly string[], command: Command): { values: Map<string, string[]>; positionals: string[] } {
  const known = optionsOf(command);
  const { tokens, positionals } = parseArgs({ args: [...args], options: PARSE_OPTIONS, strict: false, allowPositionals: true, tokens: true });
  const values = new Map<string, string[]>();
  for (const token of tokens) {
    if (token.kind !== "option") continue;
    const spec = known.find((o) => o.name === token.name);
    if (!spec) throw unknownOption(token.rawName, command);
    if (spec.value === undefined) {
      if (token.value !== undefined) throw usage(`--${spec.name} takes no value`, command);
      values.set(spec.name, ["true"]);
      continue;
    }
    if (token.value === undefined) throw usage(`--${spec.name} needs a value (${spec.value})`, command);
    values.set(spec.name, spec.repeatable ? [...(values.get(spec.name) ?? []), token.value] : [token.value]);
  }
  return { values, positionals };
}

function unknownOption(rawName: string, command: Command): McpHostError {
  const long = rawName.startsWith("--");
  const elsewhere = OPTIONS.find((o) => (long ? `--${o.name}` === rawName : `-${o.short}` === rawName));
  if (elsewhere) return usage(`${rawName} is not an option of "mcp-host ${command}" (it belongs to ${elsewhere.commands.join(", ")})`, command);
  return usage(`unknown option ${JSON.stringify(rawName)} for "mcp-host ${command}"`, command);
}

function port(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isInteger(n) || n > 65535)
    throw new McpHostError("CLI_USAGE", `--port must be a whole number from 0 to 65535, got "${value}"`);
  return n;
}

function oneOf<T extends string>(flag: string, value: string | undefined, allowed: readonly T[]): T | undefined {
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value)) throw new McpHostError("CLI_USAGE", `--${flag} must be one of ${allowed.join(", ")}, got "${value}"`);
  return value as T;
}

function firstOf(values: Map<string, string[]>, name: OptionSpec["name"]): string | undefined {
  return values.get(name)?.[0];
}

/**
 * @example
 * parseCli(["serve", "--port", "0", "--extension", "time"], "/srv/app") // { command: "serve", port: 0, extensions: ["time"], … }
 */
export function parseCli(argv: readonly string[], cwd: string): CliSettings {
  const base = { cwd, json: false, strict: false, watch: false };
  const first = argv[0];
  if (first === "--version" || first === "-v") return { ...base, command: "version" };
  if (first === undefined || first === "--help" || first === "-h" || first === "help") {
    const about = argv[1];
    if (about !== undefined && !COMMANDS.includes(about as Command)) throw usage(`unknown command "${about}"; the commands are ${COMMANDS.join(", ")}`);
    return { ...base, command: "help", ...(about ? { helpFor: about as Command } : {}) };
  }
  if (first.startsWith("-")) throw usage(`a command comes first, e.g. "mcp-host serve ${first}"; the commands are ${COMMANDS.join(", ")}`);
  if (!COMMANDS.includes(first as Command)) throw usage(`unknown command "${first}"; the commands are ${COMMANDS.join(", ")}`);
  const command = first as Command;
  const { values, positionals } = readOptions(argv.slice(1), command);
  if (values.has("help")) return { ...base, command: "help", helpFor: command };
  const takesArgument = command !== "check";
  if (positionals.length > (takesArgument ? 1 : 0)) {
    const extra = positionals.slice(takesArgument ? 1 : 0).join(" ");
    const hint = takesArgument ? `; quote a selection with "&" in it: mcp-host ${command} "only=a&without=b"` : "";
    throw usage(`too many arguments: ${extra}${hint}`, command);
  }
  const settings: CliSettings = {
    ...base,
    command,
    json: values.has("json"),
    strict: values.has("strict"),
    watch: values.has("watch"),
    cwd: firstOf(values, "cwd") ?? cwd,
  };
  if (positionals[0] !== undefined) settings.argument = command === "init" ? positionals[0] : positionals[0].replace(/^\?/, "");
  const config = firstOf(values, "config");
  if (config !== undefined) settings.config = config;
  const portValue = port(firstOf(values, "port"));
  if (portValue !== undefined) settings.port = portValue;
  const host = firstOf(values, "host");
  if (host !== undefined) settings.host = host;
  const path = firstOf(values, "path");
  if (path !== undefined) settings.path = path.startsWith("/") ? path : `/${path}`;
  const extensions = (values.get("extension") ?? []).flatMap(list);
  if (extensions.length > 0) settings.extensions = extensions;
  const logLevel = oneOf("log-level", firstOf(values, "log-level"), ["debug", "info", "warn", "error"] as const);
  if (logLevel) settings.logLevel = logLevel;
  const logFormat = oneOf("log-format", firstOf(values, "log-format"), ["json", "pretty", "auto"] as const);
  if (logFormat) settings.logFormat = logFormat;
  const legacy = oneOf("legacy", firstOf(values, "legacy"), ["stateful", "stateless", "reject"] as const);
  if (legacy) settings.legacy = legacy;
  for (const [flag, key] of [
    ["allowed-hosts", "allowedHosts"],
    ["allowed-origins", "allowedOrigins"],
    ["cors", "cors"],
  ] as const) {
    const value = firstOf(values, flag);
    if (value !== undefined && list(value).length > 0) settings[key] = list(value);
  }
  return settings;
}
