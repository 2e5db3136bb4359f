/**
 * The deployment config's `http`, `selection`, `auth` and `metrics` sections as the options `listenHost` takes (the
 * `auth` option has the config section's own shape), and its `tools` section as the host's tool limits.
 */
import type { DeploymentConfig } from "../config/index.js";
import type { HostTaskOptions } from "../host/host-options.js";
import type { ToolCallLimits } from "../host/protocol/tool-limits.js";
import type { ListenOptions } from "../http/listen.js";
import type { Fleet } from "../scale-out/fleet.js";
import type { Deployment } from "./deployment.js";
import { defined } from "../defined.js";

/**
 * @example
 * await listenHost(host, listenOptionsOf(config));
 */
export function listenOptionsOf(config: DeploymentConfig): ListenOptions {
  const { http, selection } = config;
  return {
    port: http.port,
    host: http.host,
    path: http.path,
    legacy: http.legacy,
    fastPath: http.fastPath,
    sessionIdleTtlMs: http.sessionIdleTtlMs,
    maxSessions: http.maxSessions,
    maxSessionsPerCaller: http.maxSessionsPerCaller,
    maxListenStreamsPerCaller: http.maxListenStreamsPerCaller,
    maxSubscriptionsPerSession: http.maxSubscriptionsPerSession,
    maxSubscriptionUriLength: http.maxSubscriptionUriLength,
    maxBodyBytes: http.maxBodyBytes,
    shutdownTimeoutMs: http.shutdownTimeoutMs,
    headersTimeoutMs: http.headersTimeoutMs,
    requestTimeoutMs: http.requestTimeoutMs,
    keepAliveTimeoutMs: http.keepAliveTimeoutMs,
    maxConnections: http.maxConnections,
    maxConnectionsPerAddress: http.maxConnectionsPerAddress,
    callerRequestsPerSecond: http.callerRequestsPerSecond,
    callerBurst: http.callerBurst,
    callerMaxConcurrent: http.callerMaxConcurrent,
    maxJsonDepth: http.maxJsonDepth,
    streamMaxAgeMs: http.streamMaxAgeMs,
    allowedHosts: http.allowedHosts,
    allowedOrigins: http.allowedOrigins,
    trustProxy: http.trustProxy,
    ...(http.cors ? { cors: { origin: http.cors.origin === "*" ? true : http.cors.origin } } : {}),
    ...(config.auth ? { auth: config.auth } : {}),
    ui: http.ui ? { path: http.uiPath } : false,
    ...(config.metrics ? { metrics: { path: config.metrics.path, scopes: config.metrics.scopes, ...defined({ port: config.metrics.port }) } } : {}),
    selection: { strict: selection.strict, ignoreKeys: selection.ignoreKeys, ...(selection.default !== undefined ? { default: selection.default } : {}) },
    ...(Object.keys(config.endpoints).length > 0 ? { endpoints: config.endpoints } : {}),
  };
}

/**
 * The host's limits on tool calls, from the config's `tools:` section.
 * @example
 * buildHost(extensions, { name, toolLimits: toolLimitsOf(config) });
 */
export function toolLimitsOf(config: DeploymentConfig): ToolCallLimits {
  return { maxConcurrent: config.tools.maxConcurrent, queueMs: config.tools.queueMs, maxResultBytes: config.tools.maxResultBytes };
}

/**
 * The config's `tasks:` as the host's task options (docs/tasks.md); a fleet adds its store and lease (`serve`).
 * @example
 * buildHost(extensions, { name, tasks: taskOptionsOf(config) });
 */
export function taskOptionsOf(config: DeploymentConfig): HostTaskOptions {
  const { maxPerCaller, maxTasks, ttlMs, maxTtlMs, pollIntervalMs } = config.tasks;
  return { maxTasks, limits: { maxPerCaller, ttlMs: Math.min(ttlMs, maxTtlMs), maxTtlMs, pollIntervalMs } };
}

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Whether the environment forces the HTTP fast path off whatever the config says (`MCP_HOST_FAST_PATH=off`, or `0`,
 * `false`): how the conformance runner and the bench serve the same build through the SDK's entry only.
 * @example
 * fastPathForcedOff({ MCP_HOST_FAST_PATH: "off" }) // true
 */
export function fastPathForcedOff(env: Env): boolean {
  const value = env.MCP_HOST_FAST_PATH?.trim().toLowerCase();
  return value === "off" || value === "0" || value === "false";
}

/**
 * What `serve` and `dev` listen with: the config's options, the deployment's observability, the gateway's servers for
 * the operator page (read when asked: a reload may add the gateway later), and the fleet `serve` takes part in.
 * @example
 * await listenHost(deployment.host, servingOptionsOf(deployment));
 */
export function servingOptionsOf(deployment: Deployment, fleet?: Fleet, env: Env = {}): ListenOptions {
  // The operator page's upstream messages come from the upstreams: they pass the deployment's redactor like the rest.
  const upstreams = () => deployment.redactor.redactValue(deployment.gateway?.status() ?? []);
  deployment.observability.watch({ upstreams });
  return {
    ...listenOptionsOf(deployment.config),
    ...(fastPathForcedOff(env) ? { fastPath: false } : {}),
    observability: deployment.observability,
    upstreams,
    ...defined({ scaleOut: fleet }),
  };
}
