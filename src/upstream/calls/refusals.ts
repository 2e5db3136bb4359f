/**
 * The gateway's own `isError` results, in the registry's shape (the code under `_meta["mcp-host/error"]`, read with
 * `registryErrorCode`), and the check that a client can answer what an upstream asks of it.
 */
import type { CallToolResult, ClientCapabilities } from "@modelcontextprotocol/client";
import type { McpHostErrorCode } from "../../errors.js";
import { ERROR_META_KEY } from "../../registry/index.js";

/**
 * @example
 * refusal("MCP_TOOL_DENIED", 'the call to tool "wipe" on server "fs" was not approved', "fs", "wipe")
 */
export function refusal(code: McpHostErrorCode, message: string, server: string, tool: string): CallToolResult {
  return { content: [{ type: "text", text: message }], isError: true, _meta: { [ERROR_META_KEY]: { code, server, tool } } };
}

const CAPABILITY_OF: Record<string, keyof ClientCapabilities> = {
  "elicitation/create": "elicitation",
  "sampling/createMessage": "sampling",
  "roots/list": "roots",
};

/**
 * The kinds among `methods` the client did not declare it can answer (empty: it can answer all).
 * @example
 * unanswerable(ctx.clientCapabilities, ["elicitation/create"]) // ["elicitation"] for a client without elicitation
 */
export function unanswerable(capabilities: ClientCapabilities | undefined, methods: readonly string[]): string[] {
  const missing = methods.map((m) => CAPABILITY_OF[m] ?? m).filter((kind) => capabilities?.[kind as keyof ClientCapabilities] === undefined);
  return [...new Set(missing)];
}
