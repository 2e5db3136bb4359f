/**
 * The gateway's relay of a 2025-11-25 upstream's experimental tasks (docs/gateway.md "Tasks"): a server that declares
 * `capabilities.tasks.requests.tools.call` and marks a tool `execution.taskSupport: "optional" | "required"` is asked
 * to run the call as its task (`params.task`) when the gateway's caller made the call a host task — and always for a
 * `required` tool, which answers nothing else. The upstream's task is then followed: `tasks/get` polled (at the
 * interval it suggests, within bounds) with its status message shown as the host task's, and `tasks/result` asked
 * once it ends or needs input. The questions a 2025 server has for its task arrive as requests pushed during that
 * `tasks/result` (tagged with the task): the caller gets them as the gateway's own call pausing for input does
 * (upstream-call.ts), and `tasks/result` then answers with the call's result. A cancelled call sends the upstream's
 * `tasks/cancel`. As for the 2026-07-28 relay, the upstream's task id never reaches the client: it is taken out of
 * everything relayed, and the related-task `_meta` is dropped.
 *
 * No package covers this side: `@modelcontextprotocol/ext-tasks` speaks the 2026-07-28 lifecycle (its `receiver` entry
 * is for a 2025 client that runs tasks, not one that follows a server's), and the SDK v2 client refuses a task answer.
 */
import { ProtocolError, type CallToolResult, type Progress, type Tool } from "@modelcontextprotocol/client";
import { isMcpHostError, messageOf } from "../../errors.js";
import type { McpRegistry, UpstreamRequest } from "../../registry/index.js";
import { refusal } from "./refusals.js";
import { codeOf, DEFAULT_POLL_MS, pause, pollInterval, taskScrubber } from "./task-follow.js";
import type { TaskRelayTarget } from "./task-relay.js";

/** How a 2025-11-25 server lets a tool's calls run as its tasks. */
export type LegacyTaskSupport = "optional" | "required";

/** The `_meta` key a 2025-11-25 server tags what serves one of its tasks with (the result, its questions). */
const RELATED_TASK = "io.modelcontextprotocol/related-task";

const STATUSES = new Set(["working", "input_required", "completed", "failed", "cancelled"]);

/** A 2025-11-25 task, as `tasks/get` answers and a task-augmented call's `{ task }` carries it. */
interface LegacyTask {
  taskId: string;
  status: string;
  statusMessage?: string;
  pollInterval?: number;
}

function isLegacyTask(value: unknown): value is LegacyTask {
  const task = value as Partial<LegacyTask> | undefined;
  return typeof task?.taskId === "string" && typeof task.status === "string" && STATUSES.has(task.status);
}

/**
 * True when a server speaks 2025-11-25 and declares it runs tool calls as tasks (`capabilities.tasks.requests.tools.call`).
 * @example
 * runsTaskCalls(registry, "everything") // true for server-everything
 */
export function runsTaskCalls(registry: McpRegistry, server: string): boolean {
  if (registry.eraOf(server) !== "legacy") return false;
  const capabilities = registry.capabilitiesOf(server) as { tasks?: { requests?: { tools?: { call?: unknown } } } } | undefined;
  return capabilities?.tasks?.requests?.tools?.call !== undefined;
}

/**
 * The task support a 2025-11-25 server declares for a tool, when the server can run tool calls as tasks; undefined
 * for a tool that runs on its request only (or a server of the other era, whose tasks task-relay.ts follows).
 * @example
 * legacyTaskSupport(registry, "everything", tool.definition) // "required" for simulate-research-query
 */
export function legacyTaskSupport(registry: McpRegistry, server: string, definition: Tool): LegacyTaskSupport | undefined {
  if (!runsTaskCalls(registry, server)) return undefined;
  const support = (definition as { execution?: { taskSupport?: unknown } }).execution?.taskSupport;
  return support === "optional" || support === "required" ? support : undefined;
}

/** A value without the related-task `_meta` key (which names the upstream's task). */
function withoutRelatedTask<T>(value: T): T {
  const meta = (value as { _meta?: Record<string, unknown> } | undefined)?._meta;
  if (meta === undefined || !(RELATED_TASK in meta)) return value;
  const { [RELATED_TASK]: _related, ...rest } = meta;
  const { _meta: _all, ...bare } = value as Record<string, unknown>;
  return (Object.keys(rest).length === 0 ? bare : { ...bare, _meta: rest }) as T;
}

/** What one run of a task-augmented call needs (the call's round lends it these; see upstream-call.ts). */
export interface LegacyTaskRun {
  args: Record<string, unknown>;
  signal: AbortSignal;
  onprogress: (progress: Progress) => void;
  /** Relays a question the upstream asks for its task (undefined: nobody can answer it, and it is refused). */
  relay: (request: UpstreamRequest) => Promise<unknown> | undefined;
  /** Shows the upstream task's status message. */
  status: (message: string) => void;
  meta?: Record<string, unknown>;
}

