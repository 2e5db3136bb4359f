/**
 * The config's `scaleOut:` section for the commands (docs/scale-out.md): the fleet `serve` takes part in, made only
 * when the section is there — the Redis client is imported only then, and only with `scaleOut.redis` — the host's
 * task options in a fleet (Redis's store, the instance's name, the lease), and the secrets of the section that a
 * reference did not already make secret (a plain Redis URL, its password), which the deployment's redactor must know
 * so no output shows them.
 */
import { hostname } from "node:os";
import type { DeploymentConfig } from "../config/index.js";
import type { Logger } from "../logger.js";
import type { HostTaskOptions } from "../host/host-options.js";
import type { Fleet } from "../scale-out/fleet.js";
import { MIN_SECRET_LENGTH } from "../secret-redactor.js";
import type { TaskStore } from "../tasks/task-store.js";

/**
 * What of `scaleOut` must be redacted besides the resolved references: the Redis URL and the password in it.
 * @example
 * scaleOutSecrets(config) // ["redis://:hunter22@redis:6379", "hunter22"]
 */
export function scaleOutSecrets(config: DeploymentConfig): string[] {
  const url = config.scaleOut?.redis?.url;
  if (url === undefined) return [];
  const out = [url];
  try {
    const password = decodeURIComponent(new URL(url).password);
    if (password.length >= MIN_SECRET_LENGTH) out.push(password);
  } catch {
    // The config's rules refuse a URL that does not parse; nothing more to learn from it.
  }
  return out;
}

/**
 * This instance's fleet, or undefined without `scaleOut`.
 * @example
 * const fleet = await fleetFor(config, logger); await listenHost(host, { ...options, scaleOut: fleet });
 */
export async function fleetFor(config: DeploymentConfig, logger: Logger): Promise<Fleet | undefined> {
  const section = config.scaleOut;
  if (section === undefined) return undefined;
  const { createFleet, instanceIdFromHostName } = await import("../scale-out/fleet.js");
  const instanceId = section.instanceId ?? instanceIdFromHostName(hostname());
  return createFleet({
    instanceId,
    logger: logger.child("scale-out", { instance: instanceId }),
    ...(section.redis === undefined ? {} : { redis: { url: section.redis.url, prefix: section.redis.prefix } }),
    tasks: { maxPerCaller: config.tasks.maxPerCaller, maxKept: config.tasks.maxTasks },
  });
}

/**
 * The host's task options in a fleet with Redis: its tasks kept there, under this instance's name, each held by a
 * lease the instance renews (`scaleOut.taskLeaseMs`); without Redis, `options` as they are (the memory store).
 * @example
 * buildHost(extensions, { tasks: fleetTaskOptions(taskOptionsOf(config), config, fleet) });
 */
export function fleetTaskOptions(options: HostTaskOptions, config: DeploymentConfig, fleet: Fleet | undefined): HostTaskOptions {
  if (fleet?.tasks === undefined || config.scaleOut === undefined) return options;
  // The fleet's store has the host's TaskStore shape without importing it (scale-out stands on the base alone):
  // this assignment is where a difference between the two would fail the type check.
  const store: TaskStore = fleet.tasks;
  return { ...options, store, instance: fleet.instanceId, limits: { ...options.limits, leaseMs: config.scaleOut.taskLeaseMs } };
}

/**
 * What `mcp-host check` says of the fleet's Redis: undefined when it answers (or there is none), else why not.
 * @example
 * await redisProblem(config) // "ECONNREFUSED"
 */
export async function redisProblem(config: DeploymentConfig): Promise<string | undefined> {
  const url = config.scaleOut?.redis?.url;
  if (url === undefined) return undefined;
  const { pingRedis } = await import("../scale-out/redis-link.js");
  return pingRedis(url, 2_000);
}
