/**
 * Runs one `tools/call` against a build's tables: route the name, validate the arguments with the precompiled
 * validator, run the (extended) handler under its timeout, and check structured output. A handler that throws
 * or times out gives an `isError` result; only an unknown tool is a protocol error.
 */
import { ProtocolError, ProtocolErrorCode, type CallToolResult, type InputRequiredResult, type Server, type ServerContext } from "@modelcontextprotocol/server";
import { extensionError, isMcpHostError, messageOf, type McpHostErrorCode } from "../../errors.js";
import type { TaskControl } from "../../extension/types.js";
import type { Clock } from "../../clock.js";
import { raceTimeout, type RaceOutcome } from "../../timeout.js";
import type { Logger } from "../../logger.js";
import type { BuildTables, CompiledTool } from "../build/build-tables.js";
import type { ToolActivity } from "../monitor/tool-activity.js";
import { clientCapabilitiesOf, requestContext, toolContext, type ServeRequestInfo } from "./request-context.js";
import { runTaskable } from "./task-call.js";
import type { TaskBoard } from "../../tasks/task-board.js";
import { declaresTasks, missingTasksCapability } from "../../tasks/tasks-extension.js";
import { isInputRequired, openIncoming, sealOutgoing, type RequestStateSealer } from "./request-state.js";
import { resultProblem, type ToolCallGate } from "./tool-limits.js";
import { markToolOutcome } from "./tool-outcome.js";
import { defined } from "../../defined.js";

export interface CallToolDeps {
  tables: BuildTables;
  logger: Logger;
  defaultTimeoutMs: number;
  /** What the timeout runs on (the host's clock). */
  clock: Clock;
  requestState: RequestStateSealer;
  /** Records calls on the main thread for the event-loop monitor. */
  activity?: ToolActivity;
  /** Calls of one tool at once, and the largest result sent (absent: no limits). */
  gate?: ToolCallGate;
  /** The host's tasks: a task-supporting tool's call may become one (docs/tasks.md). */
  tasks?: TaskBoard;
}

/** Errors of an isolated call that keep their own code in the log (a limit, a busy pool, a worker that failed). */
const ISOLATION_CODES = new Set<McpHostErrorCode>(["TOOL_CPU_LIMIT", "TOOL_HEAP_LIMIT", "TOOL_WORKERS_BUSY", "TOOL_ISOLATION_FAILED"]);

function failureOf(tool: CompiledTool, error: unknown): { code: McpHostErrorCode; message: string } {
  if (isMcpHostError(error) && ISOLATION_CODES.has(error.code)) return { code: error.code, message: `[extension ${tool.extension}] ${error.message}` };
  const failure = extensionError("TOOL_HANDLER_FAILED", tool.extension, `tool "${tool.name}" threw`, error);
  return { code: failure.code, message: failure.message };
}

/** Each extension's handler logger, made once per host logger (a child logger is immutable, so one serves every call). */
const handlerLoggers = new WeakMap<Logger, Map<string, Logger>>();

function handlerLoggerOf(logger: Logger, extension: string): Logger {
  let children = handlerLoggers.get(logger);
  if (children === undefined) {
    children = new Map();
    handlerLoggers.set(logger, children);
  }
  let child = children.get(extension);
  if (child === undefined) {
    child = logger.child(extension, { extension });
    children.set(extension, child);
  }
  return child;
}

/** What the host's log lines about a tool's call name (made only when a line is written). */
function aboutOf(tool: CompiledTool): { extension: string; tool: string } {
  return { extension: tool.extension, tool: tool.name };
}

function errorResult(text: string): CallToolResult {
  return { content: [{ type: "text", text }], isError: true };
}

