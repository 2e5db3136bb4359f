/**
 * The `mcp-host/registry` entry: `McpRegistry`, the client side that mounts many MCP servers (stdio subprocesses,
 * remote Streamable HTTP) behind one API, for agents that use it directly (docs/registry.md); `ServerSpec` and its
 * URL check; `toText` and the error code a refused call carries. Its helpers for the gateway stay inside
 * (src/registry/index.ts). Exactly what is exported here, by name.
 */
export { McpRegistry } from "../registry/registry.js";
export { ServerSpec, checkServerUrl } from "../registry/server-spec.js";
export { toText, registryErrorCode, ERROR_META_KEY } from "../registry/call/results.js";
export type { RegistryErrorMeta } from "../registry/call/results.js";
export type { WatchStream } from "../registry/catalog/watch.js";
export type { TaskMethod } from "../registry/forward/forwarder.js";
export type { Clock, ClockTimer } from "../clock.js";
export type { SecretRedactor } from "../secret-redactor.js";
// Every shape of the registry's API (registry/types.ts holds those and nothing else).
export type * from "../registry/types.js";
