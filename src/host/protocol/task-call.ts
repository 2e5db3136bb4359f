/**
 * A `tools/call` that may become an MCP task (docs/tasks.md): the tool declares `taskSupport` and the client declared
 * the tasks extension on this request. The call starts exactly as any other — the same validation, turn, isolation,
 * timeout and handler — and the host decides, server-directed as SEP-2663 says, whether to answer with a task: once
 * the handler has run `taskAfterMs` without settling, or when it calls `ctx.task.start()`. A call that settles first
 * is answered with its result (or its `input_required`, so questions asked before a task exists are resolved on the
 * request, as the spec advises). After that, the handler goes on against the task: its signal is the task's (cancel,
 * expiry), its progress is the task's status, what it returns completes or fails the task, and `inputRequired(...)`
 * parks the task until `tasks/update` brings the answers and the next round runs.
 */
import { ProtocolError, type CallToolResult, type InputRequiredResult } from "@modelcontextprotocol/server";
import { isMcpHostError, messageOf } from "../../errors.js";
import type { TaskControl } from "../../extension/types.js";
import { isRequestError } from "../../extension/request-errors.js";
import type { RoundInputs, RoundOutcome, RunningTask } from "../../tasks/running-task.js";
import { createTaskResult } from "../../tasks/task.js";
import type { TaskBoard } from "../../tasks/task-board.js";
import type { CompiledTool } from "../build/build-tables.js";
import { checkedResult, invokeHandler, thrownResult, timedOutResult, type CallToolDeps, type HandlerOutcome, type ToolRequest } from "./call-tool.js";
import { callerOf, isInputRequired, normalizedInputRequired, sealOutgoing } from "./request-state.js";
import { markToolOutcome } from "./tool-outcome.js";

/** The JSON-RPC error a handler threw on purpose (a ProtocolError, `invalidParams`), or undefined for any other error. */
function protocolErrorOf(error: unknown): { code: number; message: string; data?: unknown } | undefined {
  if (error instanceof ProtocolError) return { code: error.code, message: error.message, ...(error.data === undefined ? {} : { data: error.data }) };
  if (isRequestError(error)) return { code: error.kind === "resource_not_found" ? -32002 : -32602, message: error.message };
  return undefined;
}

interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
}

function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/**
 * @example
 * return runTaskable({ deps, board, tool, args, request, release });
 */
export async function runTaskable(parts: {
  deps: CallToolDeps;
  board: TaskBoard;
  tool: CompiledTool;
  args: Record<string, unknown>;
  request: ToolRequest;
  /** Gives the tool's turn back (the call's, then the task's last round's). */
  release(): void;
}): Promise<CallToolResult | InputRequiredResult> {
  const { board, tool, request } = parts;
  const owner = callerOf(request.sdk, request.info);
  if (!(await board.mayOpen(owner))) {
    if (tool.taskSupport === "required") {
      parts.release();
      return markToolOutcome(
        {
          content: [
            {
              type: "text",
              text: `tool "${tool.name}" runs only as a task, and this caller has ${board.limits.maxPerCaller} unfinished tasks already (tasks.maxPerCaller); wait for one to finish, or cancel one`,
            },
          ],
          isError: true,
        },
        "refused",
      );
    }
    // An optional tool runs as an ordinary call: the client waits, bounded like any call.
    return runAsCall(parts);
  }
  return new TaskableCall(parts, owner).run();
}

async function runAsCall(parts: { deps: CallToolDeps; tool: CompiledTool; args: Record<string, unknown>; request: ToolRequest; release(): void }) {
  try {
    const outcome = await invokeHandler(parts.deps, parts.tool, parts.args, parts.request);
    return await answerOnRequest(parts.deps, parts.tool, outcome, parts.request);
  } finally {
    parts.release();
  }
}

/** A handler's outcome answered on the request, as a direct call's is. */
async function answerOnRequest(deps: CallToolDeps, tool: CompiledTool, outcome: HandlerOutcome, request: ToolRequest) {
  if (outcome.kind === "threw") return thrownResult(deps, tool, outcome.error);
  if (outcome.kind === "timedOut") return timedOutResult(deps, tool, outcome.timeoutMs);
  if (isInputRequired(outcome.value)) return sealOutgoing(deps.requestState, outcome.value, { sdk: request.sdk, info: request.info, target: tool.name });
  return checkedResult(deps, tool, outcome.value, request);
}

class TaskableCall {
  /** The handler's signal: the request's until the call is a task, then the task's. */
  private readonly controller = new AbortController();
  private readonly wanted = deferred<string | undefined>();
  private readonly made = deferred<RunningTask | undefined>();
  private running: RunningTask | undefined;
  private readonly control: TaskControl;
  /** Cleanups asked for before the call became a task: handed to the task once it exists. */
  private readonly abandonBeforeTask: Array<() => unknown> = [];

