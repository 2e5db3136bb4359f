/**
 * What crosses between the host's main thread and a tool worker (docs/design.md §16): the task a worker runs, the
 * messages it sends back over the call's own MessagePort while the handler runs, and how the call ended. Only
 * structured-cloneable data crosses; the handler itself never does — the worker imports its module.
 */
import type { MessagePort } from "node:worker_threads";
import type { LoggingLevel } from "@modelcontextprotocol/server";
import type { LogLevel } from "../../logger.js";
import type { ThreadCpuMark } from "./thread-cpu.js";

/** The request facts a worker-side `ctx` carries (JSON: an `auth.resource` URL arrives as its string). */
export interface WorkerCallContext {
  extension: string;
  toolset: string;
  tool: string;
  era: "legacy" | "modern";
  transport: "http" | "stdio";
  sessionId?: string;
  meta?: Record<string, unknown>;
  selection: { active: string[]; unknown: string[] };
  auth?: Record<string, unknown>;
  clientCapabilities?: Record<string, unknown>;
  inputResponses?: Record<string, unknown>;
  requestState?: unknown;
}

/** One call for a worker: where to find the handler, the validated arguments, the context, the port back. */
export interface WorkerTask {
  module: string;
  extension: string;
  tool: string;
  args: Record<string, unknown>;
  context: WorkerCallContext;
  port: MessagePort;
}

/**
 * What a worker says about a call, over the call's port: `result` is always its last message, so everything the
 * handler sent arrives before it (piscina's own answer to the task carries nothing).
 */
export type WorkerMessage =
  | { kind: "started"; threadId: number; busyMs: number; cpu?: ThreadCpuMark }
  | { kind: "progress"; progress: number; total?: number; message?: string }
  | { kind: "log"; level: LoggingLevel; data: unknown }
  | { kind: "logger"; level: LogLevel; prefix: string[]; message: string; data?: Record<string, unknown> }
  | { kind: "result"; outcome: WorkerOutcome };

/**
 * How the call ended inside the worker: the handler's value, the handler's own error (the host treats it like a
 * throw on the main thread), or the worker could not find the handler.
 */
export type WorkerOutcome =
  | { ok: true; value: unknown }
  | { ok: false; reason: "threw"; message: string }
  | { ok: false; reason: "unresolved"; message: string };
