#!/usr/bin/env node
/**
 * The `mcp-host` command. Errors with a code exit 2 for usage, 1 otherwise, with one clear line on stderr;
 * stdout carries only what the command was asked to print (and, for stdio, only the protocol).
 */
import { isMcpHostError, messageOf } from "../errors.js";
import { HELP, parseCli } from "./args.js";
import { serveCommand, stdioCommand, toolsetsCommand } from "./commands.js";
import { mcpHostVersion } from "./load-host.js";

async function main(argv: readonly string[]): Promise<number> {
  const out = (line: string) => process.stdout.write(`${line}\n`);
  const settings = parseCli(argv, process.cwd());
  switch (settings.command) {
    case "help":
      out(HELP);
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
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    const coded = isMcpHostError(error);
    process.stderr.write(`mcp-host: ${coded ? `${error.code}: ` : ""}${messageOf(error)}\n`);
    process.exitCode = coded && error.code === "CLI_USAGE" ? 2 : 1;
  },
);
