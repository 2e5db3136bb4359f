/**
 * The gateway's relay of an upstream server's MCP task (docs/gateway.md "Tasks", issue 29 §5): a 2026-07-28 upstream
 * that answers a `tools/call` with a task (`resultType: "task"`) is followed here under the host task the call became —
 * its `tasks/get` polled (at the interval it suggests, within bounds) on that server's connection with its
 * credentials and answer limits, its status message mirrored, its questions handed to the client as the host task's
 * own (the upstream task id kept in the round's state, which the host keeps server-side), the client's answers sent
 * back with its `tasks/update`, and the call ended with its result or its JSON-RPC error. A cancelled or timed-out
 * call (the handler's signal) sends the upstream's `tasks/cancel`. The upstream's task id never leaves: everything
 * relayed goes through the deployment's redactor and has that id taken out.
 *
 * The wire shapes are checked with `@modelcontextprotocol/ext-tasks`'s `core/v2` guards. Its `client` entry (a
 * requester session over an SDK `Client`) is not used: the gateway's requests must go on the registry's shared
 * connection under its limits, and a question ends the handler's round (the host parks the task) rather than waiting
 * in a session.
 */
import { isDetailedTaskV2, isToolCallTaskResultV2, TASKS_EXTENSION_ID_V2 } from "@modelcontextprotocol/ext-tasks/core/v2";
import { ProtocolError } from "@modelcontextprotocol/server";
import type { CallToolResult } from "@modelcontextprotocol/client";
import type { Clock } from "../../clock.js";
import { type McpHostErrorCode, messageOf } from "../../errors.js";
import { inputRequired } from "../../extension/input-required.js";
import type { ToolContext, ToolResult } from "../../extension/types.js";
import type { McpRegistry } from "../../registry/index.js";
import type { SecretRedactor } from "../../secret-redactor.js";
import { encodeState } from "./gateway-state.js";
import { refusal, unanswerable } from "./refusals.js";
import { codeOf, DEFAULT_POLL_MS, pause, pollInterval, taskScrubber } from "./task-follow.js";

/** What the relay of one upstream tool needs. */
export interface TaskRelayTarget {
  server: string;
  /** The tool's name on the upstream. */
  tool: string;
  /** `server/tool`: whose round state this is. */
  key: string;
  registry: McpRegistry;
  redactor: SecretRedactor;
  /** What the polls wait on (the gateway's clock). */
  clock: Clock;
}

/** The extension declared on every request the relay sends (and on the call, when the client declared it). */
export const TASKS_DECLARED: Readonly<Record<string, object>> = Object.freeze({ [TASKS_EXTENSION_ID_V2]: {} });

/**
 * True when a tool call's answer is an upstream's task (not a result).
 * @example
 * if (isUpstreamTask(result)) return followUpstreamTask(target, result, ctx);
 */
export function isUpstreamTask(result: unknown): result is { taskId: string; status: string; pollIntervalMs?: number; statusMessage?: string } {
  return isToolCallTaskResultV2("tools/call", result);
}

/** True when the upstream declared the tasks extension (2026-07-28). */
export function declaresTasks(extensions: Readonly<Record<string, unknown>> | undefined): boolean {
  return extensions?.[TASKS_EXTENSION_ID_V2] !== undefined;
}

/** How long a call that may become a task goes on after its caller cancelled, to learn the task it must cancel. */
export const CANCEL_GRACE_MS = 2_000;

/**
 * The signal for a call that may be answered with a task: it aborts `CANCEL_GRACE_MS` after the caller's. A cancel
 * that arrives while the upstream's CreateTaskResult is on its way would otherwise close the request and orphan the
 * task upstream (closing a request does not cancel a task the 2026-07-28 lifecycle made); within the grace, the
 * task's id arrives and its `tasks/cancel` is sent (`follow` sees the caller's signal aborted).
 * @example
 * const graced = withCancelGrace(ctx.signal, clock); try { … graced.signal … } finally { graced.done(); }
 */
export function withCancelGrace(signal: AbortSignal, clock: Clock): { signal: AbortSignal; done(): void } {
  const controller = new AbortController();
  let timer: { clear(): void } | undefined;
  const onAbort = () => {
    timer = clock.setTimeout(() => controller.abort(signal.reason), CANCEL_GRACE_MS);
  };
  if (signal.aborted) onAbort();
  else signal.addEventListener("abort", onAbort, { once: true });
  return {
    signal: controller.signal,
    done: () => {
      timer?.clear();
      signal.removeEventListener("abort", onAbort);
    },
  };
}

/** One relay of one upstream task: what it sends, and how it words what it hands on. */
class UpstreamTask {
  private readonly subject: string;
  /** A value handed on: the deployment's secrets redacted and the upstream's task id taken out. */
  readonly scrub: <T>(value: T) => T;

  constructor(
    private readonly target: TaskRelayTarget,
    private readonly taskId: string,
  ) {
    this.subject = `tool "${target.tool}" on server "${target.server}"`;
    this.scrub = taskScrubber(target.redactor, taskId);
  }

  failed(message: string, code: McpHostErrorCode = "MCP_CALL_FAILED"): CallToolResult {
    return refusal(code, this.scrub(`${this.subject} ${message}`), this.target.server, this.target.tool);
  }

