/**
 * The observability sections (docs/design.md §18): `logging:` (the log format, the level, whether tool calls' arguments
 * reach the audit line), `metrics:` (off unless present: the `/metrics` path, a loopback port of its own, the scopes
 * a token needs with auth on) and `tracing:` (OpenTelemetry spans, a no-op until the deployment registers an SDK).
 */
import { z } from "zod";
import { ranged, scopeToken } from "./schema-parts.js";

const path = z.string().regex(/^\/[^?#\s]*$/, { error: 'must start with "/" and have no spaces, "?" or "#"' });

/**
 * `logging:`.
 * @example
 * loggingSchema.parse({}).format // "auto"
 */
export const loggingSchema = z.strictObject({
  format: z.enum(["auto", "json", "pretty"]).default("auto"),
  level: z.enum(["debug", "info", "warn", "error"]).optional(),
  includeArguments: z.boolean().default(false),
  access: z.boolean().default(true),
  audit: z.boolean().default(true),
});

/**
 * `metrics:`; absent means no metrics.
 * @example
 * metricsSchema.parse({}).path // "/metrics"
 */
export const metricsSchema = z.strictObject({
  path: path.default("/metrics"),
  port: ranged("metrics.port").optional(),
  scopes: z.array(scopeToken).default([]),
  defaultMetrics: z.boolean().default(true),
});

/**
 * `tracing:`.
 * @example
 * tracingSchema.parse({}).enabled // true
 */
export const tracingSchema = z.strictObject({
  enabled: z.boolean().default(true),
});

/**
 * The `http.ui` and `http.uiPath` keys.
 * @example
 * z.strictObject({ ...uiKeys }).parse({}) // { ui: true, uiPath: "/" }
 */
export const uiKeys = {
  ui: z.boolean().default(true),
  uiPath: path.default("/"),
};
