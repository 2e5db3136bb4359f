/**
 * A serving command's start-up that cannot listen (docs/design.md §13): a busy port, an address that is not this
 * machine's, a port it may not bind. Node says `listen EADDRINUSE: address already in use 127.0.0.1:3000` and
 * nothing more; this turns it into one line with the fix (`--port`, `http.port`), stops whatever the start-up had
 * already started (upstream processes, extensions) within a bound, and lets the command exit at once.
 */
import { McpHostError, messageOf } from "../errors.js";
import type { ListeningHost, ListenOptions } from "../http/listen.js";
import { listenHost } from "../http/listen.js";
import type { Deployment } from "./deployment.js";

/** How long the stop of what was started may take before the command exits anyway (its exit kills what is left). */
const STOP_BUDGET_MS = 800;

/**
 * The listen error in mcp-host's words: what could not be bound, why, and which flag or config key fixes it.
 * @example
 * listenFailure(error, { host: "127.0.0.1", port: 3000 }).message
 * // "cannot listen on 127.0.0.1:3000: the port is already in use (EADDRINUSE); pick another with --port … or http.port …"
 */
export function listenFailure(error: unknown, where: { host: string; port: number; metricsPort?: number | undefined }): McpHostError {
  const { code: errno, address: failedHost, port: failedPort } = error as NodeJS.ErrnoException & { address?: string; port?: number };
  const host = failedHost ?? where.host;
  const port = failedPort ?? where.port;
  const address = `${host.includes(":") ? `[${host}]` : host}:${port}`;
  // The metrics listener (`metrics.port`) binds after the main one: its failure names its own port.
  const metrics = where.metricsPort !== undefined && port === where.metricsPort && port !== where.port;
  const portFix = metrics
    ? "pick another with metrics.port in the config, or stop what holds it"
    : `pick another with --port (e.g. --port ${port + 1}, or --port 0 for any free one) or http.port in the config, or stop what holds it`;
  const why =
    errno === "EADDRINUSE"
      ? `the port is already in use (EADDRINUSE); ${portFix}`
      : errno === "EACCES"
        ? `binding it is not permitted (EACCES: ports below 1024 need privileges); ${portFix}`
        : errno === "EADDRNOTAVAIL"
          ? "the address is not one of this machine's (EADDRNOTAVAIL); fix --host or http.host (127.0.0.1 for this machine only, 0.0.0.0 for every interface)"
          : `${messageOf(error)}; check --host and --port (http.host and http.port in the config)`;
  return new McpHostError("HTTP_LISTEN_FAILED", `cannot listen on ${address}: ${why}`, { cause: error });
}

/** Stops the deployment's host (its extensions and upstream processes), waiting at most STOP_BUDGET_MS. */
async function stopWithin(deployment: Deployment): Promise<void> {
  let timer: { clear(): void } | undefined;
  const budget = new Promise<void>((resolve) => (timer = deployment.host.clock.setTimeout(resolve, STOP_BUDGET_MS, true)));
  await Promise.race([deployment.host.stop().catch(() => {}), budget]);
  timer?.clear();
}

/**
 * `listenHost` for a command: on failure, stops what the start-up started and throws HTTP_LISTEN_FAILED (or the
 * error as it came, when it is not a listen error), after running `alsoStop` (a fleet's connections).
 * @example
 * const served = await listenOrStop(deployment, servingOptionsOf(deployment));
 */
export async function listenOrStop(deployment: Deployment, options: ListenOptions, alsoStop?: () => Promise<void>): Promise<ListeningHost> {
  try {
    return await listenHost(deployment.host, options);
  } catch (error) {
    await alsoStop?.().catch(() => {});
    await stopWithin(deployment);
    const errno = (error as NodeJS.ErrnoException).code;
    if (typeof errno !== "string" || !/^E[A-Z]+$/.test(errno)) throw error;
    throw listenFailure(error, { host: options.host ?? "127.0.0.1", port: options.port ?? 3000, metricsPort: options.metrics?.port });
  }
}
