/**
 * The entry of a tool worker thread (piscina calls the default export once per task). It finds the handler,
 * says when the handler starts (with the thread's CPU and busy time so far, so the main thread can charge the call
 * only for its own), runs it, and sends the outcome over the call's port after every message the handler sent — so
 * nothing the handler reported arrives after its result. A handler's throw is sent as data, like any other outcome.
 */
import { performance } from "node:perf_hooks";
import { threadId } from "node:worker_threads";
import { resolveTool, UnresolvedTool } from "./resolve-tool.js";
import { markThreadCpu } from "./thread-cpu.js";
import { workerToolContext } from "./worker-context.js";
import type { WorkerMessage, WorkerOutcome, WorkerTask } from "./worker-protocol.js";
import { defined } from "../../defined.js";

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  return typeof error === "string" ? error : String(error);
}

async function outcomeOf(task: WorkerTask): Promise<WorkerOutcome> {
  let handler: Awaited<ReturnType<typeof resolveTool>>;
  try {
    handler = await resolveTool(task.module, task.extension, task.tool);
  } catch (error) {
    if (error instanceof UnresolvedTool) return { ok: false, reason: "unresolved", message: error.message };
    throw error;
  }
  const ctx = workerToolContext(task.context, task.port, new AbortController().signal);
  const cpu = markThreadCpu();
  task.port.postMessage({ kind: "started", threadId, busyMs: performance.eventLoopUtilization().active, ...defined({ cpu }) });
  try {
    return { ok: true, value: await handler(task.args, ctx) };
  } catch (error) {
    return { ok: false, reason: "threw", message: messageOf(error) };
  }
}

/**
 * @example
 * // piscina: new Piscina({ filename: new URL("./tool-worker.js", import.meta.url).href })
 * await runTask({ module, extension: "text", tool: "text_stats", args, context, port }); // the outcome goes to port
 */
export default async function runTask(task: WorkerTask): Promise<void> {
  const { port } = task;
  try {
    const outcome = await outcomeOf(task);
    try {
      port.postMessage({ kind: "result", outcome } satisfies WorkerMessage);
    } catch (error) {
      // A value that cannot be cloned (a function, a class instance with private state) is the handler's fault.
      const message = `the tool returned a value that cannot be sent between threads (${messageOf(error)}); return plain data`;
      port.postMessage({ kind: "result", outcome: { ok: false, reason: "threw", message } } satisfies WorkerMessage);
    }
  } finally {
    port.close();
  }
}
