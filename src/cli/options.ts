/**
 * Every option of the mcp-host command, with the commands it belongs to and the help line it shows. One table, so
 * the parser, the per-command help and the usage errors cannot disagree about what a command accepts.
 */

export type Command = "serve" | "toolsets" | "stdio" | "check" | "init" | "dev";

export const COMMANDS: readonly Command[] = ["serve", "toolsets", "stdio", "check", "init", "dev"];

export interface OptionSpec {
  /** The long name, without `--`. */
  name: string;
  short?: string;
  /** The placeholder of the value it takes; absent for a flag. */
  value?: string;
  /** Given more than once, the values add up. */
  repeatable?: boolean;
  commands: readonly Command[];
  help: string;
}

const SERVING: readonly Command[] = ["serve", "dev"];
const LOADING: readonly Command[] = ["serve", "toolsets", "stdio", "check", "dev"];

export const OPTIONS: readonly OptionSpec[] = [
  { name: "config", value: "FILE", commands: LOADING, help: "the config file (default: searched in --cwd; see docs/config.md)" },
  { name: "cwd", value: "DIR", commands: LOADING, help: "the project whose package.json lists the extensions (default: .)" },
  { name: "extension", short: "e", value: "a,b", repeatable: true, commands: LOADING, help: "load only these extensions (also MCP_HOST_EXTENSIONS)" },
  { name: "strict", commands: ["serve", "toolsets", "stdio", "check", "dev"], help: "refuse toolset names nobody declared (400 over HTTP; exit 2 at start)" },
  { name: "port", short: "p", value: "N", commands: SERVING, help: "port to listen on (default 3000; 0 picks a free one)" },
  { name: "host", value: "H", commands: SERVING, help: "interface to bind (default 127.0.0.1)" },
  { name: "path", value: "P", commands: SERVING, help: "MCP endpoint path (default /mcp)" },
  { name: "legacy", value: "MODE", commands: SERVING, help: "2025-era clients: stateful (default), stateless, reject" },
  { name: "allowed-hosts", value: "a,b", commands: SERVING, help: "Host names accepted besides loopback" },
  { name: "allowed-origins", value: "o1,o2", commands: SERVING, help: "Origins accepted besides loopback" },
  { name: "cors", value: "o1,o2", commands: SERVING, help: 'enable CORS for these origins ("*" for any)' },
  { name: "watch", commands: ["serve"], help: "read the config file again when it changes (also on SIGHUP)" },
  { name: "json", commands: ["toolsets", "check"], help: "print JSON instead of text" },
  { name: "log-format", value: "F", commands: [...COMMANDS], help: "json, pretty, auto (default: auto — pretty on a terminal, JSON lines otherwise)" },
  { name: "log-level", value: "L", commands: [...COMMANDS], help: "debug, info, warn, error (default: info for serve and dev, warn otherwise)" },
  { name: "help", short: "h", commands: [...COMMANDS], help: "help for the command" },
];

/** What each command is for and what its positional argument means. */
export const COMMAND_HELP: Record<Command, { usage: string; summary: string; details?: string }> = {
  serve: {
    usage: "mcp-host serve    [SELECTION] [options]",
    summary: "serve the extensions (and the config's upstream servers) over HTTP",
    details: "SELECTION is the default selection, applied when a URL names nothing.",
  },
  toolsets: { usage: "mcp-host toolsets [SELECTION] [options]", summary: "print what a selection offers (exits 1 when an extension failed)" },
  stdio: {
    usage: "mcp-host stdio    [SELECTION] [options]",
    summary: "serve one selection on stdin/stdout, for desktop clients (logs on stderr)",
    details: "Desktop clients start servers in a folder of their choosing: pass --cwd with an absolute path.",
  },
  check: { usage: "mcp-host check    [options]", summary: "validate the config, load extensions, connect upstreams; exit non-zero on any problem" },
  init: {
    usage: "mcp-host init     [DIR] [options]",
    summary: "scaffold a stand-alone extension package in DIR (default: .) that builds and tests itself",
    details: "Then: cd DIR && npm install && npm test, and npx mcp-host dev to try it with a client.",
  },
  dev: {
    usage: "mcp-host dev      [SELECTION] [options]",
    summary: "serve the extension in this folder over HTTP, rebuild and reload it when its files change",
    details: "Runs the package's build script (when it has one) first and after each change; clients are told the list changed.",
  },
};

/** The options a command accepts, in table order. */
export function optionsOf(command: Command): OptionSpec[] {
  return OPTIONS.filter((o) => o.commands.includes(command));
}