  constructor(
    private readonly parts: { deps: CallToolDeps; board: TaskBoard; tool: CompiledTool; args: Record<string, unknown>; request: ToolRequest; release(): void },
    private readonly owner: string,
  ) {
    const call = this;
    this.control = {
      get running() {
        return call.running !== undefined;
      },
      get taskId() {
        return call.running?.taskId;
      },
      start: async (statusMessage?: string) => {
        this.wanted.resolve(statusMessage);
        await this.made.promise;
      },
      status: (message: string) => this.running?.status(message),
      onAbandon: (cleanup: () => unknown) => {
        if (this.running === undefined) this.abandonBeforeTask.push(cleanup);
        else this.running.onAbandon(cleanup);
      },
    };
  }

  async run(): Promise<CallToolResult | InputRequiredResult> {
    const { deps, tool, request } = this.parts;
    const requestSignal = request.sdk.mcpReq.signal;
    const onRequestAbort = () => {
      if (this.running === undefined) this.controller.abort(requestSignal.reason);
    };
    requestSignal.addEventListener("abort", onRequestAbort, { once: true });
    const timer = deps.clock.setTimeout(() => this.wanted.resolve(undefined), this.parts.tool.taskAfterMs ?? 0);
    const handled = invokeHandler(deps, tool, this.parts.args, request, { signal: this.controller.signal, task: this.control });
    const first = await Promise.race([handled.then((outcome) => ({ settled: outcome })), this.wanted.promise.then((message) => ({ message }))]);
    timer.clear();
    if ("settled" in first) {
      requestSignal.removeEventListener("abort", onRequestAbort);
      this.made.resolve(undefined);
      try {
        return await answerOnRequest(deps, tool, first.settled, request);
      } finally {
        this.parts.release();
      }
    }
    let running: RunningTask;
    try {
      running = await this.parts.board.open({
        owner: this.owner,
        tool: tool.name,
        toolset: tool.toolset,
        extension: tool.extension,
        ...(tool.taskTtlMs === undefined ? {} : { ttlMs: tool.taskTtlMs }),
        ...(first.message === undefined ? {} : { statusMessage: first.message }),
        nextRound: (inputs, signal) => this.nextRound(inputs, signal),
      });
    } catch (error) {
      // No task could be made (the store's limit, a store that failed): the call finishes on its request instead.
      deps.logger.warn(`[extension ${tool.extension}] tool "${tool.name}" could not become a task: ${messageOf(error)}`, {
        code: isMcpHostError(error) ? error.code : "TASK_LIMIT",
        extension: tool.extension,
        tool: tool.name,
      });
      this.made.resolve(undefined);
      try {
        return await answerOnRequest(deps, tool, await handled, request);
      } finally {
        requestSignal.removeEventListener("abort", onRequestAbort);
        this.parts.release();
      }
    }
    this.running = running;
    for (const cleanup of this.abandonBeforeTask.splice(0)) running.onAbandon(cleanup);
    requestSignal.removeEventListener("abort", onRequestAbort);
    // From now on the task's cancellation stops the handler.
    running.controller.signal.addEventListener("abort", () => this.controller.abort(running.controller.signal.reason), { once: true });
    this.made.resolve(running);
    void handled
      .then((outcome) => this.roundOutcome(outcome, this.controller.signal))
      .then((outcome) => running.settle(outcome))
      .finally(() => this.parts.release());
    return markToolOutcome(createTaskResult(running.task) as unknown as CallToolResult, "task");
  }

  /** A later round (the client answered the task's questions): the handler runs again, under a turn of its own. */
  private async nextRound(inputs: RoundInputs, signal: AbortSignal): Promise<RoundOutcome> {
    const { deps, tool, request } = this.parts;
    let release: (() => void) | undefined;
    try {
      release = deps.gate === undefined ? undefined : (deps.gate.tryEnter(tool.extension, tool.name) ?? (await deps.gate.enter(tool.extension, tool.name)));
    } catch (error) {
      return { kind: "result", result: { content: [{ type: "text", text: messageOf(error) }], isError: true } };
    }
    try {
      const outcome = await invokeHandler(deps, tool, this.parts.args, request, {
        signal,
        task: this.control,
        inputResponses: inputs.inputResponses,
        state: inputs.requestState,
      });
      return await this.roundOutcome(outcome, signal);
    } finally {
      release?.();
    }
  }

  /** How a round of the handler ended, as the task takes it. */
  private async roundOutcome(outcome: HandlerOutcome, signal: AbortSignal): Promise<RoundOutcome> {
    const { deps, tool, request } = this.parts;
    if (outcome.kind === "threw") {
      if (signal.aborted && this.running?.controller.signal.aborted) return { kind: "cancelled" };
      const protocol = protocolErrorOf(outcome.error);
      if (protocol !== undefined) return { kind: "error", error: protocol };
      return { kind: "result", result: thrownResult(deps, tool, outcome.error) as Record<string, unknown> };
    }
    if (outcome.kind === "timedOut") return { kind: "result", result: timedOutResult(deps, tool, outcome.timeoutMs) as Record<string, unknown> };
    const value = outcome.value;
    if (isInputRequired(value)) {
      const asked = normalizedInputRequired(value);
      return { kind: "input", inputRequests: (asked.inputRequests ?? {}) as Record<string, unknown>, requestState: asked.requestState };
    }
    return { kind: "result", result: (await checkedResult(deps, tool, value, request)) as Record<string, unknown> };
  }
}
