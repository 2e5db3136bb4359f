/**
 * The registry's public API: McpRegistry over many upstream MCP servers, the ServerSpec helpers, toText, and the
 * shapes they use. src/index.ts re-exports exactly these names.
 */
export { McpRegistry } from "./registry.js";
export { ServerSpec, checkServerUrl } from "./server-spec.js";
export { toText, registryErrorCode, ERROR_META_KEY } from "./call/results.js";
export type { RegistryErrorMeta } from "./call/results.js";
export { isDestructive } from "./catalog/destructive.js";
export { globMatcher } from "./catalog/glob.js";
export { isInputRequired } from "./call/input-required.js";
export { WATCH_BUFFER } from "./catalog/watch.js";
export type { WatchStream } from "./catalog/watch.js";
export type {
  ApprovalHandler,
  ApprovalPolicy,
  ApprovalRequest,
  CallToolOptions,
  CustomServerSpec,
  ElicitationHandler,
  EraPreference,
  HttpServerOptions,
  HttpServerSpec,
  InputMode,
  InputRoundOptions,
  MaybeInputRequired,
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
} from "./types.js";
