/**
 * The `mcp-host/host` entry, for deployments: load extensions, build a host, serve it over HTTP with logs, metrics
 * and traces. Token verification has its own entry (`mcp-host/auth`), the gateway (`mcp-host/gateway`) and the
 * config file (`mcp-host/config`) theirs; an extension's tests use `mcp-host/testing`. `McpHost` is a type here:
 * a host is made by `buildHost`, which checks what it is given. Exactly what is exported here, by name.
 */
export { buildHost } from "../host/build-host.js";
export type { HostInput } from "../host/build-host.js";
export type { McpHost, BuildOptions, HostContents, Listener, OfferChange, OfferedTool } from "../host/host.js";
export type { HostOptions } from "../host/host-options.js";
export type { SharedClaims } from "../host/protocol/used-states.js";
// MCP tasks (docs/tasks.md): where a deployment keeps them, their bounds, and what the observer hears of them.
export type { HostTaskOptions } from "../host/host-options.js";
export type { TaskStore, TaskSignal } from "../tasks/task-store.js";
export type { TaskLimits, TaskEvent } from "../tasks/task-board.js";
export type { StoredTask, TaskStatus, TaskError } from "../tasks/task.js";
export type { BuiltServer, ServerFactory, ServerFactoryParts, NodeHandler } from "../host/built-server.js";
export type { HostDescription, ToolsetDescription, ExtensionDescription, SelectionModifiers, UnavailableDescription } from "../host/describe.js";
export type { ExtensionStatus, FailureRecord } from "../host/extensions/extension-record.js";
export type { DeclaredToolset } from "../host/extensions/toolset-catalog.js";
export type { ServeRequestInfo } from "../host/protocol/request-context.js";
export type { ToolCallLimits } from "../host/protocol/tool-limits.js";
export { parseSelection, selectionFromRequest } from "../host/selection.js";
export type { Selection, ParseSelectionOptions, SelectionSource } from "../host/selection.js";
export { discoverExtensions } from "../host/loading/discover.js";
export type { DiscoveredExtension, DiscoverOptions, DiscoveryResult, ExtensionLoadFailure } from "../host/loading/discover.js";
export { loadDiscovered } from "../host/loading/load.js";
export type { LoadDiscoveredOptions, LoadResult, LoadedExtension } from "../host/loading/load.js";
export { loadExtensions, extensionNamesFromEnv } from "../host/loading/load-extensions.js";
export type { LoadExtensionsOptions } from "../host/loading/load-extensions.js";

export { createHostApp } from "../http/app.js";
export type { HostApp } from "../http/app.js";
export { listenHost } from "../http/listen.js";
export type { ListenOptions, ListeningHost } from "../http/listen.js";
export type { CallerLimitOptions, HostAppOptions, SelectionOptions, LegacyServingOptions, LegacyMode } from "../http/http-options.js";
export type { TrustProxySetting } from "../http/edge/client-address.js";
export type { ServerLimitOptions } from "../http/edge/server-limits.js";
export type { MetricsListener } from "../http/observe/metrics-route.js";
export type { HostAuthOptions, HostIntrospectionOptions } from "../http/auth/host-auth-options.js";
export { healthOf } from "../http/health.js";
export type { Health } from "../http/health.js";
export { mcpCors } from "../http/mcp/cors.js";
export type { CorsMiddleware } from "../http/mcp/cors.js";

// One instance of a fleet (docs/scale-out.md): events, the caller rate and the request-state key shared through Redis.
export { createFleet } from "../scale-out/fleet.js";
export type { Fleet, FleetOptions, FleetStatus, FleetEvent } from "../scale-out/fleet.js";

// Logs, metrics and traces (docs/design.md §18): the listeners behind `HostOptions.observer`, the pino logger, the seam's shapes.
export { createObservability } from "../observe/observability.js";
export type { Observability, ObservabilityOptions, HttpRequestSample, GatewayCallObserver } from "../observe/observability.js";
export { createPinoLogger } from "../observe/pino-logger.js";
export type { LogFormat, PinoLogger, PinoLoggerOptions } from "../observe/pino-logger.js";
export type { LogStream } from "../observe/log-stream.js";
export { maskSecrets } from "../observe/mask-secrets.js";
export type { HostMetrics, GaugeSources, HttpSample, ToolSample } from "../observe/metrics.js";
// The one redactor every output goes through (docs/security.md): pass your own to the host, the gateway or the registry.
export { createSecretRedactor } from "../secret-redactor.js";
export type { SecretRedactor } from "../secret-redactor.js";
export type { Clock, ClockTimer } from "../clock.js";
export type {
  HostObserver,
  ObservedRequest,
  ObservedEnd,
  ObservedBuild,
  ObservedTool,
  RequestObservation,
  ToolCallOutcome,
} from "../host/observer.js";

// SDK errors a handler may also throw directly (the root's invalidParams / resourceNotFound are the light form).
export { ProtocolError, ProtocolErrorCode, ResourceNotFoundError } from "@modelcontextprotocol/server";
