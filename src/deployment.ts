/**
 * The `mcp-host/host` entry, for deployments and for extension authors' in-process tests: build a host from
 * extensions, select and build toolsets, serve them over HTTP. It loads the MCP server SDK and express; the
 * contract an extension codes against stays in the root entry (`mcp-host`). Exactly what is exported here, by name.
 */
export { buildHost } from "./host/build-host.js";
export type { HostInput } from "./host/build-host.js";
export { McpHost } from "./host/host.js";
export { connectInProcess } from "./host/in-process.js";
export type { InProcessConnection, InProcessOptions } from "./host/in-process.js";
export type { OfferChange, OfferedTool, HostContents, BuildOptions } from "./host/host.js";
export type { HostOptions } from "./host/host-options.js";
export type { BuiltServer, ServerFactory, ServerFactoryParts, NodeHandler } from "./host/built-server.js";
export type { HostDescription, ToolsetDescription, ExtensionDescription, UnavailableDescription } from "./host/describe.js";
export type { ExtensionStatus } from "./host/extensions/extension-record.js";
export type { DeclaredToolset } from "./host/extensions/toolset-catalog.js";
export type { ServeRequestInfo } from "./host/protocol/request-context.js";
export {
  parseSelection,
  isEmptySelection,
  resolveSelection,
  selectionKey,
  selectionFromRequest,
  formatSelection,
  assertNoUnknownToolsets,
} from "./host/selection.js";
export type { Selection, ParseSelectionOptions, SelectionSource } from "./host/selection.js";
export { discoverExtensions } from "./host/loading/discover.js";
export type { DiscoveredExtension, ExtensionLoadFailure } from "./host/loading/discover.js";
export { loadDiscovered } from "./host/loading/load.js";
export type { LoadResult, LoadedExtension } from "./host/loading/load.js";
export { loadExtensions, extensionNamesFromEnv } from "./host/loading/load-extensions.js";
export type { LoadExtensionsOptions } from "./host/loading/load-extensions.js";

export { createHostApp } from "./http/app.js";
export type { HostApp } from "./http/app.js";
export { listenHost } from "./http/listen.js";
export type { ListenOptions, ListeningHost } from "./http/listen.js";
export type { HostAppOptions, SelectionOptions, LegacyServingOptions, LegacyMode } from "./http/http-options.js";
export { healthOf } from "./http/health.js";
export type { Health } from "./http/health.js";
export { mcpCors } from "./http/mcp/cors.js";
export { tokenVerifierFrom } from "./http/auth/host-auth-options.js";
export type { HostAuthOptions, HostIntrospectionOptions } from "./http/auth/host-auth-options.js";

// Token verification building blocks (docs/design.md §9): for the `auth` option's `verifier` and a serverFactory's chain.
export {
  bearerAuth,
  callerOf,
  customVerifier,
  introspectionVerifier,
  jwtVerifier,
  protectedResourceMetadata,
  insufficientScope,
  tokenRefused,
  verifierUnavailable,
  toAuthInfo,
  asOAuthTokenVerifier,
} from "./http/auth/index.js";
export type {
  BearerAuthOptions,
  TokenVerifier,
  VerifiedCaller,
  JwtVerifierOptions,
  IntrospectionVerifierOptions,
  CustomVerify,
  CustomVerifierOptions,
  AuthInfoLike,
  ProtectedResourceMetadataOptions,
  TokenRefusalReason,
} from "./http/auth/index.js";

// Logs, metrics and traces (docs/design.md §18): the listeners behind `HostOptions.observer`, the pino logger, the seam's shapes.
export { createObservability } from "./observe/observability.js";
export type { Observability, ObservabilityOptions, HttpRequestSample, GatewayCallObserver } from "./observe/observability.js";
export { createPinoLogger } from "./observe/pino-logger.js";
export type { LogFormat, PinoLogger, PinoLoggerOptions } from "./observe/pino-logger.js";
export type { LogStream } from "./observe/log-stream.js";
export { maskSecrets } from "./observe/mask-secrets.js";
export type { HostMetrics, GaugeSources } from "./observe/metrics.js";
export type {
  HostObserver,
  ObservedRequest,
  ObservedEnd,
  ObservedBuild,
  ObservedTool,
  RequestObservation,
  ToolCallOutcome,
} from "./host/observer.js";
export { markToolOutcome, toolOutcomeOf } from "./host/protocol/tool-outcome.js";

export { cleanName, qualifiedName } from "./names.js";
// SDK errors a handler may also throw directly (the root's invalidParams / resourceNotFound are the light form).
export { ProtocolError, ProtocolErrorCode, ResourceNotFoundError } from "@modelcontextprotocol/server";