function unknownTool(name: string, tables: BuildTables): ProtocolError {
  const available = tables.tools.map((t) => t.name);
  const shown =
    available.length === 0 ? "none on this selection" : available.slice(0, 30).join(", ") + (available.length > 30 ? `, … (${available.length} in all)` : "");
  const missing = tables.missing.get(name);
  const why = missing
    ? `Its extension "${missing.extension}" failed to start (${missing.code}), so the tool is not served; /healthz and list_server_toolsets say why.`
    : "A tool outside this URL's toolsets is not callable here.";
  return new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool "${name}". Available: ${shown}. ${why}`, { requested: name });
}

/** Runs the handler with a signal that the caller's cancellation and the tool's own budget both abort. */
async function runWithTimeout(
  tool: CompiledTool,
  run: (signal: AbortSignal) => unknown,
  parent: AbortSignal,
  timeoutMs: number,
  clock: Clock,
): Promise<RaceOutcome<unknown>> {
  const controller = new AbortController();
  const onAbort = () => controller.abort(parent.reason);
  parent.addEventListener("abort", onAbort, { once: true });
  try {
    const started = run(controller.signal);
    // A handler that answered synchronously is done before any timer could fire: there is nothing to race.
    if (!isThenable(started)) return { timedOut: false, value: started };
    return await raceTimeout(Promise.resolve(started), timeoutMs, clock, () =>
      controller.abort(new Error(`tool "${tool.name}" timed out after ${timeoutMs} ms`)),
    );
  } finally {
    parent.removeEventListener("abort", onAbort);
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (typeof value === "object" || typeof value === "function") && value !== null && typeof (value as PromiseLike<unknown>).then === "function";
}

function hasOutputToCheck(tool: CompiledTool, result: CallToolResult): boolean {
  return tool.output !== undefined && tool.validateOutput === true && !result.isError;
}

async function checkOutput(tool: CompiledTool, result: CallToolResult): Promise<CallToolResult> {
  if (!tool.output || !tool.validateOutput || result.isError) return result;
  if (result.structuredContent === undefined) {
    return errorResult(`tool "${tool.name}" declares an output schema but returned no structured content`);
  }
  const outcome = await tool.output.validate(result.structuredContent);
  if (outcome.ok) return result;
  return errorResult(`tool "${tool.name}" returned structured content that does not match its output schema: ${outcome.message}`);
}

/**
 * @example
 * server.setRequestHandler("tools/call", (req, sdk) => callTool(deps, req.params, sdk, server, info));
 */
export async function callTool(
  deps: CallToolDeps,
  params: { name: string; arguments?: Record<string, unknown> },
  sdk: ServerContext,
  server: Server,
  info: ServeRequestInfo,
): Promise<CallToolResult | InputRequiredResult> {
  const tool = deps.tables.toolByName.get(params.name);
  if (!tool) throw unknownTool(params.name, deps.tables);
  if (tool.dispatches && deps.tables.catalogue !== undefined) return callThrough(deps, deps.tables.catalogue, tool, params, sdk, server, info);
  // A tool that runs only as a task refuses a client that cannot take one, before anything of it runs (SEP-2663).
  const asTask = tool.taskSupport !== undefined && deps.tasks !== undefined && declaresTasks(clientCapabilitiesOf(sdk, server, info));
  if (tool.taskSupport === "required" && !asTask) throw missingTasksCapability(`tool "${tool.name}" runs only as a task`);
  // A retry's state must be this caller's, for this tool (by its listed name, whichever alias was called): else -32602
  // before anything runs. A first round (no state) takes no await here.
  const state = sdk.mcpReq.requestState() === undefined ? undefined : await openIncoming(deps.requestState, { sdk, info, target: tool.name });
  const validating = tool.input.validate(params.arguments ?? {});
  const validated = isThenable(validating) ? await validating : validating;
  if (!validated.ok) return markToolOutcome(errorResult(`Invalid arguments for tool "${tool.name}": ${validated.message}`), "refused");
  // At most so many calls of one tool run at once; a call beyond waits briefly for a turn, then is refused.
  let release: (() => void) | undefined;
  try {
    // A free turn is taken at once; only a call that must wait for one waits on a promise.
    release = deps.gate === undefined ? undefined : (deps.gate.tryEnter(tool.extension, tool.name) ?? (await deps.gate.enter(tool.extension, tool.name)));
  } catch (error) {
    deps.logger.warn(`[extension ${tool.extension}] ${messageOf(error)}`, { code: "TOOL_CONCURRENCY_LIMIT", ...aboutOf(tool) });
    return markToolOutcome(errorResult(messageOf(error)), "refused");
  }
  const args = validated.value as Record<string, unknown>;
  const request = { sdk, server, info, state };
  if (asTask) return runTaskable({ deps, board: deps.tasks!, tool, args, request, release: () => release?.() });
  try {
    return await runTool(deps, tool, args, request);
  } finally {
    release?.();
  }
}

/**
 * Search mode's `call_tool`: its own arguments are checked like any tool's, then the tool they name is called exactly
 * as a direct `tools/call` of it would be — over the catalogue, so an unknown name (or one outside the caller's
 * toolsets) fails as an unknown tool does, and invalid arguments give that tool's own `isError`. Request state is
 * bound to the real tool, so the retry of a paused call goes through `call_tool` again and opens there.
 */
async function callThrough(
  deps: CallToolDeps,
  catalogue: BuildTables,
  dispatcher: CompiledTool,
  params: { name: string; arguments?: Record<string, unknown> },
  sdk: ServerContext,
  server: Server,
  info: ServeRequestInfo,
): Promise<CallToolResult | InputRequiredResult> {
  const validated = dispatcher.input.validate(params.arguments ?? {}) as { ok: true; value: unknown } | { ok: false; message: string };
  if (!validated.ok) return markToolOutcome(errorResult(`Invalid arguments for tool "${dispatcher.name}": ${validated.message}`), "refused");
  const target = validated.value as { name: string; arguments?: Record<string, unknown> };
  return callTool({ ...deps, tables: catalogue }, { name: target.name, ...defined({ arguments: target.arguments }) }, sdk, server, info);
}

/** The request a tool runs for: the SDK's context and server, the host's facts, and the state the retry carried. */
export interface ToolRequest {
  sdk: ServerContext;
  server: Server;
  info: ServeRequestInfo;
  state: unknown;
}

/** How one run of a handler ended: it threw, it ran out of time, or it returned something. */
export type HandlerOutcome = { kind: "threw"; error: unknown } | { kind: "timedOut"; timeoutMs: number } | { kind: "value"; value: unknown };

/** What one run of a handler is given beyond the request: a task's signal and control, a later round's answers. */
export interface HandlerRound {
  /** Aborts the handler (default: the request's own signal). */
  signal?: AbortSignal;
  task?: TaskControl;
  /** A task's later round: the client's answers and the state the handler returned, as a retry would carry them. */
  inputResponses?: Record<string, unknown>;
  state?: unknown;
}

/**
 * Runs a tool's handler once, under its timeout and the event-loop monitor; never throws.
 * @example
 * const outcome = await invokeHandler(deps, tool, args, request);
 */
export async function invokeHandler(
  deps: CallToolDeps,
  tool: CompiledTool,
  args: Record<string, unknown>,
  request: ToolRequest,
  round: HandlerRound = {},
): Promise<HandlerOutcome> {
  const { sdk, server, info } = request;
  const timeoutMs = tool.timeoutMs ?? deps.defaultTimeoutMs;
  // The handler's own lines carry its extension's name; the host's lines about it name the extension in their data.
  const handlerLogger = handlerLoggerOf(deps.logger, tool.extension);
  const leave = tool.isolated ? undefined : deps.activity?.enter({ tool: tool.name, extension: tool.extension });
  try {
    const outcome = await runWithTimeout(
      tool,
      (signal) => {
        const base = requestContext({
          sdk,
          server,
          info,
          extension: tool.extension,
          toolset: tool.toolset,
          signal,
          logger: handlerLogger,
          requestState: "state" in round ? round.state : request.state,
          ...defined({ inputResponses: round.inputResponses }),
        });
        return tool.handler(args, toolContext(base, tool.rawName, sdk, round.task));
      },
      round.signal ?? sdk.mcpReq.signal,
      timeoutMs,
      deps.clock,
    );
    return outcome.timedOut ? { kind: "timedOut", timeoutMs } : { kind: "value", value: outcome.value };
  } catch (error) {
    return { kind: "threw", error };
  } finally {
    leave?.();
  }
}

/** The `isError` result of a handler that threw, logged for the extension's author. */
export function thrownResult(deps: CallToolDeps, tool: CompiledTool, error: unknown): CallToolResult {
  const failure = failureOf(tool, error);
  deps.logger.warn(failure.message, { code: failure.code, ...aboutOf(tool) });
  // The stack helps the extension's author, and only at debug: it can say more about the code than a client should see.
  if (error instanceof Error && error.stack)
    deps.logger.debug(`[extension ${tool.extension}] tool "${tool.name}" threw here`, { ...aboutOf(tool), stack: error.stack });
  return errorResult(messageOf(error));
}

/** The `isError` result of a handler that ran out of time, logged. */
export function timedOutResult(deps: CallToolDeps, tool: CompiledTool, timeoutMs: number): CallToolResult {
  deps.logger.warn(`[extension ${tool.extension}] tool "${tool.name}" timed out after ${timeoutMs} ms`, { code: "TOOL_TIMEOUT", ...aboutOf(tool) });
  return markToolOutcome(errorResult(`tool "${tool.name}" timed out after ${timeoutMs} ms`), "timeout");
}

/**
 * A handler's result as it may leave: a tool result (its output checked, its size bounded, projected for a 2025-era
 * client), or an `isError` result that says what was wrong with it.
 */
export function checkedResult(deps: CallToolDeps, tool: CompiledTool, value: unknown, request: ToolRequest): CallToolResult | Promise<CallToolResult> {
  if (typeof value !== "object" || value === null || !Array.isArray((value as CallToolResult).content)) {
    deps.logger.warn(`[extension ${tool.extension}] tool "${tool.name}" returned something that is not a tool result`, {
      code: "TOOL_HANDLER_FAILED",
      ...aboutOf(tool),
    });
    return errorResult(`tool "${tool.name}" returned an invalid result (expected { content: [...] })`);
  }
  // A result with structured content to check waits for its validator; any other is finished at once (no promise).
  if (hasOutputToCheck(tool, value as CallToolResult))
    return checkOutput(tool, value as CallToolResult).then((checked) => sendable(deps, tool, checked, request));
  return sendable(deps, tool, value as CallToolResult, request);
}

/** A checked result as it is sent: refused when too large or not serialisable, projected for a 2025 client. */
function sendable(deps: CallToolDeps, tool: CompiledTool, checked: CallToolResult, request: ToolRequest): CallToolResult {
  const { server, info } = request;
  const unsendable = deps.gate === undefined ? undefined : resultProblem(checked, deps.gate.maxResultBytes);
  if (unsendable !== undefined) {
    const code = unsendable.startsWith("is ") ? "TOOL_RESULT_TOO_LARGE" : "TOOL_HANDLER_FAILED";
    deps.logger.warn(`[extension ${tool.extension}] tool "${tool.name}" returned a result that ${unsendable}`, { code, ...aboutOf(tool) });
    return errorResult(`tool "${tool.name}" returned a result that ${unsendable}`);
  }
  if (info.era === "legacy" && tool.wire.outputSchema !== undefined && checked.structuredContent !== undefined && !checked.isError) {
    return server.projectCallToolResult(checked, tool.wire.outputSchema) as CallToolResult;
  }
  return checked;
}

async function runTool(
  deps: CallToolDeps,
  tool: CompiledTool,
  args: Record<string, unknown>,
  request: ToolRequest,
): Promise<CallToolResult | InputRequiredResult> {
  const outcome = await invokeHandler(deps, tool, args, request);
  if (outcome.kind === "threw") return thrownResult(deps, tool, outcome.error);
  if (outcome.kind === "timedOut") return timedOutResult(deps, tool, outcome.timeoutMs);
  const value = outcome.value;
  // The state of an input request goes through the client: seal it now to this caller and tool; opened on the retry.
  if (isInputRequired(value)) return sealOutgoing(deps.requestState, value, { sdk: request.sdk, info: request.info, target: tool.name });
  return checkedResult(deps, tool, value, request);
}
