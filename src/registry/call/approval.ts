/**
 * Which calls need someone's approval before they run, and asking for it: under a server's policy (`"never"`,
 * `"destructive"`, `"always"`), the first handler present (per call, then server, then registry) decides; a throw
 * or anything but `true` is a refusal. Whether a tool is destructive was judged at listing (catalog/destructive.ts).
 */
import { messageOf } from "../../errors.js";
import type { ApprovalHandler, ApprovalPolicy, ApprovalRequest } from "../types.js";

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
