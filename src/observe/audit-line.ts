/**
 * The audit line of one tool call (docs/design.md §18): which tool, of which toolset and extension (or upstream server),
 * through what (`via: "call_tool"` in search mode), who called it, how it ended and how long it took — and its arguments only when the deployment asked for them
 * (`logging.includeArguments`), with values under secret-looking keys masked. One line per call, at info.
 */
import type { Logger } from "../logger.js";
import type { ObservedEnd, ObservedRequest, TaskEvent } from "../host/observer.js";
import { callerLabel } from "../tasks/task.js";
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
    ...(tool === undefined ? {} : { toolset: tool.toolset, extension: tool.extension, ...(upstream ? { server: tool.toolset } : {}) }),
    outcome,
    durationMs,
    era: request.era,
    // via: the search-mode tool (call_tool) the client called to reach this one.
    ...defined({ via: request.via, subject: request.subject, sessionId: request.sessionId, errorCode: ended.errorCode }),
    ...(ended.error === undefined || outcome === "ok" ? {} : { error: ended.error }),
    ...(options.includeArguments && request.arguments !== undefined ? { arguments: maskSecrets(request.arguments) } : {}),
  });
}

/**
 * The audit line of an MCP task's start or end (docs/tasks.md): its id (a prefix), tool, toolset and extension, its
 * caller, and at its end its status and how long it ran — never its arguments or its result.
 * @example
 * auditTask(logger.child("audit"), { task, phase: "ended", durationMs: 5012 });
 */
export function auditTask(logger: Logger, event: TaskEvent): void {
  const { task } = event;
  const id = task.taskId.slice(0, 8);
  const fields = { taskId: id, tool: task.tool, toolset: task.toolset, extension: task.extension, caller: callerLabel(task.owner), instance: task.instance };
  if (event.phase === "started") {
    logger.info(`task ${id} of ${task.tool} started`, fields);
    return;
  }
  const durationMs = Math.round((event.durationMs ?? 0) * 1000) / 1000;
  logger.info(`task ${id} of ${task.tool} ended ${task.status} after ${durationMs.toFixed(0)} ms`, {
    ...fields,
    status: task.status,
    durationMs,
    ...(task.error === undefined ? {} : { errorCode: task.error.code }),
  });
}
