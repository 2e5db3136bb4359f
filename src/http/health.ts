/**
 * `/healthz` (docs/design.md §8): 200 while serving, `degraded` when an extension is quarantined or an upstream is
 * down, with their names — enough for a probe and for a person, nothing secret.
 */
import type { McpHost } from "../host/host.js";

export interface Health {
  status: "ok" | "degraded";
  service: string;
  extensions: { failed: Array<{ name: string; code?: string; error?: string }> };
  upstreams: { unavailable: Array<{ server: string; phase: string; code: string }> };
}

/**
 * @example
 * res.json(healthOf(host));
 */
export function healthOf(host: McpHost): Health {
  const failed = host
    .extensionStatuses()
    .filter((e) => e.status === "failed")
    .map((e) => ({ name: e.name, ...(e.code ? { code: e.code } : {}), ...(e.error ? { error: e.error } : {}) }));
  const unavailable = host.unavailable().map((u) => ({ server: u.server, phase: u.phase, code: u.code }));
  return {
    status: failed.length > 0 || unavailable.length > 0 ? "degraded" : "ok",
    service: host.name,
    extensions: { failed },
    upstreams: { unavailable },
  };
}
