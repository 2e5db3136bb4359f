/**
 * Results. Upstream results pass through untouched (the gateway re-serves them); the registry's own failures are
 * isError results that say which server and tool, carrying an error code in `_meta` for programs. `toText` is for
 * agents that want plain text: every block is kept, non-text blocks as short placeholders.
 */
import type { CallToolResult, ContentBlock, GetPromptResult, ReadResourceResult } from "@modelcontextprotocol/client";
import { ERROR_META_KEY, type McpHostErrorCode } from "../../errors.js";

export { ERROR_META_KEY };

/** What the registry puts under `_meta["mcp-host/error"]` of its own error results. */
export interface RegistryErrorMeta {
  code: McpHostErrorCode;
  server?: string;
  tool?: string;
  /** For MCP_OUTPUT_INVALID: the raw structured content as JSON, cut to 2 KiB. */
  payload?: string;
}

/**
 * An isError result made by the registry (never by the upstream).
 * @example
 * errorResult("MCP_TOOL_UNKNOWN", 'no server offers a tool named "x"')
 */
export function errorResult(code: McpHostErrorCode, message: string, where: Omit<RegistryErrorMeta, "code"> = {}): CallToolResult {
  const meta: RegistryErrorMeta = { code, ...where };
  return { content: [{ type: "text", text: message }], isError: true, _meta: { [ERROR_META_KEY]: meta } };
}

/**
 * The code of an error result the registry made, or undefined for an upstream's own result.
 * @example
 * registryErrorCode(await registry.callTool("nosuch")) // "MCP_TOOL_UNKNOWN"
 */
export function registryErrorCode(result: CallToolResult): McpHostErrorCode | undefined {
  const meta = result._meta?.[ERROR_META_KEY] as RegistryErrorMeta | undefined;
  return meta?.code;
}

function base64Bytes(data: string): number {
  const clean = data.replace(/\s/g, "");
  const padding = clean.endsWith("==") ? 2 : clean.endsWith("=") ? 1 : 0;
  return Math.max(0, Math.floor((clean.length * 3) / 4) - padding);
}

function resourceText(resource: { uri: string; mimeType?: string; text?: unknown; blob?: unknown }): string {
  if (typeof resource.text === "string") return resource.text;
  const size = typeof resource.blob === "string" ? base64Bytes(resource.blob) : 0;
  return `[resource: ${resource.mimeType ?? "application/octet-stream"}, ${size} bytes]`;
}

function blockText(block: ContentBlock): string {
  switch (block.type) {
    case "text":
      return block.text;
    case "image":
    case "audio":
      return `[${block.type}: ${block.mimeType}, ${base64Bytes(block.data)} bytes]`;
    case "resource":
      return resourceText(block.resource);
    case "resource_link":
      return `[resource link: ${block.name} ${block.uri}]`;
    default:
      return `[${(block as { type?: string }).type ?? "unknown"} content]`;
  }
}

/**
 * Flattens a result to text: one text block is its text, several blocks are joined with `\n`, non-text blocks become
 * placeholders such as `[image: image/png, 5 bytes]` (never dropped). A tool result with no content but structured
 * content gives that as JSON. Resource contents and prompt messages flatten the same way.
 * @example
 * toText({ content: [{ type: "text", text: "a" }, { type: "image", data: "aGVsbG8=", mimeType: "image/png" }] })
 * // "a\n[image: image/png, 5 bytes]"
 */
export function toText(result: CallToolResult | ReadResourceResult | GetPromptResult): string {
  if ("contents" in result && Array.isArray(result.contents)) return result.contents.map((c) => resourceText(c)).join("\n");
  if ("messages" in result && Array.isArray(result.messages)) return result.messages.map((m) => blockText(m.content as ContentBlock)).join("\n");
  const tool = result as CallToolResult;
  const content = tool.content ?? [];
  if (content.length === 0 && tool.structuredContent !== undefined) return JSON.stringify(tool.structuredContent);
  return content.map(blockText).join("\n");
}
