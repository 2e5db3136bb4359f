/**
 * Puts the host's observer (docs/design.md §18) around every request handler the protocol core registers: what the
 * request is (method, id, era, caller, `_meta`, the routed tool), then how it ended (duration, the tool call's
 * outcome, the error code). With no observer the SDK's own registration is used as it is: nothing per request.
 * An observer that throws is ignored; the request is served all the same.
 */
import {
  PROTOCOL_VERSION_META_KEY,
  type HandlerResultTypeMap,
  type RequestMethod,
  type RequestTypeMap,
  type Result,
  type Server,
  type ServerContext,
  type StandardSchemaV1,
} from "@modelcontextprotocol/server";
import type { BuildTables } from "../build/build-tables.js";
import type { HostObserver, ObservedEnd, ObservedRequest, RequestObservation } from "../observer.js";
import type { RequestInfoOf, ServeRequestInfo } from "./request-context.js";
import { errorTextOf, toolOutcomeOf } from "./tool-outcome.js";
import { defined } from "../../defined.js";

/** `server.setRequestHandler` in its two-argument form. */
export type RegisterHandler = <M extends RequestMethod>(
  method: M,
  handler: (request: RequestTypeMap[M], ctx: ServerContext) => HandlerResultTypeMap[M] | Promise<HandlerResultTypeMap[M]>,
) => void;

/** `server.setRequestHandler` in its three-argument form: a method outside the spec (an extension's), with its params schema. */
export type RegisterMethod = (method: string, params: StandardSchemaV1, handler: (params: never, ctx: ServerContext) => Result | Promise<Result>) => void;

const INVALID_PARAMS = -32602;

type Params = { name?: unknown; arguments?: unknown; uri?: unknown; _meta?: unknown } | undefined;

