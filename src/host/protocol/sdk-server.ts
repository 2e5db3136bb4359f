/**
 * Makes a low-level SDK `Server` over a build's precomputed tables — a fresh one per modern request through the SDK's
 * entry and per legacy session (docs/design.md §3), or a long-lived one of the HTTP fast path's pool, which reads each
 * request's facts from that request's context (§8). Making one registers a fixed set of handlers that close over the
 * tables, so it costs the same for 10 tools as for 1000.
 */
import {
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
  Server,
  type CompleteResult,
  type GetPromptResult,
  type Implementation,
  type InputRequiredResult,
  type ReadResourceResult,
  type Resource,
  type ServerContext,
  type ServerOptions,
} from "@modelcontextprotocol/server";
import { isRequestError, type RequestError } from "../../extension/request-errors.js";
import type { CompleteFn } from "../../extension/types.js";
import type { Clock } from "../../clock.js";
import type { Logger } from "../../logger.js";
import type { BuildTables } from "../build/build-tables.js";
import type { ToolActivity } from "../monitor/tool-activity.js";
import type { HostObserver } from "../observer.js";
import { callTool } from "./call-tool.js";
import { observedMethods, observedRegistrar } from "./observed-handlers.js";
import { readSkillFile, registerSkillMethods, SKILLS_CAPABILITY } from "../../skills/skill-methods.js";
import { clientCapabilitiesOf, requestContext, type RequestInfoOf, type ServeRequestInfo } from "./request-context.js";
import type { TaskBoard } from "../../tasks/task-board.js";
import { declaresTasks, TASKS_CAPABILITY } from "../../tasks/tasks-extension.js";
import { registerTaskMethods } from "../../tasks/tasks-protocol.js";
import { speakLegacyErrorCodes } from "./era-error-codes.js";
import { callerOf, openIncoming, sealOutgoing, type RequestStateSealer } from "./request-state.js";
import type { ToolCallGate } from "./tool-limits.js";
import { defined } from "../../defined.js";

/** What every per-request server of one build shares. */
export interface ProtocolCore {
  name: string;
  version: string;
  instructions: string | undefined;
  tables: BuildTables;
  logger: Logger;
  toolTimeoutMs: number;
  /** What tool timeouts run on (the host's clock). */
  clock: Clock;
  /** Seals and verifies multi-round-trip request state (shared by every build of a host). */
  requestState: RequestStateSealer;
  /** Records tool calls on the main thread for the event-loop monitor (absent when it is off). */
  activity?: ToolActivity;
  /** The host's limits on tool calls: calls at once per tool, the largest result (absent: none). */
  toolGate?: ToolCallGate;
  /** Hears every request these servers answer (logs, metrics, traces); absent: nobody observes. */
  observer?: HostObserver;
  /** The host's tasks (docs/tasks.md): the task methods, and task-supporting calls that outgrow their request. */
  tasks?: TaskBoard;
}

/**
 * What every per-request server declares. The skills extension is among them whatever the selection serves (docs/
 * skills.md): a selection with no skill lists none, and a client that discovered the capability once keeps working
 * when skills come or go (a `mcp-host dev` reload, an upstream that comes up) — told by resources/list_changed.
 */
export const SERVER_CAPABILITIES = {
  tools: { listChanged: true },
  resources: { subscribe: true, listChanged: true },
  prompts: { listChanged: true },
  logging: {},
  completions: {},
  extensions: { ...TASKS_CAPABILITY, ...SKILLS_CAPABILITY },
} as const;

const MAX_COMPLETIONS = 100;

/** The protocol error a handler's deliberate `invalidParams` / `resourceNotFound` stands for. */
function protocolErrorOf(error: RequestError): ProtocolError {
  if (error.kind === "resource_not_found") return new ResourceNotFoundError(error.uri ?? "", error.message);
  return new ProtocolError(ProtocolErrorCode.InvalidParams, error.message, error.data);
}

/**
 * Runs an extension's resource, template or prompt handler. A ProtocolError (e.g. ResourceNotFoundError) is the
 * extension speaking to the client and passes through; anything else is a bug: logged with the extension and
 * what it was doing, answered with -32603 and nothing internal.
 */
async function guarded<T>(core: ProtocolCore, owner: { extension: string }, what: string, run: () => T | Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof ProtocolError) throw error;
    if (isRequestError(error)) throw protocolErrorOf(error);
    core.logger.error(`[extension ${owner.extension}] ${what} failed: ${(error as Error)?.message ?? String(error)}`, { extension: owner.extension });
    if (error instanceof Error && error.stack)
      core.logger.debug(`[extension ${owner.extension}] ${what} failed here`, { extension: owner.extension, stack: error.stack });
    throw new ProtocolError(ProtocolErrorCode.InternalError, `Internal error in extension "${owner.extension}" while handling ${what}`);
  }
}

