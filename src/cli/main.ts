#!/usr/bin/env node
/**
 * The `mcp-host` command. A usage or configuration error exits 2 and any other failure 1, each with one clear
 * report on stderr (a configuration report lists every problem, one per line); stdout carries only what the
 * command was asked to print (and, for stdio, only the protocol).
 */
import { isMcpHostError, type McpHostErrorCode, messageOf } from "../errors.js";
import { parseCli } from "./args.js";
import { checkCommand } from "./commands/check.js";
import { devCommand } from "./commands/dev.js";
import { initCommand } from "./commands/init.js";
import { serveCommand } from "./commands/serve.js";
import { stdioCommand } from "./commands/stdio.js";
import { toolsetsCommand } from "./commands/toolsets.js";
import { mcpHostVersion } from "./deployment.js";
import { commandHelp, overviewHelp } from "./help.js";

/** Errors in what the user gave us (arguments, config, selection), as opposed to failures while running. */
const USAGE_CODES = new Set<McpHostErrorCode>([
  "CLI_USAGE",
  "CONFIG_INVALID",
  "CONFIG_SECRET_UNRESOLVED",
  "MCP_CREDENTIALS_INLINE",
  "MCP_URL_INVALID",
  "MCP_TRANSPORT_INVALID",
  "MCP_AUTH_CONFLICT",
  "MCP_AUTH_STRATEGY_UNKNOWN",
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
    case "serve":
      return serveCommand(settings, process.env, out);
    case "toolsets":
      return toolsetsCommand(settings, process.env, out);
    case "stdio":
      return stdioCommand(settings, process.env);
    case "check":
      return checkCommand(settings, process.env, out);
    case "init":
      return initCommand(settings, out);
    case "dev":
      return devCommand(settings, process.env, out);
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    const coded = isMcpHostError(error);
    process.stderr.write(`mcp-host: ${coded ? `${error.code}: ` : ""}${messageOf(error)}\n`);
    process.exitCode = coded && USAGE_CODES.has(error.code) ? 2 : 1;
  },
);
