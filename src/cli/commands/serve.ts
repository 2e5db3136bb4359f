/**
 * `mcp-host serve`: serves the deployment over HTTP, prints where to point a client and each extension's status,
 * and runs until SIGTERM or SIGINT.
 */
import { listenHost } from "../../http/listen.js";
import type { CliSettings } from "../args.js";
import { loadDeployment } from "../deployment.js";
import { listenOptionsOf } from "../listen-options.js";
import { onShutdownSignals } from "../signals.js";

type Env = Readonly<Record<string, string | undefined>>;

/**
 * @example
 * await serveCommand(parseCli(["serve", "--port", "0"], cwd), process.env, console.log);
 */
export async function serveCommand(settings: CliSettings, env: Env, out: (line: string) => void): Promise<number> {
  const { host, config } = await loadDeployment(settings, env, { logLevel: "info", selectionArgument: true });
  const served = await listenHost(host, listenOptionsOf(config));
  out(`mcp-host is serving "${host.name}" over MCP at ${served.url.href}`);
  out(`  what it offers:  ${new URL("/toolsets", served.baseUrl).href}`);
  out(`  health:          ${new URL("/healthz", served.baseUrl).href}`);
  out(`  select toolsets: ${served.url.href}?only=NAME  (see /toolsets for the names)`);
  for (const e of host.extensionStatuses()) out(`  extension ${e.name}${e.version ? `@${e.version}` : ""}: ${e.status}${e.error ? ` — ${e.error}` : ""}`);
  onShutdownSignals(() => served.close());
  return new Promise<number>(() => {});
}
