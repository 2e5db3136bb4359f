/**
 * The audit line of one tool call (docs/design.md §18): which tool, of which toolset and extension (or upstream server),
 * through what (`via: "call_tool"` in search mode), who called it, how it ended and how long it took — and its arguments only when the deployment asked for them
 * (`logging.includeArguments`), with values under secret-looking keys masked. One line per call, at info.
 */
import type { Logger } from "../logger.js";
import type { ObservedEnd, ObservedRequest } from "../host/observer.js";
import { maskSecrets } from "./mask-secrets.js";
import { defined } from "../defined.js";

export interface AuditOptions {
  includeArguments: boolean;
  /** The gateway extension's name: its tools' toolsets are upstream servers. */
  gatewayExtension?: string;
}

/**
 * @example
 * auditToolCall(logger.child("audit"), request, { durationMs: 3, outcome: "ok" }, { includeArguments: false });
 */
export function auditToolCall(logger: Logger, request: ObservedRequest, ended: ObservedEnd, options: AuditOptions): void {
  const tool = request.tool;
  const upstream = tool !== undefined && tool.extension === options.gatewayExtension;
  const durationMs = Math.round(ended.durationMs * 1000) / 1000;
  const outcome = ended.outcome ?? "ok";
  logger.info(`tool call ${request.toolName ?? "(unnamed)"} ${outcome} in ${durationMs.toFixed(1)} ms`, {
    tool: request.toolName,
    ...(tool === undefined ? {} : { toolset: tool.toolset, ...(upstream ? { server: tool.toolset } : { extension: tool.extension }) }),
    outcome,
    durationMs,
    era: request.era,
    // via: the search-mode tool (call_tool) the client called to reach this one.
    ...defined({ via: request.via, subject: request.subject, sessionId: request.sessionId, errorCode: ended.errorCode }),
    ...(ended.error === undefined || outcome === "ok" ? {} : { error: ended.error }),
    ...(options.includeArguments && request.arguments !== undefined ? { arguments: maskSecrets(request.arguments) } : {}),
  });
}
