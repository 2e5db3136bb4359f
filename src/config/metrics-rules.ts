/**
 * The rule of `metrics:` one key's schema cannot express (docs/design.md §18): with `auth:` on, `/metrics` on the MCP
 * port would otherwise answer every valid token — it needs the scopes a token must carry (`metrics.scopes`), or a
 * loopback port of its own (`metrics.port`), where reaching the port is the credential.
 */
import type { PathProblem } from "./problems.js";
import { isRecord } from "./schema-parts.js";

/**
 * @example
 * metricsProblems({ auth: { … }, metrics: {} }) // [{ code: "CONFIG_INVALID", path: ["metrics", "scopes"], … }]
 */
export function metricsProblems(config: Record<string, unknown>): PathProblem[] {
  const metrics = config.metrics;
  if (config.auth === undefined || !isRecord(metrics) || metrics.port !== undefined) return [];
  if (Array.isArray(metrics.scopes) && metrics.scopes.length > 0) return [];
  return [
    {
      code: "CONFIG_INVALID",
      path: ["metrics", "scopes"],
      message:
        "with auth on, /metrics needs the scopes a token must carry to read it (e.g. scopes: [metrics:read]), or a loopback port of its own (metrics.port)",
    },
  ];
}