function contextFor(
  core: ProtocolCore,
  server: Server,
  info: ServeRequestInfo,
  sdk: ServerContext,
  owner: { extension: string; toolset: string },
  requestState?: unknown,
) {
  return requestContext({
    sdk,
    server,
    info,
    extension: owner.extension,
    toolset: owner.toolset,
    requestState,
    signal: sdk.mcpReq.signal,
    logger: core.logger.child(owner.extension, { extension: owner.extension }),
  });
}

async function listResources(core: ProtocolCore, server: Server, info: ServeRequestInfo, sdk: ServerContext): Promise<Resource[]> {
  const listed: Resource[] = [...core.tables.resources, ...core.tables.skills.resources];
  for (const template of core.tables.templateList) {
    if (typeof template.spec.list !== "function") continue;
    try {
      listed.push(...(await template.spec.list(contextFor(core, server, info, sdk, template))));
    } catch (error) {
      core.logger.warn(
        `[extension ${template.extension}] listing resources of template "${template.spec.uriTemplate}" failed; they are left out of this listing`,
        {
          extension: template.extension,
          error: (error as Error).message,
        },
      );
    }
  }
  return listed;
}

async function readResource(
  core: ProtocolCore,
  server: Server,
  info: ServeRequestInfo,
  uri: string,
  sdk: ServerContext,
): Promise<ReadResourceResult | InputRequiredResult> {
  // A retry's state must be this caller's, for this very URI (a template's state does not open another of its URIs).
  const site = { sdk, info, target: uri };
  const skillFile = await readSkillFile(core.tables.skills, uri, (owner) => contextFor(core, server, info, sdk, owner), core.logger);
  if (skillFile !== undefined) return skillFile;
  const direct = core.tables.resourceByUri.get(uri);
  if (direct) {
    const state = await openIncoming(core.requestState, site);
    const read = () => direct.spec.read(contextFor(core, server, info, sdk, direct, state));
    return sealOutgoing(core.requestState, await guarded(core, direct, `resources/read of "${uri}"`, read), site);
  }
  for (const template of core.tables.templateList) {
    const variables = template.matcher.match(uri);
    if (variables) {
      const state = await openIncoming(core.requestState, site);
      const read = () => template.spec.read(uri, variables, contextFor(core, server, info, sdk, template, state));
      return sealOutgoing(core.requestState, await guarded(core, template, `resources/read of "${uri}"`, read), site);
    }
  }
  throw new ResourceNotFoundError(uri, `Resource not found: ${uri}`);
}

async function getPrompt(
  core: ProtocolCore,
  server: Server,
  info: ServeRequestInfo,
  name: string,
  args: Record<string, string>,
  sdk: ServerContext,
): Promise<GetPromptResult | InputRequiredResult> {
  const prompt = core.tables.promptByName.get(name);
  if (!prompt) {
    const available = core.tables.prompts.map((p) => p.name).join(", ") || "none on this selection";
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown prompt "${name}". Available: ${available}`);
  }
  // A retry's state must be this caller's, for this prompt (by its listed name): else -32602 before anything runs.
  const site = { sdk, info, target: prompt.name };
  const state = await openIncoming(core.requestState, site);
  const missing = (prompt.spec.arguments ?? []).filter((a) => a.required && (args[a.name] === undefined || args[a.name] === "")).map((a) => a.name);
  if (missing.length > 0) {
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Prompt "${name}" needs the argument(s) ${missing.map((m) => `"${m}"`).join(", ")}`);
  }
  const get = () => prompt.spec.get(args, contextFor(core, server, info, sdk, prompt, state));
  return sealOutgoing(core.requestState, await guarded(core, prompt, `prompts/get of "${name}"`, get), site);
}

