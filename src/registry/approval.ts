/**
 * Which tools are destructive, and which calls need someone's approval before they run. The annotations are the
 * server's own claim: `destructiveHint: true` is destructive; with no destructiveHint, `readOnlyHint: false` is too;
 * a tool with neither is not — unless the server is not trusted (`unannotated: "destructive"`).
 */
import type { Tool } from "@modelcontextprotocol/client";
import { messageOf } from "../errors.js";
import type { ApprovalHandler, ApprovalPolicy, ApprovalRequest } from "./types.js";

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

/**
 * True when a call needs approval under the server's policy.
 * @example
 * needsApproval("destructive", true) // true
 */
export function needsApproval(policy: ApprovalPolicy, destructive: boolean): boolean {
  return policy === "always" || (policy === "destructive" && destructive);
}

/** The outcome of asking: approved, refused (with why), or nobody to ask. */
export type ApprovalOutcome = { approved: true } | { approved: false; reason: "denied" | "no-handler" | "handler-failed"; detail?: string };

/**
 * Asks the first handler present (per call, then server, then registry); a throw or a non-true answer is a refusal.
 * @example
 * await askApproval([callOptions.approve, spec.approve, options.approve], request)
 */
export async function askApproval(handlers: ReadonlyArray<ApprovalHandler | undefined>, request: ApprovalRequest): Promise<ApprovalOutcome> {
  const handler = handlers.find((h) => typeof h === "function");
  if (!handler) return { approved: false, reason: "no-handler" };
  try {
    return (await handler(request)) === true ? { approved: true } : { approved: false, reason: "denied" };
  } catch (error) {
    return { approved: false, reason: "handler-failed", detail: messageOf(error) };
  }
}
