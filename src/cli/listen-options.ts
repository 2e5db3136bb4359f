/**
 * The deployment config's `http` and `selection` sections as the options `listenHost` takes.
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
    selection: { strict: selection.strict, ignoreKeys: selection.ignoreKeys, ...(selection.default !== undefined ? { default: selection.default } : {}) },
  };
}
