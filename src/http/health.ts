/**
 * `/healthz` (docs/design.md §8): 200 while serving, `degraded` when an extension is quarantined, an upstream is
 * down or (in a fleet) Redis is unreachable, with their names — enough for a probe and for a person, nothing secret.
 * A fleet's Redis being down degrades but never fails the probe: the instance still serves (docs/scale-out.md).
 */
import type { McpHost } from "../host/host.js";
import type { Fleet, FleetStatus } from "../scale-out/fleet.js";
import { defined } from "../defined.js";

export interface Health {
  status: "ok" | "degraded";
  service: string;
  extensions: { failed: Array<{ name: string; code?: string; error?: string }> };
  upstreams: { unavailable: Array<{ server: string; phase: string; code: string }> };
  /** In a fleet: this instance's name and whether the fleet's Redis is reachable. */
  scaleOut?: FleetStatus;
}

/**
 * The status is the whole host's (a probe asks about the service); with `permitted`, the names and errors are only
 * those of the toolsets that caller may reach.
 * @example
 * res.json(healthOf(host));
 */
export function healthOf(host: McpHost, permitted?: readonly string[], fleet?: Fleet): Health {
  const fleetStatus = fleet?.status();
  const degraded = host.extensionStatuses().some((e) => e.status === "failed") || host.unavailable().length > 0 || fleetStatus?.redis === "down";
  const failed = host
    .extensionStatuses(permitted)
    .filter((e) => e.status === "failed")
    .map((e) => ({ name: e.name, ...(e.code ? { code: e.code } : {}), ...(e.error ? { error: e.error } : {}) }));
  const unavailable = host.unavailable(permitted).map((u) => ({ server: u.server, phase: u.phase, code: u.code }));
  return {
    status: degraded ? "degraded" : "ok",
    service: host.name,
    extensions: { failed },
    upstreams: { unavailable },
    ...defined({ scaleOut: fleetStatus }),
  };
}
