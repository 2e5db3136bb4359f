/**
 * The contract extension authors code against (docs/design.md §4). An extension is a plain object: what it offers
 * (toolsets, tools, resources, prompts, tool extensions) is readable without running anything, and its hooks
 * are optional. The host owns everything that changes per request.
 */
import type {
  AuthInfo,
  CallToolResult,
  ClientCapabilities,
  GetPromptResult,
  InputRequiredResult,
  LoggingLevel,
  PromptArgument,
  ReadResourceResult,
  Resource,
  ServerContext,
  ToolAnnotations,
} from "@modelcontextprotocol/server";
import type { Skill } from "@modelcontextprotocol/server/ext/skills";
import type { Clock } from "../clock.js";
import type { Logger } from "../logger.js";
import type { InferArgs, SchemaInput } from "./schema-types.js";

/** A named group of tools, resources and prompts that a URL can turn on (a subject, not a plugin). */
export interface ToolsetSpec {
  name: string;
  title?: string;
  description?: string;
  /** Instructions for the model, sent only to selections that include this toolset. */
  instructions?: string;
  /** On when the URL names nothing (default true). */
  default?: boolean;
  /** On in every selection; survives `only=` and `without=` (default false). */
  always?: boolean;
}

/** What a selection turned on, as a handler sees it. */
export interface SelectionView {
  readonly active: readonly string[];
  readonly unknown: readonly string[];
  /**
   * The declared toolsets this caller may reach, when the deployment guards toolsets with token scopes
   * (`auth.toolsetScopes`); absent when nothing is guarded.
   */
  readonly permitted?: readonly string[];
}

/** Per-request facts and abilities shared by tool, resource and prompt handlers. */
export interface RequestContext {
  /** The extension that contributed what is being called. */
  readonly extension: string;
  /** The toolset it belongs to. */
  readonly toolset: string;
  /** Aborted when the client cancels or disconnects, or the tool's timeout expires. */
  readonly signal: AbortSignal;
  /** The verified token of the caller, when the deployment verifies tokens. */
  readonly auth?: AuthInfo;
  /** The toolsets the request's URL turned on, and the names it used that nobody declared. */
  readonly selection: SelectionView;
  /** Which protocol era the request arrived in. */
  readonly era: "legacy" | "modern";
  /** How the client reaches the server: over HTTP (a URL picks the toolsets) or stdio (the command line does). */
  readonly transport: "http" | "stdio";
  /** The legacy session id, when there is one. */
  readonly sessionId?: string;
  /** What the client declared it can do (elicitation, sampling, roots…). */
  readonly clientCapabilities?: ClientCapabilities;
  /** Server-side log, prefixed with the extension's name. */
  readonly logger: Logger;
  /** Sends `notifications/message` to the client, honouring the level it asked for. Never throws. */
  log(level: LoggingLevel, data: unknown): Promise<void>;
  /** Multi-round-trip answers from the client (elicitation, sampling, roots), keyed as the handler asked. */
  readonly inputResponses?: Record<string, unknown>;
  /** The request state the handler returned with its last `inputRequired(...)`, or undefined. */
  requestState<T = unknown>(): T | undefined;
  /** The request's `_meta`, as the client sent it (the protocol's reserved envelope keys lifted out), or undefined. */
  readonly meta?: Readonly<Record<string, unknown>>;
  /** The raw SDK context: the escape hatch for what this interface does not cover. */
  readonly mcp: ServerContext;
}

/** What a tool handler receives besides its arguments. */
export interface ToolContext extends RequestContext {
  /** The tool's own name (as its extension declared it). */
  readonly tool: string;
  /**
   * Reports progress when the client asked for it (a progress token); otherwise does nothing. Never throws. In a
   * call that runs as an MCP task, the message (else `progress/total`) becomes the task's `statusMessage`.
   * @example await ctx.progress(3, 10, "indexing");
   */
  progress(progress: number, total?: number, message?: string): Promise<void>;
  /**
   * Present when this call may run as an MCP task (docs/tasks.md): the tool declares `taskSupport` and the client
   * declared the `io.modelcontextprotocol/tasks` extension on this request. Absent otherwise.
   */
  readonly task?: TaskControl;
}

