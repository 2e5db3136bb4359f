/**
 * The one place the benchmark suite imports mcp-host from: the entries a user would import (the contract from the
 * root, the deployment API from `mcp-host/host`), plus the one internal the per-request bench reads.
 */
export { defineExtension, defineTool, silentLogger } from "../../src/index.js";
export type { McpExtension, ToolSpec } from "../../src/index.js";
export { buildHost, listenHost, parseSelection } from "../../src/entries/host.js";
export { connectInProcess } from "../../src/entries/testing.js";
export type { BuiltServer, ListeningHost, McpHost } from "../../src/entries/host.js";
export { compiledOf } from "../../src/host/built-server.js";
