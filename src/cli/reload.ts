/**
 * Reading the config again without a restart (docs/design.md §11): on SIGHUP, and with `serve --watch` whenever the file
 * changes. Upstream servers added, removed or changed are applied live through the gateway (one notification to
 * listening clients); a config with any problem is refused with its report while the old one keeps serving; a
 * change only a restart can apply (the port, auth, the extensions…) is said so, not half-applied.
 */
import { watch } from "node:fs";
import type { DeploymentConfig } from "../config/index.js";
import { messageOf } from "../errors.js";
import type { Logger } from "../logger.js";
import type { Gateway } from "../upstream/index.js";
import type { CliSettings } from "./args.js";
import { type Deployment, gatewayFor, readDeploymentConfig, refuseUnknownAuthKinds } from "./deployment.js";

type Env = Readonly<Record<string, string | undefined>>;

/** The sections only a restart applies. */
const RESTART_ONLY = [
  "name",
  "version",
  "instructions",
  "extensions",
  "selection",
  "http",
  "auth",
  "startupTimeoutMs",
  "remoteServers",
  "tools",
  "logging",
  "metrics",
  "tracing",
] as const;

function changedSections(before: DeploymentConfig, after: DeploymentConfig): string[] {
  return RESTART_ONLY.filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]));
}

/** What one reload did, for the log and for tests. */
export interface ReloadOutcome {
  applied: boolean;
  message: string;
}

/** Reloads once: reads and checks the config, then applies its servers. */
export async function reloadOnce(settings: CliSettings, env: Env, state: { deployment: Deployment; config: DeploymentConfig }): Promise<ReloadOutcome> {
  const { deployment } = state;
  const logger = deployment.logger;
  let next: DeploymentConfig;
  try {
    const read = await readDeploymentConfig(settings, env, true, deployment.redactor);
    refuseUnknownAuthKinds(read, deployment.authKinds);
    next = read.config;
  } catch (error) {
    const message = `the config was not reloaded, the previous one keeps serving: ${messageOf(error)}`;
    logger.error(message, { code: "CONFIG_INVALID" });
    return { applied: false, message };
  }
  const restart = changedSections(state.config, next);
  if (restart.length > 0) logger.warn(`changed ${restart.join(", ")}: this takes effect after a restart (the rest is applied now)`);
  try {
    const summary = await applyServers(deployment, next, logger);
    state.config = { ...state.config, servers: next.servers };
    const message = `reloaded the config: ${summary}`;
    logger.info(message);
    return { applied: true, message };
  } catch (error) {
    const message = `the servers were not reloaded, the previous ones keep serving: ${messageOf(error)}`;
    logger.error(message);
    return { applied: false, message };
  }
}

async function applyServers(deployment: Deployment, next: DeploymentConfig, logger: Logger): Promise<string> {
  if (!deployment.gateway) {
    if (Object.keys(next.servers).length === 0) return "no servers";
    // The first servers of a deployment that had none: the gateway joins the running host.
    const gateway = (await gatewayFor(next, logger, deployment.observability, deployment.redactor)) as Gateway;
    await deployment.host.add(gateway.extension, "the config's servers");
    deployment.gateway = gateway;
    const problems = gateway.problems();
    if (problems.length > 0) throw problems[0]!;
    return `servers added: ${Object.keys(next.servers).sort().join(", ")}`;
  }
  const report = await deployment.gateway.reconfigure(next.servers);
  const parts = (["added", "removed", "changed"] as const).filter((k) => report[k].length > 0).map((k) => `${k} ${report[k].join(", ")}`);
  return parts.length > 0 ? `servers ${parts.join("; ")}` : "no server changed";
}

/**
 * Reloads on SIGHUP, and with `watch` when the config file changes; returns a function that stops both.
 * @example
 * const stop = reloadOnSignal(settings, process.env, deployment, { watch: settings.watch });
 */
export function reloadOnSignal(settings: CliSettings, env: Env, deployment: Deployment, options: { watch: boolean }): () => void {
  const state = { deployment, config: deployment.config };
  let running: Promise<unknown> = Promise.resolve();
  const reload = () => {
    running = running.then(() => reloadOnce(settings, env, state));
  };
  process.on("SIGHUP", reload);
  let timer: NodeJS.Timeout | undefined;
  const watcher =
    options.watch && deployment.source
      ? watch(deployment.source, () => {
          clearTimeout(timer);
          timer = setTimeout(reload, 150);
        })
      : undefined;
  if (options.watch && !deployment.source) deployment.logger.warn("--watch: no config file was found, so there is nothing to watch (SIGHUP still reloads)");
  return () => {
    process.off("SIGHUP", reload);
    clearTimeout(timer);
    watcher?.close();
  };
}
