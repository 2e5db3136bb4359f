/**
 * The handler behind every upstream tool the gateway offers (docs/design.md §11): arguments, `_meta`, progress and
 * cancellation pass through to the upstream, and its result comes back as it is — but for the deployment's secrets,
 * which the gateway's SecretRedactor takes out of it (an upstream that echoes its API key hands it to nobody). Around that, the rounds a call may
 * take with its client, all through the host's `input_required` (which works in both eras):
 * - approval (`approval: destructive | always`): the client is asked through elicitation before the tool runs;
 * - a 2026-07-28 upstream's own `input_required`: handed to the client as the tool's own, the upstream's state inside
 *   the gateway's (sealed by the host), and sent back with the answers on the next round — nothing kept here;
 * - a 2025 upstream's pushed requests: the call pauses with the questions and goes on when the answers come;
 * - a 2026-07-28 upstream's task (task-relay.ts): followed under the host task the call becomes, its questions the
 *   host task's own;
 * - a 2025-11-25 upstream's experimental task (legacy-task-relay.ts): asked for when the host made the call a task (and
 *   always for a tool that requires it), followed as a paused call is driven, its pushed questions paused as above.
 * The common path — no approval, no questions it could answer — is forwarded: the registry sends it on the
 * connection's raw channel, with no call object and no client round.
 */
import { createHash } from "node:crypto";
import type { CallToolResult, InputRequiredResult } from "@modelcontextprotocol/client";
import { acceptedContent, inputRequired } from "../../extension/input-required.js";
import type { ToolContext, ToolHandler, ToolResult } from "../../extension/types.js";
import { isInputRequired, registryErrorCode, type McpRegistry, type RegistryTool, type UpstreamRequest } from "../../registry/index.js";
import type { Clock } from "../../clock.js";
import type { SecretRedactor } from "../../secret-redactor.js";
import { observeUpstreamCall, type UpstreamCallObserver } from "./call-observer.js";
import { decodeState, encodeState } from "./gateway-state.js";
import type { PausedCalls } from "./paused-calls.js";
import { refusal, unanswerable } from "./refusals.js";
import { legacyTaskSupport, runLegacyTask } from "./legacy-task-relay.js";
import { answerUpstreamTask, declaresTasks, followUpstreamTask, isUpstreamTask, TASKS_DECLARED, type TaskRelayTarget, withCancelGrace } from "./task-relay.js";
import { UpstreamCall } from "./upstream-call.js";

/** What the handlers of one server share. */
export interface ServerCalls {
  server: string;
  registry: McpRegistry;
  approval: "never" | "destructive" | "always";
  paused: PausedCalls;
  /** Told of a call that failed because the server could not be reached (so its health can be re-checked). */
  unreachable(): void;
  /** Times and traces each upstream call (absent: nobody observes). */
  observer?: UpstreamCallObserver;
  /** Takes the deployment's secrets (and the credentials the gateway obtained) out of what the upstream answers. */
  redactor: SecretRedactor;
  /** The gateway's clock: a relayed task's polls wait on it. */
  clock: Clock;
}

/** The key under which the approval question is asked. */
export const APPROVAL_KEY = "mcp-host/approve";

const APPROVAL_SCHEMA = {
  type: "object",
  properties: { approve: { type: "boolean", title: "Approve", description: "Let the tool run" } },
  required: ["approve"],
} as const;

/** The relay of a forwarded call: its client cannot answer, so a pushed question goes on to the usual refusal. */
const NO_RELAY = () => undefined;

function digestOf(args: Record<string, unknown>): string {
  return createHash("sha256").update(JSON.stringify(args)).digest("base64url").slice(0, 22);
}

/** The `_meta` to send upstream: the client's, with the gateway's trace context over it; none when both are empty. */
function withMeta(meta: Readonly<Record<string, unknown>> | undefined, trace: Readonly<Record<string, string>>): { meta?: Record<string, unknown> } {
  if (meta === undefined && Object.keys(trace).length === 0) return {};
  return { meta: { ...meta, ...trace } };
}

/**
 * Who a paused call belongs to, so only they resume it: the verified token's issuer, subject and client (never the
 * client alone: two users of one app share it); without auth, the legacy session, if any. The host binds the
 * round's sealed state the same way; this check stands behind that one.
 */