  send(method: "tasks/get" | "tasks/update" | "tasks/cancel", params: Record<string, unknown>, signal?: AbortSignal) {
    return this.target.registry.taskRequest(
      this.target.server,
      method,
      { taskId: this.taskId, ...params },
      {
        extensions: TASKS_DECLARED,
        ...(signal ? { signal } : {}),
      },
    );
  }

  /** Tells the upstream to stop (best effort: its own TTL ends it otherwise). */
  async cancel(): Promise<void> {
    await this.send("tasks/cancel", {}).catch(() => undefined);
  }

  /** Polls until the task ends or asks something; the call's signal cancels it upstream. */
  async follow(ctx: ToolContext, suggestedPollMs?: unknown): Promise<ToolResult> {
    let interval = pollInterval(suggestedPollMs, DEFAULT_POLL_MS);
    let shown: string | undefined;
    for (;;) {
      if (ctx.signal.aborted) {
        await this.cancel();
        throw ctx.signal.reason; // the host ends its task cancelled (or the request with its timeout)
      }
      let task: Record<string, unknown>;
      try {
        task = await this.send("tasks/get", {}, ctx.signal);
      } catch (error) {
        if (ctx.signal.aborted) continue; // cancelled while asking: cancel upstream above
        await this.cancel();
        return this.failed(`ran as a task the gateway lost track of (tasks/get failed: ${messageOf(error)})`, codeOf(error));
      }
      if (!isDetailedTaskV2(task)) {
        await this.cancel();
        return this.failed("answered tasks/get with something that is not a task");
      }
      const detailed = task as Record<string, unknown> & { status: string; statusMessage?: string; pollIntervalMs?: number };
      if (typeof detailed.statusMessage === "string" && detailed.statusMessage !== shown) {
        shown = detailed.statusMessage;
        ctx.task?.status(this.scrub(shown));
      }
      switch (detailed.status) {
        case "completed": {
          const { resultType: _complete, ...result } = (detailed.result ?? {}) as Record<string, unknown>;
          return this.scrub({ ...result, content: Array.isArray(result.content) ? result.content : [] } as CallToolResult);
        }
        case "failed": {
          const error = (detailed.error ?? {}) as { code?: unknown; message?: unknown; data?: unknown };
          const code = typeof error.code === "number" && Number.isInteger(error.code) ? error.code : -32603;
          const message = this.scrub(typeof error.message === "string" ? error.message : "the upstream task failed");
          throw new ProtocolError(code, message, error.data === undefined ? undefined : this.scrub(error.data));
        }
        case "cancelled":
          return this.failed("was cancelled by the upstream server");
        case "input_required":
          return this.ask(ctx, (detailed.inputRequests ?? {}) as Record<string, { method?: unknown }>);
      }
      interval = pollInterval(detailed.pollIntervalMs, interval);
      await pause(this.target.clock, ctx.signal, interval);
    }
  }

  /** The upstream asks the client something: the host task asks it, the upstream task id kept in the round's state. */
  private async ask(ctx: ToolContext, requests: Record<string, { method?: unknown }>): Promise<ToolResult> {
    if (ctx.task === undefined) {
      await this.cancel();
      return this.failed("asked its client for input in a task, which only a client that declared the tasks extension can answer");
    }
    const missing = unanswerable(
      ctx.clientCapabilities,
      Object.values(requests).map((r) => String(r.method)),
    );
    if (missing.length > 0) {
      await this.cancel();
      return this.failed(`asked the client for ${missing.join(" and ")}, which this client did not declare it can answer`);
    }
    // The client may cancel (or never answer) while the host task waits: no round runs then, so the upstream's task
    // is cancelled from here.
    ctx.task.onAbandon(() => this.cancel());
    return inputRequired({
      inputRequests: this.scrub(requests) as never,
      requestState: encodeState({ k: "task", t: this.target.key, id: this.taskId }),
    });
  }

  /** The client answered: the answers go to the upstream's `tasks/update`, and the task is followed again. */
  async answer(ctx: ToolContext): Promise<ToolResult> {
    try {
      await this.send("tasks/update", { inputResponses: { ...(ctx.inputResponses ?? {}) } }, ctx.signal);
    } catch (error) {
      await this.cancel();
      return this.failed(`could not be given the client's answers (tasks/update failed: ${messageOf(error)})`);
    }
    return this.follow(ctx);
  }
}

/**
 * Follows the task an upstream answered a call with, under the call's own task when the client declared the
 * extension (`ctx.task`), else on the request.
 * @example
 * if (isUpstreamTask(result)) return followUpstreamTask(target, result, ctx);
 */
export async function followUpstreamTask(
  target: TaskRelayTarget,
  created: { taskId: string; pollIntervalMs?: number; statusMessage?: string },
  ctx: ToolContext,
): Promise<ToolResult> {
  const task = new UpstreamTask(target, created.taskId);
  if (!ctx.signal.aborted) await ctx.task?.start(created.statusMessage === undefined ? undefined : task.scrub(created.statusMessage));
  return task.follow(ctx, created.pollIntervalMs);
}

/**
 * The next round of a relayed task that asked its client something: the answers go upstream, then it is followed on.
 * @example
 * if (state.k === "task") return answerUpstreamTask(target, state.id, ctx);
 */
export function answerUpstreamTask(target: TaskRelayTarget, taskId: string, ctx: ToolContext): Promise<ToolResult> {
  return new UpstreamTask(target, taskId).answer(ctx);
}
