/**
 * mcp-host's public API: exactly what is exported here, by name. Everything else is internal.
 */
export { McpHostError, isMcpHostError, ERROR_CODES } from "./errors.js";
export type { McpHostErrorCode, McpHostErrorDetails } from "./errors.js";
export { createLogger, silentLogger, memoryLogger, formatLogRecord } from "./logger.js";
export type { Logger, LogLevel, LogRecord } from "./logger.js";
export { cleanName, qualifiedName } from "./names.js";

export { defineExtension, defineTool } from "./extension/define.js";
export { validateExtension } from "./extension/validate.js";
export type {
  McpExtension,
  ExtensionFactory,
  ExtensionContext,
  OfferChanges,
  DynamicOffer,
  ToolsetSpec,
  ToolSpec,
  ToolHandler,
  ToolResult,
  ToolContext,
  RequestContext,
  SelectionView,
  ResourceSpec,
  ResourceTemplateSpec,
  PromptSpec,
  CompleteFn,
  ToolExtension,
  ServerDraft,
  DraftTool,
  AuthStrategy,
} from "./extension/types.js";
export type { JsonSchemaObject, SchemaInput, InferArgs } from "./extension/schema-types.js";

export { buildHost } from "./host/build-host.js";
export { McpHost } from "./host/host.js";
export type { OfferChange, OfferedTool } from "./host/host.js";
export type { HostOptions, LegacyServingOptions } from "./host/host-options.js";
export type { BuiltServer, BuiltCore, ServerFactory, ServerFactoryParts, NodeHandler } from "./host/built-server.js";
export type { HostDescription, ToolsetDescription, ExtensionDescription } from "./host/describe.js";
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
export { loadExtensions, extensionNamesFromEnv } from "./host/loading/load-extensions.js";
export type { LoadExtensionsOptions } from "./host/loading/load-extensions.js";
export { createHostApp } from "./http/app.js";
export type { HostApp } from "./http/app.js";
export { listenHost } from "./http/listen.js";
export type { ListenOptions, ListeningHost } from "./http/listen.js";
export type { HostAppOptions, SelectionOptions } from "./http/http-options.js";
export { healthOf } from "./http/health.js";
export type { Health } from "./http/health.js";
export { serveSelections } from "./http/selection-handler.js";
export type { SelectionServing } from "./http/selection-handler.js";
export type { LoadResult, LoadedExtension } from "./host/loading/load.js";

// Multi-round-trip helpers from the SDK, re-exported so a tool can ask the client for input in both eras.
export { inputRequired, acceptedContent, inputResponse } from "@modelcontextprotocol/server";
// Errors a handler throws to tell the client it asked for something wrong (passed through as JSON-RPC errors).
export { ProtocolError, ProtocolErrorCode, ResourceNotFoundError } from "@modelcontextprotocol/server";

// The registry: many upstream MCP servers as one tool host (docs/registry.md).
export { McpRegistry, ServerSpec, checkServerUrl, toText, registryErrorCode, ERROR_META_KEY, isDestructive, WATCH_BUFFER } from "./registry/index.js";
export type {
  RegistryErrorMeta,
  WatchStream,
  ApprovalHandler,
  ApprovalPolicy,
  ApprovalRequest,
  CallToolOptions,
  CustomServerSpec,
  ElicitationHandler,
  EraPreference,
  HttpServerOptions,
  HttpServerSpec,
  RegistryOptions,
  RegistryPrompt,
  RegistryResource,
  RegistryResourceTemplate,
  RegistryTool,
  RegistryRequestOptions,
  RootsHandler,
  SamplingHandler,
  ServerOptions,
  ServerRequestContext,
  ServerRequestHandlers,
  ServerRequestKind,
  ServerRequestRelay,
  ServerSpecification,
  ServerStatus,
  StdioServerOptions,
  StdioServerSpec,
  UnavailableServer,
  UpstreamRequest,
  WatchEvent,
} from "./registry/index.js";
