/**
 * The deployment config's `http`, `selection` and `auth` sections as the options `listenHost` takes (the `auth`
 * option has the config section's own shape).
 */
import type { DeploymentConfig } from "../config/index.js";
import type { ListenOptions } from "../http/listen.js";

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
    sessionIdleTtlMs: http.sessionIdleTtlMs,
    maxSessions: http.maxSessions,
    maxBodyBytes: http.maxBodyBytes,
    shutdownTimeoutMs: http.shutdownTimeoutMs,
    allowedHosts: http.allowedHosts,
    allowedOrigins: http.allowedOrigins,
    ...(http.cors ? { cors: { origin: http.cors.origin === "*" ? true : http.cors.origin } } : {}),
    ...(config.auth ? { auth: config.auth } : {}),
    selection: { strict: selection.strict, ignoreKeys: selection.ignoreKeys, ...(selection.default !== undefined ? { default: selection.default } : {}) },
  };
}
