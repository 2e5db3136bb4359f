/**
 * Which tools are destructive, judged once per listing from the tool's annotations (the server's own claim):
 * `destructiveHint: true` is destructive; with no destructiveHint, `readOnlyHint: false` is too; a tool with neither
 * is not — unless the server is not trusted (`unannotated: "destructive"`). Approval (call/approval.ts) reads it.
 */
import type { Tool } from "@modelcontextprotocol/client";

/**
 * Judges a tool by its annotations.
 * @example
 * isDestructive({ name: "rm", inputSchema: { type: "object" }, annotations: { readOnlyHint: false } }) // true
 */
export function isDestructive(tool: Tool, unannotated: "safe" | "destructive" = "safe"): boolean {
  const hints = tool.annotations ?? {};
  if (typeof hints.destructiveHint === "boolean") return hints.destructiveHint;
  if (hints.readOnlyHint === false) return true;
  if (hints.readOnlyHint === true) return false;
  return unannotated === "destructive";
}
