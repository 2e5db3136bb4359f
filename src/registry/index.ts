/**
 * The registry as the rest of src/ (the gateway, src/upstream/) uses it: McpRegistry over many upstream MCP servers,
 * the ServerSpec helpers, toText, the shapes they use, and the helpers the gateway shares with it (glob matching,
 * the destructive-tool test, the input-required test, the watch buffer). The public API is the smaller
 * `mcp-host/registry` entry, src/entries/registry.ts.
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
// Every shape of the registry's API (registry/types.ts holds those and nothing else).
export type * from "./types.js";
