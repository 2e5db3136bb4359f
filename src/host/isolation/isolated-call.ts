/**
 * The main-thread side of one isolated call: it stands in for the tool's handler (so tool extensions and onServer
 * wrap it like any handler), sends the call to a worker with the request's facts, does what the worker asks for
 * over the call's port (progress, client log, server log), holds the CPU budget, and turns a worker ended for a
 * limit into an error naming the tool and the limit. Validation and result checks stay with the caller.
 */
import { MessageChannel, type MessagePort } from "node:worker_threads";
import { McpHostError } from "../../errors.js";
import type { ToolContext, ToolHandler, ToolResult } from "../../extension/types.js";
import { watchCpu, type CpuWatch } from "./cpu-watch.js";
import type { WorkerPool } from "./worker-pool.js";
import type { WorkerCallContext, WorkerMessage, WorkerOutcome } from "./worker-protocol.js";
import { defined } from "../../defined.js";

/** Where and under which limits one tool runs. */
export interface IsolatedTool {
  module: string;
  extension: string;
  /** The tool's name as its extension gave it. */
  tool: string;
  heapMb: number;
  cpuMs: number;
}

/** JSON of a value, or undefined when it has none (what a worker can be given of `auth` or capabilities). */
function asJson(value: unknown): Record<string, unknown> | undefined {
  if (value === undefined) return undefined;
  try {
    return JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

function factsOf(ctx: ToolContext): WorkerCallContext {
  let state: unknown;
  try {
    state = ctx.requestState();
  } catch {
    state = undefined;
  }
  const auth = asJson(ctx.auth);
  const capabilities = asJson(ctx.clientCapabilities);
  const responses = asJson(ctx.inputResponses);
  const meta = asJson(ctx.meta);
  return {
    extension: ctx.extension,
    toolset: ctx.toolset,
    tool: ctx.tool,
    era: ctx.era,
    transport: ctx.transport,
    ...defined({ sessionId: ctx.sessionId, meta }),
    selection: { active: [...ctx.selection.active], unknown: [...ctx.selection.unknown] },
    ...defined({ auth, clientCapabilities: capabilities, inputResponses: responses }),
    ...(state === undefined ? {} : { requestState: asJson({ state })?.state }),
  };
}

/** Does on the main thread what the worker asks for; resolves with the call's outcome, the worker's last message. */
function listen(port: MessagePort, ctx: ToolContext, onStarted: (message: Extract<WorkerMessage, { kind: "started" }>) => void): Promise<WorkerOutcome> {
  return new Promise((resolve) => {
    port.on("message", (message: WorkerMessage) => {
      if (message.kind === "started") onStarted(message);
      else if (message.kind === "progress") void ctx.progress(message.progress, message.total, message.message);
      else if (message.kind === "log") void ctx.log(message.level, message.data);
      else if (message.kind === "logger") message.prefix.reduce((logger, name) => logger.child(name), ctx.logger)[message.level](message.message, message.data);
      else resolve(message.outcome);
    });
  });
}

function limitError(tool: IsolatedTool, code: "TOOL_CPU_LIMIT" | "TOOL_HEAP_LIMIT"): McpHostError {
  const what =
    code === "TOOL_CPU_LIMIT"
      ? `used more than its ${tool.cpuMs} ms of CPU and was stopped`
      : `ran out of its ${tool.heapMb} MB heap and was stopped (its input is probably too large for it)`;
  return new McpHostError(code, `tool "${tool.tool}" ${what}`, { extension: tool.extension });
}

function outcomeValue(tool: IsolatedTool, outcome: WorkerOutcome): ToolResult {
  if (outcome.ok) return outcome.value as ToolResult;
  if (outcome.reason === "threw") throw new Error(outcome.message);
  throw new McpHostError("TOOL_ISOLATION_FAILED", `tool "${tool.tool}" could not run in a worker: ${outcome.message}`, { extension: tool.extension });
}

/** Why a rejected run failed: a limit, the caller's own abort (cancel or timeout), or the worker itself. */
function runError(tool: IsolatedTool, error: unknown, cpuExceeded: boolean, caller: AbortSignal): unknown {
  if (cpuExceeded) return limitError(tool, "TOOL_CPU_LIMIT");
  if ((error as { code?: unknown } | null)?.code === "ERR_WORKER_OUT_OF_MEMORY") return limitError(tool, "TOOL_HEAP_LIMIT");
  if (caller.aborted) return caller.reason;
  const message = error instanceof Error ? error.message : String(error);
  return new McpHostError("TOOL_ISOLATION_FAILED", `tool "${tool.tool}": its worker ended unexpectedly (${message})`, {
    extension: tool.extension,
    cause: error,
  });
}

/**
 * A handler that runs `tool` in a worker of `pool()`.
 * @example
 * const handler = isolatedHandler({ module, extension: "text", tool: "text_stats", heapMb: 256, cpuMs: 2000 }, () => pool);
 */
export function isolatedHandler(tool: IsolatedTool, pool: () => WorkerPool): ToolHandler {
  return async (args, ctx) => {
    const workers = pool();
    if (workers.full) {
      throw new McpHostError(
        "TOOL_WORKERS_BUSY",
        `tool "${tool.tool}" was not run: every worker of extension "${tool.extension}" (${workers.options.poolSize}) is busy and ${workers.maxQueue} calls are already waiting; try again shortly`,
        { extension: tool.extension },
      );
    }
    if (ctx.signal.aborted) throw ctx.signal.reason;
    const { port1, port2 } = new MessageChannel();
    const stop = new AbortController();
    const onCallerAbort = () => stop.abort(ctx.signal.reason);
    ctx.signal.addEventListener("abort", onCallerAbort, { once: true });
    let watch: CpuWatch | undefined;
    let cpuExceeded = false;
    const outcome = listen(port1, ctx, (started) => {
      watch = watchCpu({
        worker: workers.thread(started.threadId),
        start: { busyMs: started.busyMs, ...defined({ cpu: started.cpu }) },
        budgetMs: tool.cpuMs,
        onExceeded: () => {
          cpuExceeded = true;
          stop.abort(limitError(tool, "TOOL_CPU_LIMIT"));
        },
      });
    });
    try {
      const task = {
        module: tool.module,
        extension: tool.extension,
        tool: tool.tool,
        args: args as Record<string, unknown>,
        context: factsOf(ctx),
        port: port2,
      };
      try {
        await workers.run(task, stop.signal);
      } catch (error) {
        throw runError(tool, error, cpuExceeded, ctx.signal);
      }
      // The worker posted the outcome before it answered the task: it is here, or on its way.
      return outcomeValue(tool, await outcome);
    } finally {
      watch?.stop();
      ctx.signal.removeEventListener("abort", onCallerAbort);
      port1.close();
    }
  };
}