/**
 * A call's side of an MCP task. The host answers the client with a task once the call has run longer than the tool's
 * `taskAfterMs` (or when the handler calls `start()`); the handler goes on, and what it returns becomes the task's
 * result. Returning `inputRequired(...)` from a call that is a task parks the task in `input_required`; the client's
 * `tasks/update` answers run the handler again with them, as a multi-round-trip retry would.
 */
export interface TaskControl {
  /** True once the call runs as a task (the client was answered with its id). */
  readonly running: boolean;
  /** The task's id once it runs as one. */
  readonly taskId?: string;
  /**
   * Makes the call a task now, if it is not one yet; resolves once the task is recorded and any instance of the
   * deployment can answer `tasks/get` for it.
   * @example await ctx.task?.start("export queued");
   */
  start(statusMessage?: string): Promise<void>;
  /** Sets the task's `statusMessage`: what `tasks/get` shows while it works. Does nothing before the call is a task. */
  status(message: string): void;
  /**
   * Runs `cleanup` if the task ends while it waits for the client's answers — cancelled, expired, or failed as the
   * host stops. No round of the handler runs then, so no signal reaches it: this is how a round that returned
   * `inputRequired(...)` lets go of what it holds elsewhere (the gateway cancels the upstream's task). Asked again
   * each round: the next round, once the client answers, starts with none.
   * @example
   * ctx.task?.onAbandon(() => upstream.cancel(jobId));
   * return inputRequired({ inputRequests: { confirm }, requestState: jobId });
   */
  onAbandon(cleanup: () => unknown): void;
}

/** Whether a tool may run as an MCP task (docs/tasks.md). */
export type TaskSupport = "never" | "optional" | "required";

/** What a tool returns: a result, or a request for input (elicitation, sampling, roots) made with `inputRequired`. */
export type ToolResult = CallToolResult | InputRequiredResult;

/** A tool handler. It may throw: the host turns that into an `isError` result carrying the message. */
export type ToolHandler<A = Record<string, unknown>> = (args: A, ctx: ToolContext) => ToolResult | Promise<ToolResult>;

/**
 * The limits of one call that runs in a worker thread (docs/design.md §16). Past either, the worker is ended and the
 * call gets an `isError` result naming the tool and the limit; the host and every other call carry on.
 */
export interface IsolationLimits {
  /** The worker's V8 heap (old generation), in MB. Default 256. */
  heapMb?: number;
  /** CPU time one call may use, in ms (the time its worker is busy; waiting on I/O does not count). Default 2000. */
  cpuMs?: number;
}

/**
 * How an extension's handlers run in worker threads: the module the worker imports to find them, their limits,
 * and how many workers the extension keeps.
 * @example
 * defineExtension({ name: "text", isolation: { module: import.meta.url, cpuMs: 5000 }, tools: [stats] })
 */
export interface IsolationOptions extends IsolationLimits {
  /**
   * The module whose export is this extension (the default export, or `extension` / `extensions`; an object or an
   * array, not a factory): write `import.meta.url`. A discovered extension that gives none gets its entry file.
   */
  module?: string;
  /** Worker threads this extension keeps: at most this many of its calls run at once, the rest wait. Default 2. */
  poolSize?: number;
}

