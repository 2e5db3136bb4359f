/**
 * Reading the config again without a restart (docs/design.md §11): on SIGHUP, and with `serve --watch` whenever the file
 * changes. A reload is applied whole or refused whole: only upstream servers can change live (through the gateway, one
 * notification to listening clients), so a reload that changes any other section — the port, auth, the extensions… —
 * is refused with one message naming every such section, and nothing of it is applied (a new upstream must never go
 * live while the `auth` change that guards it waits for a restart). A config with any problem is refused the same way.
 */
import { watch } from "node:fs";
import type { DeploymentConfig } from "../config/index.js";
import { McpHostError, messageOf } from "../errors.js";
import type { Logger } from "../logger.js";
import type { CliSettings } from "./args.js";
import { reloadPlan } from "./config-sections.js";
import { type Deployment, gatewayOver, readDeploymentConfig, refuseUnknownAuthKinds } from "./deployment.js";

type Env = Readonly<Record<string, string | undefined>>;

/** What one reload did, for the log and for tests. */
export interface ReloadOutcome {
  applied: boolean;
  message: string;
  /** Why it was not applied (absent when it was). */
  error?: McpHostError;
}

/** The running deployment and the config it runs (its servers follow each applied reload). */
export interface ReloadState {
  deployment: Deployment;
  config: DeploymentConfig;
}

function coded(error: unknown, fallback: "CONFIG_INVALID" | "MCP_CALL_FAILED"): McpHostError {
  return error instanceof McpHostError ? error : new McpHostError(fallback, messageOf(error), { cause: error });
}

function refused(logger: Logger, message: string, error: McpHostError): ReloadOutcome {
  logger.error(message, { code: error.code });
  return { applied: false, message, error };
}

/** Reloads once: reads and checks the config, then applies it whole (its servers) or refuses it whole. */
export async function reloadOnce(settings: CliSettings, env: Env, state: ReloadState): Promise<ReloadOutcome> {
  let next: DeploymentConfig;
  try {
    const read = await readDeploymentConfig(settings, env, true, state.deployment.redactor);
    refuseUnknownAuthKinds(read, state.deployment.authKinds);
    next = read.config;
  } catch (error) {
    return refused(state.deployment.logger, `the config was not reloaded, the previous one keeps serving: ${messageOf(error)}`, coded(error, "CONFIG_INVALID"));
  }
  return applyConfig(state, next);
}

/**
 * Applies a config read afresh to the running deployment, whole or not at all: refused (nothing applied) when any
 * section other than `servers` changed; otherwise the servers are reconfigured, atomically (the gateway starts every
 * new and changed server before any of them goes live, and keeps the old map on any problem).
 * @example
 * const outcome = await applyConfig({ deployment, config: deployment.config }, next); // { applied: false, message: "…", error }
 */
export async function applyConfig(state: ReloadState, next: DeploymentConfig): Promise<ReloadOutcome> {
  const logger = state.deployment.logger;
  const plan = reloadPlan(state.config, next);
  if (plan.needsRestart.length > 0) {
    const sections = plan.needsRestart.join(", ");
    const error = new McpHostError(
      "CONFIG_RELOAD_REFUSED",
      `it changes ${sections}, which only a restart applies, and a reload is applied whole or not at all; ` +
        `restart mcp-host to apply this config, or undo the change${plan.needsRestart.length > 1 ? "s" : ""} to ${sections} to reload the rest`,
    );
    return refused(logger, `the config was not reloaded, the previous one keeps serving: ${error.message}`, error);
  }
  if (plan.changed.length === 0) {
    const message = "reloaded the config: nothing changed";
    logger.info(message);
    return { applied: true, message };
  }
  try {
    const summary = await applyServers(state.deployment, next, logger);
    state.config = { ...state.config, servers: next.servers };
    const message = `reloaded the config: ${summary}`;
    logger.info(message);
    return { applied: true, message };
  } catch (error) {
    return refused(logger, `the servers were not reloaded, the previous ones keep serving: ${messageOf(error)}`, coded(error, "MCP_CALL_FAILED"));
  }
}

async function applyServers(deployment: Deployment, next: DeploymentConfig, logger: Logger): Promise<string> {
  if (!deployment.gateway) {
    // The first servers of a deployment that had none: an empty gateway joins the running host, then takes the servers
    // the way every later reload does — all of them or, on any problem, none (it then stays, serving nothing).
    const gateway = await gatewayOver({}, next, logger, deployment.observability, deployment.redactor);
    await deployment.host.add(gateway.extension, "the config's servers");
    deployment.gateway = gateway;
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
  const state: ReloadState = { deployment, config: deployment.config };
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
          // Real time on purpose: the debounce of real file-system events in the CLI process.
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
