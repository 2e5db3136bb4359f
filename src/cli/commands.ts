/**
 * The mcp-host commands (DESIGN.md §13): serve over HTTP, describe a selection, serve one selection over stdio.
 * Each returns the process exit code; signals end `serve` and `stdio` gracefully.
 */
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { listenHost } from "../http/listen.js";
import { parseSelection } from "../host/selection.js";
import type { CliSettings } from "./args.js";
import { formatToolsetsTable } from "./format-toolsets.js";
import { loadHost } from "./load-host.js";

type Env = Readonly<Record<string, string | undefined>>;

function onSignals(stop: () => Promise<void>): void {
  let stopping = false;
  const handle = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`mcp-host: ${signal} received, shutting down\n`);
    stop().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`mcp-host: shutdown finished with errors: ${(error as Error).message}\n`);
        process.exit(0);
      },
    );
  };
  process.once("SIGTERM", handle);
  process.once("SIGINT", handle);
}

/** `mcp-host serve`: prints where to point a client, then serves until SIGTERM/SIGINT. */
export async function serveCommand(settings: CliSettings, env: Env, out: (line: string) => void): Promise<number> {
  const { host } = await loadHost(settings, env);
  const corsOrigins = settings.cors;
  const served = await listenHost(host, {
    port: settings.port ?? 3000,
    host: settings.host ?? "127.0.0.1",
    ...(settings.path ? { path: settings.path } : {}),
    ...(settings.legacy ? { legacy: settings.legacy } : {}),
    ...(settings.allowedHosts ? { allowedHosts: settings.allowedHosts } : {}),
    ...(settings.allowedOrigins ? { allowedOrigins: settings.allowedOrigins } : {}),
    ...(corsOrigins ? { cors: { origin: corsOrigins.includes("*") ? true : corsOrigins } } : {}),
    selection: { strict: settings.strict, ...(settings.selection ? { default: settings.selection } : {}) },
  });
  out(`mcp-host is serving "${host.name}" over MCP at ${served.url.href}`);
  out(`  what it offers:  ${new URL("/toolsets", served.baseUrl).href}`);
  out(`  health:          ${new URL("/healthz", served.baseUrl).href}`);
  out(`  select toolsets: ${served.url.href}?only=NAME  (see /toolsets for the names)`);
  for (const e of host.extensionStatuses()) out(`  extension ${e.name}${e.version ? `@${e.version}` : ""}: ${e.status}${e.error ? ` — ${e.error}` : ""}`);
  onSignals(() => served.close());
  return new Promise<number>(() => {});
}

/** `mcp-host toolsets [SELECTION] [--json]`. */
export async function toolsetsCommand(settings: CliSettings, env: Env, out: (line: string) => void): Promise<number> {
  const { host } = await loadHost({ ...settings, logLevel: settings.logLevel ?? "warn" }, env);
  try {
    const description = await host.describe(parseSelection(settings.selection ?? ""));
    out(settings.json ? JSON.stringify(description, null, 2) : formatToolsetsTable(description));
    return description.extensions.some((e) => e.status === "failed") ? 1 : 0;
  } finally {
    await host.stop().catch(() => {});
  }
}

/** `mcp-host stdio [SELECTION]`: one selection on stdin/stdout, both eras; logs on stderr only. */
export async function stdioCommand(settings: CliSettings, env: Env): Promise<number> {
  const { host } = await loadHost({ ...settings, logLevel: settings.logLevel ?? "warn" }, env);
  const selection = parseSelection(settings.selection ?? "");
  const first = await host.build(selection);
  const handle = serveStdio(async (ctx) => {
    const built = await host.build(selection);
    return built.createServer({ era: ctx.era, selection: { active: built.toolsets, unknown: built.unknown } });
  });
  host.logger.info(`serving selection "${settings.selection ?? ""}" over stdio: ${first.toolNames.join(", ")}`);
  const stop = async () => {
    await handle.close();
    await host.stop();
  };
  process.stdin.once("end", () => void stop().then(() => process.exit(0)));
  onSignals(stop);
  return new Promise<number>(() => {});
}
