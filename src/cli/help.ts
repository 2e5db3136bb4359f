/**
 * The help texts: one overview of the commands, and for each command its usage and exactly the options it takes,
 * generated from the option table so the help can never list an option the command refuses.
 */
import { COMMAND_HELP, COMMANDS, type Command, optionsOf } from "./options.js";

function optionLine(spec: ReturnType<typeof optionsOf>[number]): string {
  const names = `${spec.short ? `-${spec.short}, ` : "    "}--${spec.name}${spec.value ? ` ${spec.value}` : ""}`;
  return `  ${names.padEnd(26)} ${spec.help}`;
}

/** The overview `mcp-host --help` prints. */
export function overviewHelp(): string {
  const width = Math.max(...COMMANDS.map((c) => c.length));
  return [
    "mcp-host — serve MCP extensions, selected by URL",
    "",
    "Usage:",
    ...COMMANDS.map((c) => `  ${COMMAND_HELP[c].usage}`),
    "  mcp-host --help | --version",
    "",
    "Commands:",
    ...COMMANDS.map((c) => `  ${c.padEnd(width)}  ${COMMAND_HELP[c].summary}`),
    "",
    'SELECTION uses the URL grammar: "only=time,text", "toolsets=units", "without=text".',
    'Run "mcp-host <command> --help" for a command\'s options.',
    "Docs: docs/serving.md, docs/config.md, docs/extensions.md.",
  ].join("\n");
}

/**
 * What `mcp-host <command> --help` prints.
 * @example
 * commandHelp("stdio") // "Usage: mcp-host stdio [SELECTION] [options]\n…"
 */
export function commandHelp(command: Command): string {
  const about = COMMAND_HELP[command];
  return [
    `Usage: ${about.usage.replace(/\s+/g, " ")}`,
    "",
    `${about.summary[0]!.toUpperCase()}${about.summary.slice(1)}.`,
    ...(about.details ? [about.details] : []),
    "",
    "Options:",
    ...optionsOf(command).map(optionLine),
  ].join("\n");
}
