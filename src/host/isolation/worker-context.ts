/**
 * The `ctx` an isolated handler receives inside its worker. The request facts arrive as data; what acts on the
 * request — progress, client log messages, the server log — is sent back over the call's MessagePort and done by
 * the main thread. The raw SDK context (`ctx.mcp`) stays on the main thread: touching it says so.
 */
import type { MessagePort } from "node:worker_threads";
import type { LoggingLevel } from "@modelcontextprotocol/server";
import type { ToolContext } from "../../extension/types.js";
import type { LogData, Logger, LogLevel } from "../../logger.js";
import type { WorkerCallContext, WorkerMessage } from "./worker-protocol.js";
import { defined } from "../../defined.js";

function post(port: MessagePort, message: WorkerMessage): void {
  try {
    port.postMessage(message);
  } catch {
    // Data that cannot be cloned (a function in a log line) is dropped, as a closed stream is on the main thread.
  }
}

function forwardingLogger(port: MessagePort, prefix: string[]): Logger {
  const emit = (level: LogLevel) => (message: string, data?: LogData) =>
    post(port, { kind: "logger", level, prefix, message, ...(data === undefined ? {} : { data: data as Record<string, unknown> }) });
  return { debug: emit("debug"), info: emit("info"), warn: emit("warn"), error: emit("error"), child: (name) => forwardingLogger(port, [...prefix, name]) };
}

/** `ctx.mcp` in a worker: any use names what to do instead. */
function unavailableMcp(tool: string): ToolContext["mcp"] {
  return new Proxy({} as ToolContext["mcp"], {
    get(_target, key) {
      if (typeof key === "symbol") return undefined;
      throw new Error(
        `tool "${tool}" runs in a worker (isolation), where ctx.mcp (the raw SDK context) is not available; use ctx.progress, ctx.log and ctx.inputResponses, or isolation: "none" for this tool`,
      );
    },
  });
}

/**
 * @example
 * const ctx = workerToolContext(task.context, task.port, new AbortController().signal);
 */
export function workerToolContext(facts: WorkerCallContext, port: MessagePort, signal: AbortSignal): ToolContext {
  return {
    extension: facts.extension,
    toolset: facts.toolset,
    tool: facts.tool,
    signal,
    ...(facts.auth === undefined ? {} : { auth: facts.auth as unknown as NonNullable<ToolContext["auth"]> }),
    selection: facts.selection,
    era: facts.era,
    transport: facts.transport,
    ...defined({ sessionId: facts.sessionId, meta: facts.meta, clientCapabilities: facts.clientCapabilities }),
    logger: forwardingLogger(port, []),
    log: async (level: LoggingLevel, data: unknown) => post(port, { kind: "log", level, data }),
    ...defined({ inputResponses: facts.inputResponses }),
    requestState: <T>() => facts.requestState as T | undefined,
    mcp: unavailableMcp(facts.tool),
    progress: async (progress: number, total?: number, message?: string) => post(port, { kind: "progress", progress, ...defined({ total, message }) }),
  };
}
