/**
 * The one observation seam of the host (docs/design.md §18): the protocol core tells a `HostObserver` about every MCP
 * request it answers (around its handling, so a tracer can make its span the active one) and the build cache
 * about every lookup. Logs, metrics and traces are listeners behind it (src/observe/); with no observer the host
 * pays one `undefined` check per request.
 */

import type { TaskEvent } from "../tasks/task-board.js";

export type { TaskEvent };

/** How a `tools/call` ended, as metrics and audit lines count it (`task`: answered with an MCP task, which goes on). */
export type ToolCallOutcome = "ok" | "isError" | "timeout" | "refused" | "task";

/** The tool a `tools/call` named, once routed (absent when no tool of that name is on the selection). */
export interface ObservedTool {
  /** The name the client called (bare, qualified or dotted). */
  name: string;
  /** The tool's listed name in this build. */
  listed: string;
  toolset: string;
  /** The extension that offers it (for an upstream tool, the gateway). */
  extension: string;
}

/** One MCP request the protocol core answers, as an observer sees it. */
export interface ObservedRequest {
  /** The JSON-RPC method: `tools/call`, `resources/read`, … */
  method: string;
  /** The JSON-RPC id, as a string. */
  id: string;
  era: "legacy" | "modern";
  transport: "http" | "stdio";
  /** The protocol revision the request speaks, when known. */
  protocolVersion?: string;
  sessionId?: string;
  /** The caller's verified subject (with auth on). */
  subject?: string;
  /** The request's `params._meta` (trace context travels here, SEP-414). */
  meta?: Readonly<Record<string, unknown>>;
  /** `tools/call`: the tool, once routed. */
  tool?: ObservedTool;
  /** `tools/call`: the name asked for, even when no such tool exists. */
  toolName?: string;
  /** `tools/call` through search mode's `call_tool`: `"call_tool"` (`tool`, `toolName` and `arguments` are the called tool's). */
  via?: string;
  /** `tools/call`: the arguments as sent (an observer decides whether to keep them). */
  arguments?: Readonly<Record<string, unknown>>;
  /** `prompts/get`: the prompt's name. */
  promptName?: string;
  /** `resources/read`, `resources/subscribe`, `resources/unsubscribe`: the URI. */
  resourceUri?: string;
}

/** How an observed request ended. */
export interface ObservedEnd {
  durationMs: number;
  /** `tools/call` only. */
  outcome?: ToolCallOutcome;
  /** The JSON-RPC error code when the request was answered with an error. */
  errorCode?: number;
  /** A short, secret-free reason (the error's message, or an `isError` result's first text, cut). */
  error?: string;
}

/** One lookup in the build cache. */
export interface ObservedBuild {
  /** The build's key (its active toolsets joined by commas). */
  key: string;
  hit: boolean;
  /** On a miss: how long compiling took. */
  durationMs?: number;
}

/** One request being observed: the observer's own context around its handling, and its end. */
export interface RequestObservation {
  /** Runs the handling (e.g. with a span active); must call `work` once and return what it returns. */
  run<T>(work: () => Promise<T>): Promise<T>;
  /** Called once, after the handling settled. */
  end(ended: ObservedEnd): void;
}

/**
 * What the host tells an observer. Every method is optional. None may throw into a request — the host catches and
 * ignores what one throws — and none should slow one: a listener records and returns.
 * @example
 * buildHost(extensions, { name: "tools", observer: createObservability({ logger }).hostObserver });
 */
export interface HostObserver {
  /** A request the protocol core is about to handle; undefined when this observer does not follow it. */
  request?(request: ObservedRequest): RequestObservation | undefined;
  /** A build-cache lookup. */
  build?(event: ObservedBuild): void;
  /** An MCP task started or ended (docs/tasks.md): its tool, owner, status, and how long it ran. */
  task?(event: TaskEvent): void;
}
