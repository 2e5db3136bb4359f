/**
 * One `callTool`, start to finish: resolve the name (never guessing an ambiguous one), refuse denied tools, ask for
 * approval where the server's policy wants it, run the call under the registry's rules, and check structured output
 * against the tool's outputSchema. Every failure becomes an isError result naming the server and the tool.
 */
import type { CallToolResult, Client, Tool } from "@modelcontextprotocol/client";
import type { Logger } from "../../logger.js";
import type { RegistryIndex } from "../catalog/naming.js";
import type { Redactor } from "../redact.js";
import type { ForwardRequest } from "../forward/forwarder.js";
import { forwardableTool } from "../forward/forwardable.js";
import type { ApprovalHandler, CallToolOptions, ServerSpecification } from "../types.js";
import { askApproval, needsApproval } from "./approval.js";
import { isInputRequired, type InputLeg } from "./input-required.js";
import { UpstreamFailure, type LegOptions } from "./invoke.js";
import { errorResult } from "./results.js";
import type { InFlightCall } from "./server-requests.js";
import type { OutputChecks } from "./structured-output.js";

/** The parts of a server a call needs. */
export interface CallTarget {
  spec: ServerSpecification;
  /** The server's logger (its lines carry the server's name). */
  logger: Logger;
  /** For the failure details the server or its transport gave; never for the registry's framing. */
  redact: Redactor;
  /** The output validators of the listing the tool came from. */
  checks: OutputChecks;
}

/** How every message about one call starts. */
function subjectOf(tool: string, server: string): string {
  return `tool "${tool}" on server "${server}"`;
}

/** What runToolCall needs from the registry. */
export interface ToolCallDeps {
  index: RegistryIndex;
  upstreamOf: (server: string) => CallTarget;
  approve?: ApprovalHandler;
  structuredContent: "error" | "lenient";
  /** The idle and total limits that apply to a call on this server, for the timeout message. */
  limits: (spec: ServerSpecification, options: CallToolOptions) => { idle: number; total: number };
  invoke: (
    target: CallTarget,
    call: InFlightCall,
    mayRerun: boolean,
    send: (client: Client, leg: LegOptions, inputs: InputLeg) => Promise<unknown>,
  ) => Promise<CallToolResult>;
  /** Forwards the call on the connection's raw channel (present when the caller asked to); `fallback` is `invoke`. */
  forward?: (
    target: CallTarget,
    call: InFlightCall,
    mayRerun: boolean,
    request: ForwardRequest,
    fallback: () => Promise<CallToolResult>,
  ) => Promise<CallToolResult>;
}

function failureResult(deps: ToolCallDeps, target: CallTarget, tool: string, error: UpstreamFailure, options: CallToolOptions): CallToolResult {
  const server = target.spec.name;
  const where = { server, tool };
  const subject = subjectOf(tool, server);
  if (error.end === "idle" || error.end === "total") {
    const limits = deps.limits(target.spec, options);
    return errorResult("TOOL_TIMEOUT", `${subject} timed out after ${error.end === "idle" ? limits.idle : limits.total} ms`, where);
  }
  if (error.end === "caller") return errorResult("MCP_CALL_FAILED", `${subject} was cancelled by the caller`, where);
  const detail = target.redact(error.failure.detail);
  if (error.phase === "connect") return errorResult("MCP_SERVER_UNREACHABLE", `${subject} failed: the server could not be reached (${detail})`, where);
  if (error.failure.refused !== undefined) return errorResult(error.failure.refused, `${subject} failed: ${detail}`, where);
  const rerun = error.notRetried ? "; it may have run, so it was not retried" : "";
  return errorResult("MCP_CALL_FAILED", `${subject} failed: ${detail}${rerun}`, where);
}

/**
 * Runs one tool call for the registry.
 * @example
 * return runToolCall(deps, "git__status", {}, { signal });
 */