/** A tool an extension offers. */
export interface ToolSpec<S extends SchemaInput = SchemaInput> {
  name: string;
  /** The toolset it belongs to; default: the extension's first declared toolset. */
  toolset?: string;
  title?: string;
  description?: string;
  /** JSON Schema with an object root, or a zod / Standard Schema object. Default: an empty object schema. */
  inputSchema?: S;
  /** JSON Schema or Standard Schema for `structuredContent`. */
  outputSchema?: SchemaInput;
  annotations?: ToolAnnotations;
  /** `_meta` advertised with the tool. */
  meta?: Record<string, unknown>;
  /** Overrides the host's tool timeout for this tool. */
  timeoutMs?: number;
  /**
   * Whether a call may run as an MCP task (`io.modelcontextprotocol/tasks`, docs/tasks.md): `never` (the default);
   * `optional` — a client that declared the extension is answered with a task once the call runs longer than
   * `taskAfterMs`, any other client waits for the result; `required` — only a client that declared it may call
   * the tool (others get -32021).
   */
  taskSupport?: TaskSupport;
  /**
   * How long a task-supporting call runs before the client is answered with a task (ms, default 0: at the first
   * moment the handler has not settled). A call that settles sooner is answered with its result.
   */
  taskAfterMs?: number;
  /** How long the host keeps this tool's tasks from their creation (ms; default and bound: the host's `tasks` settings). */
  taskTtlMs?: number;
  /**
   * Whether the host checks `structuredContent` against `outputSchema` (default true). `false` is for a tool whose
   * result was checked already — the gateway's upstream tools, which the registry checks under the server's policy.
   */
  validateOutput?: boolean;
  /**
   * In an extension with `isolation`: `"none"` runs this tool on the host's main thread; limits override the
   * extension's for this tool. A tool can not ask for isolation its extension does not have.
   */
  isolation?: "none" | IsolationLimits;
  // Method syntax on purpose: a handler typed for its own arguments still fits a list of tools of any schema.
  handler(args: InferArgs<S>, ctx: ToolContext): ToolResult | Promise<ToolResult>;
}

/** A static resource. */
export interface ResourceSpec {
  uri: string;
  name: string;
  toolset?: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  annotations?: Resource["annotations"];
  meta?: Record<string, unknown>;
  /** May return `inputRequired(...)` to ask the client first, as a tool can. */
  read(ctx: RequestContext): ReadResourceResult | InputRequiredResult | Promise<ReadResourceResult | InputRequiredResult>;
}

/** Completion for one variable of a template or one argument of a prompt. */
export type CompleteFn = (value: string, context: { arguments: Record<string, string> }) => string[] | Promise<string[]>;

/** A family of resources addressed by an RFC 6570 URI template, e.g. `notes://{id}`. */
export interface ResourceTemplateSpec {
  uriTemplate: string;
  name: string;
  toolset?: string;
  title?: string;
  description?: string;
  mimeType?: string;
  annotations?: Resource["annotations"];
  meta?: Record<string, unknown>;
  /** Lists concrete resources of this template in `resources/list`. */
  list?(ctx: RequestContext): Resource[] | Promise<Resource[]>;
  /** Argument completion per template variable. */
  complete?: Record<string, CompleteFn>;
  read(
    uri: string,
    variables: Record<string, string | string[]>,
    ctx: RequestContext,
  ): ReadResourceResult | InputRequiredResult | Promise<ReadResourceResult | InputRequiredResult>;
}

/**
 * An Agent Skill an extension ships (MCP skills extension, SEP-2640): a folder holding a `SKILL.md` and its supporting
 * files, served to the selections that include its toolset. The host reads, checks and digests it once, when the
 * extension is loaded (docs/skills.md).
 * @example
 * skills: [{ toolset: "spaces", path: "./skills/space-search" }, { path: "./skills/*" }]
 */
export interface SkillSpec {
  /**
   * The skill's folder, or a pattern whose last segment holds `*` (`./skills/*`: every folder there with a
   * `SKILL.md`). Relative to the extension's package when it was discovered; else an absolute path or a `file:` URL
   * (`new URL("../skills/space-search", import.meta.url)`).
   */
  path: string | URL;
  /** The toolset whose selections serve it; default: the extension's first declared toolset. */
  toolset?: string;
  /**
   * The tools its workflow uses (raw names, in its toolset); default: the `allowed-tools` of its frontmatter. A
   * `readonly` selection serves a skill only when every tool it names is served there (docs/serving.md).
   */
  tools?: string[];
}

/** A skill file's content as `resources/read` carries it: text, or bytes in base64. */
export type SkillFileContent = { text: string; mimeType?: string } | { blob: string; mimeType?: string };

/**
 * A skill an extension serves itself, added through `replaceOffer` (the gateway relays an upstream's this way): its
 * published entry (frontmatter, and every file with its SHA-256 digest and size) and a reader. The host serves the
 * entry as it is and checks every file `read` returns against its digest and size: a file that does not match is
 * refused, never served.
 */
