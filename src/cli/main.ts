#!/usr/bin/env node
/**
 * The `mcp-host` command. A usage or configuration error exits 2 and any other failure 1 — at once, even for a
 * long-running command whose start-up failed — each with one clear report on stderr (a configuration report lists every problem, one per line); stdout carries only what the
 * command was asked to print (and, for stdio, only the protocol).
 */
import { isMcpHostError, type McpHostErrorCode, messageOf } from "../errors.js";
import { parseCli } from "./args.js";
import { commandHelp, overviewHelp } from "./help.js";
import { mcpHostVersion } from "./version.js";

/** Errors in what the user gave us (arguments, config, selection), as opposed to failures while running. */
const USAGE_CODES = new Set<McpHostErrorCode>([
  "CLI_USAGE",
  "CONFIG_INVALID",
  "CONFIG_SECRET_UNRESOLVED",
  "CONFIG_SECRET_TOO_SHORT",
  "MCP_CREDENTIALS_INLINE",
  "MCP_URL_INVALID",
  "MCP_TRANSPORT_INVALID",
  "MCP_AUTH_CONFLICT",
  "MCP_AUTH_STRATEGY_UNKNOWN",
  "MCP_OAUTH_ENDPOINT_REQUIRED",
  "SELECTION_UNKNOWN_TOOLSET",
]);

async function main(argv: readonly string[]): Promise<number> {
  const out = (line: string) => process.stdout.write(`${line}\n`);
  const settings = parseCli(argv, process.cwd());
  switch (settings.command) {
    case "help":
      out(settings.helpFor ? commandHelp(settings.helpFor) : overviewHelp());
      return 0;
    case "version":
      out(mcpHostVersion());
      return 0;
    // Each command's module is imported only when it runs: stdio must not pay for express, jose and the HTTP layer
    // (a desktop client gives up on a server that answers slowly).
    case "serve":
      return (await import("./commands/serve.js")).serveCommand(settings, process.env, out);
    case "toolsets":
      return (await import("./commands/toolsets.js")).toolsetsCommand(settings, process.env, out);
    case "stdio":
      return (await import("./commands/stdio.js")).stdioCommand(settings, process.env);
    case "check":
      return (await import("./commands/check.js")).checkCommand(settings, process.env, out);
    case "init":
      return (await import("./commands/init.js")).initCommand(settings, out);
    case "dev":
      return (await import("./commands/dev.js")).devCommand(settings, process.env, out);
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    const coded = isMcpHostError(error);
    process.stderr.write(`mcp-host: ${coded ? `${error.code}: ` : ""}${messageOf(error)}\n`);
    // Exit now: a failed start-up may leave a timer, a socket or a child's pipe that would keep the process alive
    // without a word (a serve on a busy port did). The exit guard ends any upstream process group still running.
    process.exit(coded && USAGE_CODES.has(error.code) ? 2 : 1);
  },
);
