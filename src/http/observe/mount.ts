/**
 * Where the app takes its observation (docs/design.md §18), so `createHostApp` changes by two lines: `observeEdge` gives
 * the edge's observer (request ids, the access line, HTTP metrics, the page's counters), which the app runs right
 * after the request target is made sane, and `routes` adds `/metrics` and the operator page before the not-found
 * answer. What is not asked for costs nothing per request:
 * with neither `observability` nor the page, nothing is mounted.
 */
import type express from "express";
import { McpHostError } from "../../errors.js";
import type { McpHost } from "../../host/host.js";
import { silentLogger } from "../../logger.js";
import { createObservability, type Observability } from "../../observe/observability.js";
import type { HostAuth } from "../auth/host-auth.js";
import type { HostAppOptions } from "../http-options.js";
import type { CallerLimits } from "../mcp/caller-limits.js";
import type { SelectionEndpoints } from "../mcp/selection-endpoints.js";
import { accessObserver, type EdgeStep } from "./access-observer.js";
import { metricsRoute } from "./metrics-route.js";
import { uiRoutes, type UiRouteOptions } from "./ui-routes.js";
import { defined } from "../../defined.js";

/** What `observeEdge` set up, for `observeRoutes`. */
export interface EdgeObservation {
  observability: Observability | undefined;
  /** The edge's observer, for the app to run first on every request (absent: nothing observes). */
  middleware: EdgeStep | undefined;
  openStreams(): number;
  /** Mounts `/metrics` (on this port) and the operator page (`endpointLinks`: the named endpoints it links to their cards). */
  routes(
    app: express.Express,
    auth: HostAuth | undefined,
    endpoints: SelectionEndpoints,
    limits: CallerLimits,
    endpointLinks?: UiRouteOptions["endpointLinks"],
  ): void;
}

/**
 * The operator page's path, or undefined when it is off.
 * @example
 * uiPathOf({ ui: { path: "/ops" } }) // "/ops"
 */
export function uiPathOf(options: HostAppOptions): string | undefined {
  if (options.ui === false) return undefined;
  const path = typeof options.ui === "object" ? options.ui.path : undefined;
  return path ?? "/";
}

/**
 * The path `/metrics` answers on (this port or its own).
 * @example
 * metricsPathOf({}) // "/metrics"
 */
export function metricsPathOf(options: HostAppOptions): string {
  return options.metrics?.path ?? "/metrics";
}

/** Refuses a `/metrics` that auth would leave open to every token. */
function checkMetrics(options: HostAppOptions): void {
  if (options.auth === undefined || options.observability?.metrics === undefined || options.metrics?.port !== undefined) return;
  if ((options.metrics?.scopes ?? []).length > 0) return;
  throw new McpHostError(
    "AUTH_CONFIG_INVALID",
    "metrics are on together with auth, but metrics.scopes is empty and metrics.port is not set: give /metrics the scopes a token needs (metrics.scopes), or serve it on a loopback port of its own (metrics.port)",
  );
}

/** The gateway's calls waiting for their client's next round, in all servers (when the app was told of upstreams). */
function pausedOf(options: HostAppOptions): Record<string, number> {
  if (options.upstreams === undefined) return {};
  return { gateway_paused_calls: options.upstreams().reduce((sum, s) => sum + (s.paused ?? 0), 0) };
}

/**
 * @example
 * const observation = observeEdge(host, options); … observation.routes(app, auth, endpoints, limits);
 */
export function observeEdge(host: McpHost, options: HostAppOptions): EdgeObservation {
  checkMetrics(options);
  const uiPath = uiPathOf(options);
  // The page draws the host's own counters: without an `observability`, a silent one keeps them.
  const observability =
    options.observability ??
    (uiPath === undefined ? undefined : createObservability({ logger: silentLogger, accessLog: false, auditLog: false, tracing: false }));
  const mcpPath = options.path ?? "/mcp";
  const edge =
    observability === undefined ? undefined : accessObserver(observability, { mcpPath, metricsPath: metricsPathOf(options), ...defined({ uiPath }) });
  const openStreams = edge?.openStreams ?? (() => 0);
  return {
    observability,
    middleware: edge?.middleware,
    openStreams,
    routes: (app, auth, endpoints, limits, endpointLinks) => {
      const metrics = observability?.metrics;
      observability?.watch({
        legacySessions: () => endpoints.sessions.size,
        tasks: () => host.tasks.counts(),
        listenStreams: openStreams,
        heldEntries: () => ({ ...endpoints.held(), ...limits.held(), ...pausedOf(options) }),
        extensionStatuses: () => host.extensionStatuses(),
      });
      if (metrics !== undefined && options.metrics?.port === undefined)
        app.get(metricsPathOf(options), ...metricsRoute(metrics, auth, options.metrics?.scopes ?? []));
      if (uiPath === undefined || observability === undefined) return;
      app.use(
        uiRoutes(host, auth, {
          path: uiPath,
          mcpPath,
          selection: options.selection ?? {},
          ...defined({ endpointLinks }),
          sources: {
            host,
            legacySessions: () => endpoints.sessions.size,
            openStreams,
            rates: () => observability.rates.slots(),
            ...defined({ upstreams: options.upstreams }),
          },
        }),
      );
    },
  };
}