export interface ServedSkill {
  /** The toolset whose selections serve it; default: the extension's first declared toolset. */
  toolset?: string;
  /** The skill's entry, as `skills/list` carries it (its `resources` a list, not `"dynamic"`). */
  entry: Skill;
  /** The tools its workflow uses (see `SkillSpec.tools`). */
  tools?: string[];
  /** One file of the skill, by the URI its entry lists. */
  read(uri: string, ctx: RequestContext): Promise<SkillFileContent>;
}

/** A prompt template with arguments. */
export interface PromptSpec {
  name: string;
  toolset?: string;
  title?: string;
  description?: string;
  arguments?: PromptArgument[];
  /** Argument completion per argument name. */
  complete?: Record<string, CompleteFn>;
  meta?: Record<string, unknown>;
  /** May return `inputRequired(...)` to ask the client first, as a tool can. */
  get(args: Record<string, string>, ctx: RequestContext): GetPromptResult | InputRequiredResult | Promise<GetPromptResult | InputRequiredResult>;
}

/**
 * Changes a tool that any extension offers, by its name. Applied in load order: the later title and description
 * win; the last `wrap` is the outermost and runs first. If it throws, the tool is left out (never widened).
 */
export interface ToolExtension {
  tool: string;
  title?: string;
  description?: string;
  annotations?: ToolAnnotations;
  meta?: Record<string, unknown>;
  wrap?(next: ToolHandler): ToolHandler;
}

/**
 * The calls through which an extension changes what it offers after start (docs/design.md §4 rule 10). A contribution is
 * known by its toolset and its name (or URI): adding one that exists replaces it; removing without a toolset removes
 * that name from every toolset of the extension.
 */
export interface OfferChanges {
  addToolset(spec: ToolsetSpec): void;
  removeToolset(name: string): void;
  addTool(spec: ToolSpec<any>): void;
  removeTool(name: string, toolset?: string): void;
  addResource(spec: ResourceSpec): void;
  removeResource(uri: string, toolset?: string): void;
  addResourceTemplate(spec: ResourceTemplateSpec): void;
  removeResourceTemplate(uriTemplate: string, toolset?: string): void;
  addPrompt(spec: PromptSpec): void;
  removePrompt(name: string, toolset?: string): void;
  /** Replaces every dynamic contribution at once (one revision bump, one notification). */
  replaceOffer(offer: DynamicOffer): void;
  /** Tells clients subscribed to this resource URI that it changed. */
  resourceUpdated(uri: string): void;
}

/** Everything an extension can add after start, in one value. */
export interface DynamicOffer {
  toolsets?: ToolsetSpec[];
  tools?: ToolSpec<any>[];
  resources?: ResourceSpec[];
  resourceTemplates?: ResourceTemplateSpec[];
  prompts?: PromptSpec[];
  /** Skills the extension serves itself (see `ServedSkill`); a skill is known by its toolset and its entry's URI. */
  skills?: ServedSkill[];
}

/**
 * Something an extension depends on that is down right now — the gateway reports its upstream MCP servers this
 * way. It shows in `/healthz` (the service is then `degraded`) and in `/toolsets`. Never put a URL or a secret in
 * `message`.
 */
export interface UnavailableReport {
  /** What is unavailable, e.g. the upstream server's name. */
  server: string;
  /** Where it failed: `connect`, `list`, … */
  phase: string;
  /** An mcp-host error code, e.g. `MCP_SERVER_UNREACHABLE`. */
  code: string;
  message?: string;
}