/**
 * Calls the tool as a 2025-11-25 upstream task and follows that task to its result. An upstream that answers on the
 * request instead has that answer returned as it is.
 * @example
 * call.start((ask, signal, onprogress, status) => runLegacyTask({ ...target, name: tool.name }, { args, signal, onprogress, status, relay: ask }));
 */
export async function runLegacyTask(target: TaskRelayTarget & { name: string }, run: LegacyTaskRun): Promise<CallToolResult> {
  const created = await target.registry.callTool(target.name, run.args, {
    forward: true,
    task: {},
    signal: run.signal,
    onprogress: run.onprogress,
    onServerRequest: run.relay,
    inputRequired: "return",
    approve: () => true, // the gateway asked (or did not need to) before the call
    ...(run.meta ? { meta: run.meta } : {}),
  });
  const task = (created as { task?: unknown }).task;
  if (!isLegacyTask(task)) return created as CallToolResult;
  return new LegacyUpstreamTask(target, task.taskId, run).follow(task);
}

/** One followed 2025-11-25 task: what it sends, and how it words what it hands on. */
class LegacyUpstreamTask {
  private readonly scrub: <T>(value: T) => T;
  private readonly subject: string;

  constructor(
    private readonly target: TaskRelayTarget,
    private readonly taskId: string,
    private readonly run: LegacyTaskRun,
  ) {
    this.scrub = taskScrubber(target.redactor, taskId);
    this.subject = `tool "${target.tool}" on server "${target.server}"`;
  }

  private failed(message: string, error?: unknown): CallToolResult {
    return refusal(error === undefined ? "MCP_CALL_FAILED" : codeOf(error), this.scrub(`${this.subject} ${message}`), this.target.server, this.target.tool);
  }

  /** Tells the upstream to stop (best effort: its own TTL ends it otherwise). */
  private async cancel(): Promise<void> {
    await this.target.registry.taskRequest(this.target.server, "tasks/cancel", { taskId: this.taskId }).catch(() => undefined);
  }

  /** Polls until the task ends or needs input, then takes its result; the call's signal cancels it upstream. */
  async follow(first: LegacyTask): Promise<CallToolResult> {
    const { signal } = this.run;
    let task = first;
    let interval = pollInterval(first.pollInterval, DEFAULT_POLL_MS);
    let shown: string | undefined;
    for (;;) {
      if (signal.aborted) {
        await this.cancel();
        throw signal.reason;
      }
      if (typeof task.statusMessage === "string" && task.statusMessage !== shown) {
        shown = task.statusMessage;
        this.run.status(this.scrub(shown));
      }
      if (task.status === "cancelled") return this.failed("was cancelled by the upstream server");
      if (task.status !== "working") {
        const result = await this.result(task.status === "input_required");
        if (result !== undefined) return result;
      } else await pause(this.target.clock, signal, interval);
      if (signal.aborted) continue;
      let next: unknown;
      try {
        next = await this.target.registry.taskRequest(this.target.server, "tasks/get", { taskId: this.taskId }, { signal });
      } catch (error) {
        if (signal.aborted) continue; // cancelled while asking: cancelled upstream above
        await this.cancel();
        return this.failed(`ran as a task the gateway lost track of (tasks/get failed: ${messageOf(error)})`, error);
      }
      if (!isLegacyTask(next)) {
        await this.cancel();
        return this.failed("answered tasks/get with something that is not a task");
      }
      task = next;
      interval = pollInterval(task.pollInterval, interval);
    }
  }

  /**
   * Asks `tasks/result`: the task's result once it ended, and — while it needs input — the stream its questions
   * come on. Undefined when following must go on: cancelled meanwhile, or (for a task that asked) the request timed
   * out while the task still works.
   */
  private async result(asking: boolean): Promise<CallToolResult | undefined> {
    const { signal } = this.run;
    const relay = (request: UpstreamRequest) => this.run.relay({ ...request, params: this.scrub(withoutRelatedTask(request.params)) });
    try {
      const result = await this.target.registry.taskRequest(this.target.server, "tasks/result", { taskId: this.taskId }, { signal, onServerRequest: relay });
      const { content, ...rest } = this.scrub(withoutRelatedTask(result)) as Partial<CallToolResult>;
      return { ...rest, content: Array.isArray(content) ? content : [] } as CallToolResult;
    } catch (error) {
      if (signal.aborted) return undefined;
      if (asking && isMcpHostError(error, "MCP_REQUEST_TIMEOUT")) return undefined;
      const cause = (error as { cause?: unknown }).cause;
      // The task's own failure: the JSON-RPC error its request would have had, as a 2025 `tasks/result` gives it.
      if (cause instanceof ProtocolError)
        throw new ProtocolError(cause.code, this.scrub(cause.message), cause.data === undefined ? undefined : this.scrub(cause.data));
      await this.cancel();
      return this.failed(`ran as a task whose result the gateway could not read (tasks/result failed: ${messageOf(error)})`, error);
    }
  }
}