function ownerOf(ctx: ToolContext): string {
  const auth = ctx.auth;
  if (auth === undefined) return JSON.stringify(["session", ctx.sessionId ?? ""]);
  const subject = typeof auth.extra?.subject === "string" ? auth.extra.subject : auth.clientId;
  const iss = (auth.extra?.claims as { iss?: unknown } | undefined)?.iss;
  return JSON.stringify(["token", typeof iss === "string" ? iss : "", subject, auth.clientId]);
}

function shownArguments(args: Record<string, unknown>): string {
  const text = JSON.stringify(args);
  return text.length > 500 ? `${text.slice(0, 497)}...` : text;
}

/**
 * @example
 * const spec = { name: tool.name, toolset: "fs", inputSchema: tool.definition.inputSchema, handler: upstreamToolHandler(calls, tool) };
 */
export function upstreamToolHandler(calls: ServerCalls, tool: RegistryTool): ToolHandler {
  const key = `${calls.server}/${tool.upstreamName}`;
  const subject = `tool "${tool.upstreamName}" on server "${calls.server}"`;
  const needsApproval = calls.approval === "always" || (calls.approval === "destructive" && tool.destructive);
  // What the observer is told of each call: the same for every call of this tool, so made once.
  const observed = Object.freeze({ server: calls.server, tool: tool.upstreamName });
  const refuse = (code: "MCP_TOOL_DENIED" | "MCP_CALL_FAILED", message: string) => refusal(code, message, calls.server, tool.upstreamName);
  const relayTarget: TaskRelayTarget = {
    server: calls.server,
    tool: tool.upstreamName,
    key,
    registry: calls.registry,
    redactor: calls.redactor,
    clock: calls.clock,
  };
  const legacyTarget = { ...relayTarget, name: tool.name };

  /**
   * True when this call may be relayed as a task: the client declared the extension (the host made `ctx.task`) and
   * the upstream speaks 2026-07-28 and declared it too. The call then declares the extension to the upstream.
   */
  const relaysTasks = (ctx: ToolContext): boolean =>
    ctx.task !== undefined && calls.registry.eraOf(calls.server) === "modern" && declaresTasks(calls.registry.extensionsOf(calls.server));

  /**
   * True when this call is to run as a 2025-11-25 upstream's task: the tool requires it (it answers nothing else), or
   * allows it and the client declared the extension (the host made `ctx.task`).
   */
  const runsAsLegacyTask = (ctx: ToolContext): boolean => {
    const support = legacyTaskSupport(calls.registry, calls.server, tool.definition);
    return support === "required" || (support === "optional" && ctx.task !== undefined);
  };

  /**
   * A 2025 upstream's question pauses the call only when this client can answer it and there is room to wait (in
   * all, and within this caller's share); otherwise it meets the usual refusal.
   */
  const relayOf =
    (ctx: ToolContext, owner: string, ask: (r: UpstreamRequest) => Promise<unknown>) =>
    (request: UpstreamRequest): Promise<unknown> | undefined =>
      unanswerable(ctx.clientCapabilities, [request.method]).length === 0 && calls.paused.hasRoom(owner) ? ask(request) : undefined;

  /** Drives one downstream round of a call and words what it came to. */
  const round = async (call: UpstreamCall, ctx: ToolContext): Promise<ToolResult> => {
    const step = await call.drive({
      signal: ctx.signal,
      progress: (p) => ctx.progress(p.progress, p.total, p.message),
      status: (message) => ctx.task?.status(message),
    });
    if (step.kind === "ask") {
      calls.paused.keep(call);
      // A host task that waits for these answers and ends unanswered (cancelled, expired) cancels the call now.
      ctx.task?.onAbandon(() => calls.paused.take(call.id)?.cancel(new Error("the task it ran in ended")));
      const inputRequests = Object.fromEntries(
        step.requests.map(({ key: k, request }) => [k, { method: request.method, params: calls.redactor.redactValue(request.params) }]),
      );
      const keys = step.requests.map((r) => r.key);
      return inputRequired({ inputRequests: inputRequests as never, requestState: encodeState({ k: "paused", t: key, id: call.id, keys }) });
    }
    // Cancelled (the host task, or the request): the call's end is that, not the failure the cancel made upstream.
    if (ctx.signal.aborted) throw ctx.signal.reason;
    // An upstream may answer with a task it was not asked for: followed to its end all the same.
    if (isUpstreamTask(step.result)) return followUpstreamTask(relayTarget, step.result, ctx);
    return finished(step.result, ctx);
  };

  /** A finished upstream call: its result as it is, or a 2026-07-28 upstream's questions handed on. */
  const finished = (result: CallToolResult | InputRequiredResult, ctx: ToolContext): ToolResult => {
    if (!isInputRequired(result)) {
      if (result.isError === true && registryErrorCode(result) === "MCP_SERVER_UNREACHABLE") calls.unreachable();
      return calls.redactor.redactValue(result);
    }
    const requests = calls.redactor.redactValue((result.inputRequests ?? {}) as Record<string, { method?: string }>);
    const missing = unanswerable(
      ctx.clientCapabilities,
      Object.values(requests).map((r) => String(r.method)),
    );
    if (missing.length > 0) {
      return refuse("MCP_CALL_FAILED", `${subject} asked the client for ${missing.join(" and ")}, which this client did not declare it can answer`);
    }
    const state = encodeState({ k: "upstream", t: key, ...(typeof result.requestState === "string" ? { s: result.requestState } : {}) });
    return inputRequired({ inputRequests: requests as never, requestState: state });
  };

  /** Starts the upstream call (first round, or the next round of a 2026-07-28 upstream's questions). */
  const start = (args: Record<string, unknown>, ctx: ToolContext, upstreamState: { s?: string } | undefined): Promise<ToolResult> => {
    const owner = ownerOf(ctx);
    const call = new UpstreamCall(owner);
    call.start((ask, signal, onprogress) =>
      observeUpstreamCall(calls.observer, observed, (trace) =>
        calls.registry.callTool(tool.name, args, {
          signal,
          onprogress,
          onServerRequest: relayOf(ctx, owner, ask),
          inputRequired: "return",
          approve: () => true, // asked already (or not needed): the registry's own approval rule is satisfied here
          // The client's own _meta passes through; the gateway's trace context (its call's span) replaces the client's.
          ...withMeta(ctx.meta, trace),
          ...(upstreamState === undefined ? {} : { requestState: upstreamState.s, inputResponses: { ...(ctx.inputResponses ?? {}) } }),
        }),
      ),
    );
    return round(call, ctx);
  };

  /** Starts a call that runs as a 2025-11-25 upstream's task, driven (and paused for its questions) as above. */
  const startLegacyTask = async (args: Record<string, unknown>, ctx: ToolContext): Promise<ToolResult> => {
    const owner = ownerOf(ctx);
    const call = new UpstreamCall(owner);
    call.start((ask, signal, onprogress, status) =>
      observeUpstreamCall(calls.observer, observed, (trace) =>
        runLegacyTask(legacyTarget, { args, signal, onprogress, status, relay: relayOf(ctx, owner, ask), ...withMeta(ctx.meta, trace) }),
      ),
    );
    await ctx.task?.start();
    return round(call, ctx);
  };

  /**
   * A first round that needs nothing but forwarding (docs/gateway.md, "Forwarded calls"): no approval to ask, and no
   * question the upstream could push mid-call that this client could answer — it declared none of sampling,
   * elicitation and roots, or the upstream speaks 2026-07-28, whose questions come back as `input_required` results.
   * The registry forwards it on the connection's raw channel (or runs a client round when it cannot); no call object,
   * no pause machinery. A question a 2025 upstream pushes anyway meets today's answer: refused, as for any client
   * that cannot answer it.
   */
  const forwardable = (ctx: ToolContext): boolean => {
    const caps = ctx.clientCapabilities;
    const canAnswer = caps !== undefined && (caps.sampling !== undefined || caps.elicitation !== undefined || caps.roots !== undefined);
    return !canAnswer || calls.registry.eraOf(calls.server) === "modern";
  };

  const forward = async (args: Record<string, unknown>, ctx: ToolContext): Promise<ToolResult> => {
    let sending: Promise<void> | undefined;
    let result: CallToolResult | InputRequiredResult;
    const tasks = relaysTasks(ctx);
    // A call that may be answered with a task is let finish briefly after a cancel, to cancel that task upstream.
    const graced = tasks ? withCancelGrace(ctx.signal, calls.clock) : undefined;
    try {
      result = await observeUpstreamCall(calls.observer, observed, (trace) =>
        calls.registry.callTool(tool.name, args, {
          signal: graced?.signal ?? ctx.signal,
          // Progress is written to the client in order, and before the result (as a paused call's round does).
          onprogress: (p) => {
            sending = (sending ?? Promise.resolve()).then(() => ctx.progress(p.progress, p.total, p.message)).catch(() => undefined);
          },
          onServerRequest: NO_RELAY,
          inputRequired: "return",
          approve: () => true, // not needed (needsApproval is false): the registry's own approval rule is satisfied here
          forward: true,
          ...(tasks ? { extensions: TASKS_DECLARED } : {}),
          ...withMeta(ctx.meta, trace),
        }),
      );
    } catch (error) {
      result = { content: [{ type: "text", text: `the call failed: ${(error as Error)?.message ?? String(error)}` }], isError: true };
    } finally {
      graced?.done();
    }
    if (sending !== undefined) await sending;
    if (isUpstreamTask(result)) return followUpstreamTask(relayTarget, result, ctx);
    return finished(result, ctx);
  };

  /** Asks for approval; undefined once it was given for these arguments. */
  const approvalRound = (args: Record<string, unknown>, ctx: ToolContext, asked: boolean): ToolResult | undefined => {
    if (asked) {
      const answer = acceptedContent<{ approve?: unknown }>(ctx.inputResponses, APPROVAL_KEY);
      if (answer?.approve === true) return undefined;
      return refuse("MCP_TOOL_DENIED", `the call to ${subject} was not approved`);
    }
    if (unanswerable(ctx.clientCapabilities, ["elicitation/create"]).length > 0) {
      return refuse(
        "MCP_TOOL_DENIED",
        `${subject} needs approval (approval: "${calls.approval}") and this client cannot be asked (it did not declare elicitation); the call was refused`,
      );
    }
    const message = `Allow ${subject} to run${tool.destructive ? " (it may change or delete things)" : ""}? Arguments: ${shownArguments(args)}`;
    return inputRequired({
      inputRequests: { [APPROVAL_KEY]: inputRequired.elicit({ message, requestedSchema: APPROVAL_SCHEMA }) },
      requestState: encodeState({ k: "approve", t: key, d: digestOf(args) }),
    });
  };

  return async (args, ctx) => {
    const raw = ctx.requestState();
    const state = raw === undefined ? undefined : decodeState(raw);
    if (raw !== undefined && (state === undefined || state.t !== key)) {
      return refuse("MCP_CALL_FAILED", `the request state sent with this call does not belong to ${subject}; call it again without it`);
    }
    if (state?.k === "paused") {
      const call = calls.paused.take(state.id);
      if (!call || call.owner !== ownerOf(ctx)) {
        return refuse(
          "MCP_CALL_FAILED",
          `${subject} is no longer waiting for this answer (it ran out of time, or was started by another process); call it again`,
        );
      }
      call.answer(ctx.inputResponses, state.keys);
      return round(call, ctx);
    }
    if (state?.k === "task") return answerUpstreamTask(relayTarget, state.id, ctx);
    if (state?.k === "upstream") return start(args, ctx, state);
    const legacyTask = runsAsLegacyTask(ctx);
    if (state === undefined && !needsApproval && !legacyTask && forwardable(ctx)) return forward(args, ctx);
    if (needsApproval) {
      const asked = state?.k === "approve";
      if (asked && state.d !== digestOf(args)) return refuse("MCP_TOOL_DENIED", `the approval given was for other arguments to ${subject}; call it again`);
      const refused = approvalRound(args, ctx, asked);
      if (refused) return refused;
    }
    // Approved: a call that may become a relayed task goes on the raw channel, the one path that can declare it.
    if (relaysTasks(ctx)) return forward(args, ctx);
    if (legacyTask) return startLegacyTask(args, ctx);
    return start(args, ctx, undefined);
  };
}
