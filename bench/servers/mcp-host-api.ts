/**
 * The one place the benchmark suite imports mcp-host from. Everything under bench/ takes the host through this
 * file, so when the deployment API moves (src/index.ts → src/host/index.ts) only these lines change.
 */
export { buildHost, defineExtension, defineTool, listenHost, parseSelection, silentLogger } from "../../src/index.js";
export type { BuiltServer, ListeningHost, McpExtension, McpHost, ToolSpec } from "../../src/index.js";