async function complete(
  core: ProtocolCore,
  params: { ref: { type: string; name?: string; uri?: string }; argument: { name: string; value: string }; context?: { arguments?: Record<string, string> } },
): Promise<CompleteResult> {
  const owner =
    params.ref.type === "ref/prompt"
      ? core.tables.promptByName.get(params.ref.name ?? "")
      : params.ref.type === "ref/resource"
        ? core.tables.templateByUriTemplate.get(params.ref.uri ?? "")
        : undefined;
  // An argument name is the client's plain text: only the extension's own entries count (`constructor` is a name).
  const table = owner?.spec.complete;
  const fn: CompleteFn | undefined = table !== undefined && Object.hasOwn(table, params.argument.name) ? table[params.argument.name] : undefined;
  if (owner === undefined || typeof fn !== "function") return { completion: { values: [], hasMore: false } };
  const values = await guarded(core, owner, `completion/complete of "${params.argument.name}"`, () =>
    fn(params.argument.value, { arguments: params.context?.arguments ?? {} }),
  );
  return { completion: { values: values.slice(0, MAX_COMPLETIONS), total: values.length, hasMore: values.length > MAX_COMPLETIONS } };
}

/**
 * A view of the core whose `tables` are read at each access (a rebound legacy session serves the new build's). Every
 * other field is inherited from the first core, not copied, so a field added to `ProtocolCore` can never be dropped.
 */
export function lazyCore(source: () => ProtocolCore): ProtocolCore {
  return Object.create(source(), {
    tables: { get: () => source().tables, enumerable: true },
  }) as ProtocolCore;
}

/** How the instance is made, beyond the build and the request. */
export interface SdkServerOptions {
  /**
   * Makes the instance the handlers are registered on (default: `new Server(identity, options)`). The HTTP fast path
   * makes a subclass that is connected once and serves many requests.
   */
  make?: (identity: Implementation, options: ServerOptions) => Server;
}

/**
 * @example
 * const server = createSdkServer(built.core, { era: "modern", selection: { active, unknown: [] } });
 */
export function createSdkServer(
  coreOrSource: ProtocolCore | (() => ProtocolCore),
  info: ServeRequestInfo | RequestInfoOf,
  options: SdkServerOptions = {},
): Server {
  // A legacy session reads its core through a function, so a list change can rebind it to the new build.
  const source = typeof coreOrSource === "function" ? coreOrSource : () => coreOrSource;
  const core = lazyCore(source);
  const make = options.make ?? ((identity, serverOptions) => new Server(identity, serverOptions));
  const server = make(
    { name: core.name, version: core.version },
    {
      capabilities: SERVER_CAPABILITIES,
      ...defined({ instructions: core.instructions }),
    },
  );
  // One request's facts: the instance's own (a per-request server, a legacy session), else its context's.
  const infoOf: RequestInfoOf = typeof info === "function" ? info : () => info;
  const deps = {
    get tables() {
      return source().tables;
    },
    logger: core.logger,
    defaultTimeoutMs: core.toolTimeoutMs,
    clock: core.clock,
    requestState: core.requestState,
    ...defined({ activity: core.activity, gate: core.toolGate, tasks: core.tasks }),
  };
  if (typeof info !== "function" && info.era === "legacy") speakLegacyErrorCodes(server);
  const on = observedRegistrar(server, core.observer, infoOf, () => core.tables);
  on("tools/list", () => ({ tools: core.tables.tools }));
  on("tools/call", (request, sdk) => callTool(deps, request.params, sdk, server, infoOf(sdk)));
  on("resources/list", async (_request, sdk) => ({ resources: await listResources(core, server, infoOf(sdk), sdk) }));
  on("resources/templates/list", () => ({ resourceTemplates: core.tables.templates }));
  on("resources/read", (request, sdk) => readResource(core, server, infoOf(sdk), request.params.uri, sdk));
  on("resources/subscribe", (request, sdk) => {
    infoOf(sdk).subscriptions?.add(request.params.uri, core.tables);
    return {};
  });
  on("resources/unsubscribe", (request, sdk) => {
    infoOf(sdk).subscriptions?.delete(request.params.uri);
    return {};
  });
  on("prompts/list", () => ({ prompts: core.tables.prompts }));
  on("prompts/get", (request, sdk) => getPrompt(core, server, infoOf(sdk), request.params.name, request.params.arguments ?? {}, sdk));
  on("completion/complete", (request) => complete(core, request.params));
  registerSkillMethods(
    observedMethods(server, core.observer, infoOf, () => core.tables),
    // A long-lived server (a function of its requests) serves the 2026-07-28 era only.
    { table: () => core.tables.skills, era: typeof info === "function" ? "modern" : info.era },
  );
  if (core.tasks !== undefined)
    registerTaskMethods(server, core.tasks, {
      declares: (sdk) => declaresTasks(clientCapabilitiesOf(sdk, server, infoOf(sdk))),
      owner: (sdk) => callerOf(sdk, infoOf(sdk)),
    });
  return server;
}
