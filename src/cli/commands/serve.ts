/**
 * `mcp-host serve`: serves the deployment over HTTP, prints where to point a client and each extension's status,
 * and runs until SIGTERM or SIGINT.
 */
import type { CliSettings } from "../args.js";
import { loadDeployment, refuseGatewayProblems } from "../deployment.js";
import { listenOrStop } from "../listen-failure.js";
import { servingOptionsOf } from "../listen-options.js";
import { reloadOnSignal } from "../reload.js";
import { onShutdownSignals } from "../signals.js";

type Env = Readonly<Record<string, string | undefined>>;

/**
 * @example
 * await serveCommand(parseCli(["serve", "--port", "0"], cwd), process.env, console.log);
 */
export async function serveCommand(settings: CliSettings, env: Env, out: (line: string) => void): Promise<number> {
  // With `scaleOut:`, this instance's part in the fleet (its Redis connects on its own; serving does not wait for it).
  const deployment = await loadDeployment(settings, env, { logLevel: "info", selectionArgument: true, joinFleet: true });
  await refuseGatewayProblems(deployment);
  const { host, config, fleet } = deployment;
  // A port that cannot be bound is one line with the fix, and nothing it started outlives it (listen-failure.ts).
  const served = await listenOrStop(deployment, servingOptionsOf(deployment, fleet, env), async () => fleet?.close());
  // Signals are taken before the banner: whoever reads "is serving" as ready may send SIGHUP or SIGTERM at once.
  const stopReloading = reloadOnSignal(settings, env, deployment, { watch: settings.watch });
  onShutdownSignals(async () => {
    stopReloading();
    await served.close();
    await fleet?.close();
  });
  out(`mcp-host is serving "${host.name}" over MCP at ${served.url.href}`);
  out(`  what it offers:  ${new URL("/toolsets", served.baseUrl).href}`);
  out(`  health:          ${new URL("/healthz", served.baseUrl).href}`);
  if (config.http.ui) out(`  operator page:   ${new URL(config.http.uiPath, served.baseUrl).href}`);
  if (config.metrics) out(`  metrics:         ${served.metrics?.url.href ?? new URL(config.metrics.path, served.baseUrl).href}`);
  out(`  select toolsets: ${served.url.href}?only=NAME  (see /toolsets for the names)`);
  if (fleet) out(`  instance:        ${fleet.instanceId}${config.scaleOut?.redis ? " (events and rate limits shared through Redis)" : ""}`);
  for (const e of host.extensionStatuses()) out(`  extension ${e.name}${e.version ? `@${e.version}` : ""}: ${e.status}${e.error ? ` — ${e.error}` : ""}`);
  for (const s of deployment.gateway?.status() ?? [])
    out(`  upstream ${s.server}: ${s.state}${s.state === "up" ? ` (${s.tools} tools)` : s.code ? ` — ${s.code}` : ""}`);
  return new Promise<number>(() => {});
}