/** What `setup` receives. */
export interface ExtensionContext extends OfferChanges {
  readonly name: string;
  /** The extension's options from the deployment's config (`extensions.options.<name>`). */
  readonly options: Readonly<Record<string, unknown>>;
  /** Logger whose lines carry `[<extension name>]`. */
  readonly logger: Logger;
  /**
   * The host's clock (`HostOptions.clock`): run the extension's own deadlines and timers on it, and a test that gives
   * the host a manual clock moves them too.
   * @example
   * const timer = ctx.clock.setTimeout(() => refresh(), 60_000); ctx.signal.addEventListener("abort", () => timer.clear());
   */
  readonly clock: Clock;
  /** Aborted when the host stops. */
  readonly signal: AbortSignal;
  /** Replaces what this extension reports as unavailable (an empty list: everything is up again). */
  reportUnavailable(report: readonly UnavailableReport[]): void;
  /**
   * The upstream auth strategies the registered extensions contribute (`authStrategies`), by kind — this
   * extension's own included; a kind two extensions contribute is the first's in load order. Read when needed:
   * an extension quarantined since is left out.
   * @example
   * const strategy = ctx.authStrategies()["vault"]; // undefined when nobody contributes "vault"
   */
  authStrategies(): Readonly<Record<string, AuthStrategy>>;
}

/** A tool as `onServer` sees it on one build's draft. */
export interface DraftTool {
  readonly name: string;
  readonly toolset: string;
  readonly extension: string;
  title?: string;
  description?: string;
  annotations?: ToolAnnotations;
  meta?: Record<string, unknown>;
  handler: ToolHandler;
}

/** One build's contents, before they are compiled; `onServer` may remove or replace entries on it. */
export interface ServerDraft {
  /** The cache key (sorted active toolsets joined by commas). */
  readonly key: string;
  readonly toolsets: readonly string[];
  /** The composed instructions; may be replaced. */
  instructions: string | undefined;
  tools(): DraftTool[];
  removeTool(name: string): boolean;
  /** Replaces fields of a tool (handler, description, …). */
  updateTool(name: string, changes: Partial<Omit<DraftTool, "name" | "toolset" | "extension">>): boolean;
  resources(): readonly ResourceSpec[];
  removeResource(uri: string): boolean;
  resourceTemplates(): readonly ResourceTemplateSpec[];
  removeResourceTemplate(uriTemplate: string): boolean;
  prompts(): readonly PromptSpec[];
  removePrompt(name: string): boolean;
  replacePrompt(name: string, spec: PromptSpec): boolean;
}

/**
 * An upstream auth kind an extension contributes (docs/design.md §11): returns the headers to send, fresh per request.
 */
export type AuthStrategy = (settings: Readonly<Record<string, unknown>>) => { headers(): Promise<Record<string, string>> | Record<string, string> };

/** An extension: a plain object. Give it types with `defineExtension`. */
export interface McpExtension {
  /** Unique; when discovered, defaults to the package name. */
  name: string;
  version?: string;
  description?: string;
  toolsets?: ToolsetSpec[];
  tools?: ToolSpec<any>[];
  resources?: ResourceSpec[];
  resourceTemplates?: ResourceTemplateSpec[];
  prompts?: PromptSpec[];
  /** Agent Skills shipped in the package, served per toolset (docs/skills.md). */
  skills?: SkillSpec[];
  toolExtensions?: ToolExtension[];
  authStrategies?: Record<string, AuthStrategy>;
  /** `onToolset`: set up only once a selection names one of its toolsets (default `eager`). */
  activation?: "eager" | "onToolset";
  /**
   * How long `setup` may take, overriding the host's `setupTimeoutMs` for this extension — for one that knows it
   * needs longer (the gateway: its own start-up deadline, plus a margin).
   */
  setupTimeoutMs?: number;
  /**
   * Runs the tools listed in `tools` in worker threads with a heap limit and a CPU budget (docs/extensions.md,
   * "Isolation"). `"worker"` takes the defaults; tools added in `setup` run on the main thread.
   */
  isolation?: "worker" | IsolationOptions;
  /** Runs once, at host start (or on wake), under the setup timeout. */
  setup?(ctx: ExtensionContext): void | Promise<void>;
  /** Runs once per build this extension takes part in; may remove or replace entries on that build only. */
  onServer?(draft: ServerDraft): void;
  /** Runs at host stop, in reverse load order. */
  dispose?(): void | Promise<void>;
}

/** A module's export may be an extension, a list, or a factory that receives the deployment's options. */
export type ExtensionFactory = (options: Readonly<Record<string, unknown>>) => McpExtension | McpExtension[] | Promise<McpExtension | McpExtension[]>;