function subjectOf(ctx: ServerContext, info: ServeRequestInfo): string | undefined {
  const extra = (ctx.http?.authInfo ?? info.authInfo)?.extra as { subject?: unknown } | undefined;
  return typeof extra?.subject === "string" ? extra.subject : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The tool a `tools/call` routes to. A call of search mode's `call_tool` is told as the call of the tool it names,
 * with that tool's arguments — audit lines, metrics and spans name the real tool — and `via: "call_tool"`.
 */
function describeToolCall(request: ObservedRequest, name: string, args: unknown, tables: BuildTables): void {
  const tool = tables.toolByName.get(name);
  const inner = isRecord(args) ? args : undefined;
  if (tool?.dispatches && tables.catalogue !== undefined && typeof inner?.name === "string") {
    request.via = tool.name;
    describeToolCall(request, inner.name, inner.arguments, tables.catalogue);
    return;
  }
  request.toolName = name;
  if (tool) request.tool = { name, listed: tool.name, toolset: tool.toolset, extension: tool.extension };
  if (inner !== undefined) request.arguments = inner;
}

/** What an observer is told about one request, read off the request, its context and the build's tables. */
function describeRequest(method: string, params: Params, ctx: ServerContext, info: ServeRequestInfo, tables: BuildTables): ObservedRequest {
  const version = ctx.mcpReq.envelope?.[PROTOCOL_VERSION_META_KEY as never] as unknown;
  const subject = subjectOf(ctx, info);
  const sessionId = info.sessionId ?? ctx.sessionId;
  const meta = ctx.mcpReq._meta as Record<string, unknown> | undefined;
  const request: ObservedRequest = {
    method,
    id: String(ctx.mcpReq.id),
    era: info.era,
    transport: info.transport ?? "http",
    ...(typeof version === "string" ? { protocolVersion: version } : {}),
    ...defined({ sessionId, subject, meta }),
  };
  if (method === "tools/call" && typeof params?.name === "string") describeToolCall(request, params.name, params.arguments, tables);
  if (method === "prompts/get" && typeof params?.name === "string") request.promptName = params.name;
  if (method.startsWith("resources/") && typeof params?.uri === "string") request.resourceUri = params.uri;
  return request;
}

function endOfError(method: string, error: unknown): Omit<ObservedEnd, "durationMs"> {
  const code = (error as { code?: unknown } | null)?.code;
  const errorCode = typeof code === "number" ? code : -32603;
  const message = (error as Error | null)?.message;
  return {
    errorCode,
    ...(typeof message === "string" ? { error: message.slice(0, 200) } : {}),
    ...(method === "tools/call" ? { outcome: errorCode === INVALID_PARAMS ? "refused" : "isError" } : {}),
  };
}

function endOfResult(method: string, result: unknown): Omit<ObservedEnd, "durationMs"> {
  if (method !== "tools/call") return {};
  const error = errorTextOf(result);
  return { outcome: toolOutcomeOf(result), ...defined({ error }) };
}

function finish(observation: RequestObservation, ended: ObservedEnd): void {
  try {
    observation.end(ended);
  } catch {
    // An observer's failure is its own; the request was served.
  }
}

/**
 * Runs `work` (a handler: its value, or a promise of it) under the observer. `observed` is async, so a handler that
 * throws at once rejects it as one whose promise rejects does; no extra promise is made to wrap the handler.
 */
async function observed<T>(observer: HostObserver, describe: () => ObservedRequest, work: () => T | Promise<T>): Promise<T> {
  let observation: RequestObservation | undefined;
  let request: ObservedRequest | undefined;
  try {
    request = describe();
    observation = observer.request?.(request);
  } catch {
    observation = undefined;
  }
  if (observation === undefined || request === undefined) return work();
  const method = request.method;
  const started = performance.now();
  let ran = false;
  const once = () => {
    ran = true;
    // The handler's own promise when it made one (Promise.resolve hands a native promise back as it is).
    return Promise.resolve(work());
  };
  let result: T;
  try {
    try {
      result = await observation.run(once);
    } catch (error) {
      if (ran) throw error;
      result = await once();
    }
  } catch (error) {
    finish(observation, { durationMs: performance.now() - started, ...endOfError(method, error) });
    throw error;
  }
  finish(observation, { durationMs: performance.now() - started, ...endOfResult(method, result) });
  return result;
}

/**
 * The handler registration of one per-request server: the SDK's own when nobody observes, else one that observes.
 * @example
 * const on = observedRegistrar(server, core.observer, () => info, () => core.tables);
 * on("tools/list", () => ({ tools: core.tables.tools }));
 */
export function observedRegistrar(server: Server, observer: HostObserver | undefined, infoOf: RequestInfoOf, tables: () => BuildTables): RegisterHandler {
  const register = server.setRequestHandler.bind(server) as RegisterHandler;
  if (observer?.request === undefined) return register;
  return (method, handler) =>
    register(method, (request, ctx) =>
      observed(
        observer,
        () => describeRequest(method, (request as { params?: Params }).params, ctx, infoOf(ctx), tables()),
        () => handler(request, ctx),
      ),
    );
}

/**
 * The same for methods outside the spec (the skills extension's): registered with their params schema, observed alike.
 * @example
 * const method = observedMethods(server, core.observer, () => info, () => core.tables);
 * method("skills/list", ListSkillsRequestParamsSchema, (params) => ({ skills: [] }));
 */
export function observedMethods(server: Server, observer: HostObserver | undefined, infoOf: RequestInfoOf, tables: () => BuildTables): RegisterMethod {
  const register = (method: string, params: StandardSchemaV1, handler: (params: never, ctx: ServerContext) => Result | Promise<Result>) =>
    server.setRequestHandler(method, { params }, handler as (params: unknown, ctx: ServerContext) => Result | Promise<Result>);
  if (observer?.request === undefined) return register;
  return (method, params, handler) =>
    register(method, params, (parsed, ctx) =>
      observed(
        observer,
        () => describeRequest(method, parsed as Params, ctx, infoOf(ctx), tables()),
        () => handler(parsed, ctx),
      ),
    );
}