export async function runToolCall(deps: ToolCallDeps, name: string, args: Record<string, unknown>, options: CallToolOptions): Promise<CallToolResult> {
  const found = deps.index.resolveTool(name);
  if (found.kind === "unknown") return errorResult("MCP_TOOL_UNKNOWN", `no server offers a tool named "${name}"`, { tool: name });
  if (found.kind === "ambiguous") {
    return errorResult("MCP_TOOL_AMBIGUOUS", `tool "${name}" is offered by several servers; call one of: ${found.choices.join(", ")}`, { tool: name });
  }
  if (found.kind === "denied") {
    return errorResult("MCP_TOOL_DENIED", `${subjectOf(found.upstreamName, found.server)} is denied (deniedTools); the call was refused`, {
      server: found.server,
      tool: found.upstreamName,
    });
  }
  const tool = found.entry;
  const target = deps.upstreamOf(tool.server);
  const { spec } = target;
  const where = { server: spec.name, tool: tool.name };
  const policy = spec.approval ?? "never";
  if (needsApproval(policy, tool.destructive)) {
    const outcome = await askApproval([options.approve, spec.approve, deps.approve], {
      server: spec.name,
      tool: tool.name,
      upstreamName: tool.upstreamName,
      arguments: args,
      destructive: tool.destructive,
      policy,
    });
    if (!outcome.approved) {
      const subject = subjectOf(tool.name, spec.name);
      const why =
        outcome.reason === "no-handler"
          ? `${subject} needs approval (approval: "${policy}") and there is no approval handler to ask; the call was refused`
          : outcome.reason === "denied"
            ? `the call to ${subject} was not approved`
            : `the approval handler failed for ${subject} (${outcome.detail}); the call was refused`;
      return errorResult("MCP_TOOL_DENIED", why, where);
    }
  }
  const hints = tool.definition.annotations;
  const mayRerun = hints?.readOnlyHint === true || hints?.idempotentHint === true;
  let result: CallToolResult;
  const call = { server: spec.name, tool: tool.upstreamName, ...(options.onServerRequest ? { relay: options.onServerRequest } : {}) };
  const invoke = () => {
    const { outputSchema: _ignored, ...definition } = tool.definition; // header mirroring only: the registry checks output itself
    return deps.invoke(target, call, mayRerun, (client, leg, inputs) =>
      client.callTool({ name: tool.upstreamName, arguments: args, ...(options.meta ? { _meta: options.meta } : {}), ...inputs } as never, {
        ...leg,
        toolDefinition: definition as Tool,
      }),
    );
  };
  try {
    if (deps.forward !== undefined && forwardableTool(tool.definition)) {
      const params = {
        name: tool.upstreamName,
        arguments: args,
        ...(options.task ? { task: options.task } : {}),
        ...(options.meta ? { _meta: options.meta } : {}),
      };
      const request = { method: "tools/call" as const, name: tool.upstreamName, params, ...(options.extensions ? { extensions: options.extensions } : {}) };
      result = await deps.forward(target, call, mayRerun, request, invoke);
    } else result = await invoke();
  } catch (error) {
    if (error instanceof UpstreamFailure) return failureResult(deps, target, tool.name, error, options);
    throw error;
  }
  if (isInputRequired(result)) return result; // handed back for the caller to answer (inputRequired: "return")
  const violation = target.checks.check(tool.definition, result);
  if (!violation) return result;
  const mismatch = `returned structured content that does not match its outputSchema (keyword "${violation.keyword}": ${violation.message})`;
  if ((spec.structuredContent ?? deps.structuredContent) === "lenient") {
    target.logger.warn(`tool "${tool.name}" ${mismatch}`); // the logger names the server
    return result;
  }
  const message = `${subjectOf(tool.name, spec.name)} ${mismatch}`;
  return errorResult("MCP_OUTPUT_INVALID", violation.payload ? `${message}; payload: ${violation.payload}` : message, { ...where, payload: violation.payload });
}
