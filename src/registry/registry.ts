/**
 * McpRegistry: many upstream MCP servers as one tool host. It connects lazily (all servers in parallel, under one
 * deadline), keeps each server's listing and one shared connection, names everything so nothing clashes, routes
 * calls back, and isolates failures: a server that cannot be reached is reported in `unavailable`, never thrown,
 * and a failing call comes back as an error result the model can read.
 */
import type { CallToolResult, GetPromptResult, ReadResourceResult, ServerCapabilities } from "@modelcontextprotocol/client";
import type { Skill } from "@modelcontextprotocol/client/ext/skills";
import { McpHostError, messageOf } from "../errors.js";
import { createLogger } from "../logger.js";
import type { InputLeg, InputRounds } from "./call/input-required.js";
import { forwardUpstream } from "./call/forward-call.js";
import { invokeUpstream, UpstreamFailure } from "./call/invoke.js";
import { listUpstreamSkills, readUpstreamSkill } from "./call/skill-reads.js";
import { ServerRequestRouter, type InFlightCall } from "./call/server-requests.js";
import { ListingChecks } from "./call/structured-output.js";
import { runToolCall, type CallTarget } from "./call/tool-call.js";
import type { WatchStream } from "./catalog/watch.js";
import { ServerTable, type Upstream } from "./catalog/server-table.js";
import { compareNames } from "../compare.js";
import { guardOnExit } from "./connect/exit-guard.js";
import type { ForwardRequest, TaskMethod } from "./forward/forwarder.js";
import { normalised, plainName } from "./forward/forwardable.js";
import { httpForwardingLoaded } from "./forward/http-forwarder.js";
import { resolveLimits, type Limits } from "./limits.js";
import type {
  CallToolOptions,
  InputMode,
  InputRoundOptions,
  MaybeInputRequired,
  RegistryOptions,
  RegistryPrompt,
  RegistryResource,
  RegistryResourceTemplate,
  RegistryTool,
  RegistryRequestOptions,
  ServerSpecification,
  ServerStatus,
  UnavailableServer,
  UpstreamSkillFile,
  UpstreamSkills,
} from "./types.js";
import { defined } from "../defined.js";

type Send = Parameters<typeof invokeUpstream>[1];

/** The caller's part in multi-round-trip input, from its request options. */
function roundsOf(options: InputRoundOptions): InputRounds {
  const first: InputLeg = {
    ...defined({ inputResponses: options.inputResponses, requestState: options.requestState }),
  };
  return { first, mode: options.inputRequired ?? "answer" };
}

/**
 * A tool host over many MCP servers.
 * @example
 * await using registry = new McpRegistry([
 *   ServerSpec.stdio("git", "uvx", ["mcp-server-git"]),
 *   ServerSpec.http("hosted", "https://example.com/mcp/", { headers: { "X-Tenant-Id": "acme" } }),
 * ], { callTimeoutMs: 60_000 });
 * const tools = await registry.listTools();
 * const result = await registry.callTool("commit", { message: "…" });
 */
export class McpRegistry implements AsyncDisposable {
  private readonly table: ServerTable;
  private readonly router: ServerRequestRouter;
  private readonly limits: Limits;
  private readonly checks = new ListingChecks();
  private started?: Promise<void>;
  private closing?: Promise<void>;
  private releaseExitGuard?: () => void;

  constructor(
    specs: readonly ServerSpecification[],
    private readonly options: RegistryOptions = {},
  ) {
    const logger = options.logger ?? createLogger({ level: "warn", prefix: ["mcp-registry"] });
    this.limits = resolveLimits(options);
    this.router = new ServerRequestRouter(options, logger);
    this.table = new ServerTable(specs, { logger, setup: this.router, options, limits: this.limits, live: () => this.started !== undefined && !this.closing });
    if (specs.some((s) => s.transport === "stdio")) this.releaseExitGuard = guardOnExit(() => this.table.killAll());
  }

  /** Servers that could not be connected to or listed: phase, code and a message free of URLs and secrets. */
  get unavailable(): UnavailableServer[] {
    return this.table.unavailable();
  }

  /**
   * Where each server stands (connection state, era, stdio pid, whether it awaits re-listing).
   * @example
   * registry.status().filter((s) => s.state !== "connected")
   */
  status(): ServerStatus[] {
    return this.table.status();
  }

  /**
   * The era a server's connection negotiated, once connected (undefined before, and for an unknown server).
   * @example
   * registry.eraOf("git") // "legacy"
   */
  eraOf(server: string): "legacy" | "modern" | undefined {
    return this.table.has(server) ? this.table.get(server).connection.era : undefined;
  }

  /**
   * The extensions a server declared (`capabilities.extensions`), once connected; undefined before, and for an
   * unknown server.
   * @example
   * registry.extensionsOf("builds")?.["io.modelcontextprotocol/tasks"] !== undefined
   */
  extensionsOf(server: string): Readonly<Record<string, unknown>> | undefined {
    if (!this.table.has(server)) return undefined;
    const extensions = (this.table.get(server).connection.serverCapabilities as { extensions?: Record<string, unknown> } | undefined)?.extensions;
    return extensions;
  }

  /**
   * The capabilities a server declared, once connected; undefined before, and for an unknown server.
   * @example
   * registry.capabilitiesOf("everything")?.tasks?.requests?.tools?.call !== undefined // 2025-11-25 task-augmented calls
   */
  capabilitiesOf(server: string): Readonly<ServerCapabilities> | undefined {
    return this.table.has(server) ? this.table.get(server).connection.serverCapabilities : undefined;
  }

  /**
   * Sends one task request to a server, on its connection's raw channel — with its credentials, under its time limits
   * and answer limits: `tasks/get`, `tasks/update` or `tasks/cancel` to a 2026-07-28 server, declaring `extensions`
   * (the tasks extension) for it; `tasks/get`, `tasks/result` or `tasks/cancel` to a 2025-11-25 server (its
   * experimental tasks). Resolves with what the server answered. A server-to-client request the server pushes while
   * it runs and that names this task (a 2025-11-25 `tasks/result` delivers its task's questions so) goes to
   * `onServerRequest`. Throws McpHostError as readResource does (an upstream's JSON-RPC error is its `cause`, a
   * ProtocolError); MCP_CALL_FAILED when the connection has no raw channel (an OAuth or auth-strategy server, a
   * custom transport).
   * @example
   * const task = await registry.taskRequest("builds", "tasks/get", { taskId }, { extensions: { "io.modelcontextprotocol/tasks": {} } });
   */
  async taskRequest(
    server: string,
    method: TaskMethod,
    params: Record<string, unknown>,
    options: Pick<RegistryRequestOptions, "signal" | "timeoutMs" | "onServerRequest"> & { extensions?: Readonly<Record<string, object>> } = {},
  ): Promise<Record<string, unknown>> {
    await this.ready();
    await httpForwardingLoaded();
    if (!this.table.has(server)) throw new McpHostError("MCP_SERVER_UNKNOWN", `no server is named "${server}"`, { server });
    const taskId = typeof params.taskId === "string" ? params.taskId : undefined;
    const request: ForwardRequest = { method, params, ...defined({ name: taskId, extensions: options.extensions }) };
    const noChannel = () => {
      throw new McpHostError(
        "MCP_CALL_FAILED",
        `${method} cannot be sent to server "${server}": its connection has no raw channel (OAuth, an auth strategy or a custom transport)`,
        { server },
      );
    };
    const requestOptions = {
      ...defined({ signal: options.signal, timeoutMs: options.timeoutMs, onServerRequest: options.onServerRequest }),
      forward: true,
      inputRequired: "return" as const,
    };
    return this.request<Record<string, unknown>>(server, `${method}`, requestOptions, noChannel, request, method !== "tasks/update");
  }

  /**
   * Connects to every server and lists it, in parallel under one deadline (`startupTimeoutMs`). Never throws for a
   * server's failure: see `unavailable`. Optional: every operation connects lazily. Idempotent.
   * @example
   * await registry.connect(); if (registry.unavailable.length) log.warn("degraded", registry.unavailable);
   */
  connect(): Promise<void> {
    this.assertOpen();
    this.started ??= this.table.bringUp(this.table.names(), false);
    return this.started;
  }

  /**
   * Retries the unavailable servers and re-lists every server, under one deadline.
   * @example
   * await registry.refresh();
   */
  async refresh(): Promise<void> {
    await this.connect();
    await this.table.bringUp(this.table.names(), true);
  }

  /** Connects if needed and re-lists the servers marked stale (only those). */
  private async ready(): Promise<void> {
    this.assertOpen();
    await this.connect();
    if (this.table.hasStale()) await this.table.relistStale();
  }

  /**
   * The instructions a server sent when it was last connected and listed (undefined when it sent none or has not
   * been listed yet). Does not connect.
   * @example
   * await registry.connect(); registry.instructionsOf("everything")
   */
  instructionsOf(server: string): string | undefined {
    return this.table.has(server) ? this.table.get(server).listing?.instructions : undefined;
  }

  /** Every tool of every available server, named for the caller. */
  async listTools(): Promise<RegistryTool[]> {
    await this.ready();
    return [...this.table.index.tools];
  }

  /** Every listed resource, by bare URI when unique and `server:uri` when two servers list it. */
  async listResources(): Promise<RegistryResource[]> {
    await this.ready();
    return [...this.table.index.resources];
  }

  /** Every resource template; read their URIs with `readResource(uri, { server })`. */
  async listResourceTemplates(): Promise<RegistryResourceTemplate[]> {
    await this.ready();
    return [...this.table.index.templates];
  }

  /** Every prompt, named like tools. */
  async listPrompts(): Promise<RegistryPrompt[]> {
    await this.ready();
    return [...this.table.index.prompts];
  }

  /**
   * Calls a tool by its listed name, `server__tool` or `server.tool`. Never throws for a failing call: routing
   * problems, refusals, transport failures and timeouts come back as `isError` results naming server and tool. With
   * `inputRequired: "return"` a 2026-07-28 server's `input_required` result comes back as it is (see InputRoundOptions).
   * @example
   * const result = await registry.callTool("git__status", {}, { signal, onprogress: (p) => … });
   */
  async callTool<M extends InputMode = "answer">(
    name: string,
    args: Record<string, unknown> = {},
    options: CallToolOptions & { inputRequired?: M } = {},
  ): Promise<MaybeInputRequired<M, CallToolResult>> {
    await this.ready();
    // A call that declares an extension goes on the raw channel only: wait for it rather than take a client round.
    if (options.extensions !== undefined) await httpForwardingLoaded();
    return runToolCall(
      {
        index: this.table.index,
        upstreamOf: (server) => this.target(server),
        ...(this.options.approve ? { approve: this.options.approve } : {}),
        structuredContent: this.options.structuredContent ?? "error",
        limits: (spec, opts) => ({ idle: opts.timeoutMs ?? this.limits.timeoutOf(spec), total: this.limits.totalOf(spec) }),
        invoke: (target, call, mayRerun, send) => this.invoke(this.table.get(target.spec.name), call, mayRerun, options, send),
        ...(this.forwards(options)
          ? {
              forward: (target, call, mayRerun, request, fallback) =>
                this.forward(this.table.get(target.spec.name), call, mayRerun, options, request, fallback),
            }
          : {}),
      },
      name,
      args,
      options,
    ) as Promise<MaybeInputRequired<M, CallToolResult>>;
  }

  /**
   * Reads a resource by its listed form, `server:uri`, or any URI with `{ server }` (templates). Throws McpHostError:
   * MCP_RESOURCE_UNKNOWN, MCP_TOOL_AMBIGUOUS (naming the qualified forms), MCP_SERVER_UNKNOWN, MCP_CALL_FAILED,
   * MCP_REQUEST_TIMEOUT, MCP_ANSWER_TOO_LARGE, MCP_ANSWER_TOO_DEEP.
   * @example
   * await registry.readResource("demo://resource/dynamic/text/42", { server: "everything" })
   */
  async readResource<M extends InputMode = "answer">(
    uri: string,
    options: RegistryRequestOptions & { server?: string; inputRequired?: M } = {},
  ): Promise<MaybeInputRequired<M, ReadResourceResult>> {
    await this.ready();
    let server = options.server;
    let upstreamUri = uri;
    if (server !== undefined) {
      if (!this.table.has(server)) throw new McpHostError("MCP_SERVER_UNKNOWN", `no server is named "${server}"`, { server });
    } else {
      const found = this.table.index.resolveResource(uri);
      if (found.kind === "ambiguous") {
        throw new McpHostError("MCP_TOOL_AMBIGUOUS", `resource "${uri}" is listed by several servers; read one of: ${found.choices.join(", ")}`);
      }
      if (found.kind !== "found") throw new McpHostError("MCP_RESOURCE_UNKNOWN", `no server lists a resource "${uri}"; for a template URI pass { server }`);
      server = found.entry.server;
      upstreamUri = found.entry.upstreamUri;
    }
    const meta = defined({ _meta: options.meta });
    return this.request<MaybeInputRequired<M, ReadResourceResult>>(
      server,
      `resource "${uri}"`,
      options,
      (client, leg, inputs) => client.readResource({ uri: upstreamUri, ...meta, ...inputs } as never, leg),
      { method: "resources/read", params: { uri: upstreamUri, ...meta } },
    );
  }

  /**
   * Gets a prompt by its listed name, `server__prompt` or `server.prompt`. Throws McpHostError on an unknown or
   * ambiguous name (MCP_PROMPT_UNKNOWN, MCP_TOOL_AMBIGUOUS) or a failed request (MCP_CALL_FAILED, MCP_REQUEST_TIMEOUT,
   * MCP_ANSWER_TOO_LARGE, MCP_ANSWER_TOO_DEEP).
   * @example
   * const prompt = await registry.getPrompt("code_review", { language: "ts" });
   */
  async getPrompt<M extends InputMode = "answer">(
    name: string,
    args: Record<string, string> = {},
    options: RegistryRequestOptions & { inputRequired?: M } = {},
  ): Promise<MaybeInputRequired<M, GetPromptResult>> {
    await this.ready();
    const found = this.table.index.resolvePrompt(name);
    if (found.kind === "ambiguous")
      throw new McpHostError("MCP_TOOL_AMBIGUOUS", `prompt "${name}" is offered by several servers; use one of: ${found.choices.join(", ")}`);
    if (found.kind !== "found") throw new McpHostError("MCP_PROMPT_UNKNOWN", `no server offers a prompt named "${name}"`);
    const { server, upstreamName } = found.entry;
    const meta = defined({ _meta: options.meta });
    return this.request<MaybeInputRequired<M, GetPromptResult>>(
      server,
      `prompt "${name}"`,
      options,
      (client, leg, inputs) => client.getPrompt({ name: upstreamName, arguments: args, ...meta, ...inputs } as never, leg),
      plainName(upstreamName) ? { method: "prompts/get", name: upstreamName, params: { name: upstreamName, arguments: args, ...meta } } : undefined,
    );
  }

  /**
   * A server's skills (SEP-2640), every page, through the SDK's `SkillsClient`: undefined when the server does not
   * declare the extension; entries the client refuses come back in `invalid`. Throws as readResource does.
   * @example
   * const listed = await registry.listSkills("runbooks"); listed?.skills.map((s) => s.uri)
   */
  async listSkills(server: string, options: RegistryRequestOptions = {}): Promise<UpstreamSkills | undefined> {
    await this.ready();
    if (!this.table.has(server)) throw new McpHostError("MCP_SERVER_UNKNOWN", `no server is named "${server}"`, { server });
    return this.request<UpstreamSkills | undefined>(server, "the skills", options, (client, leg) => listUpstreamSkills(client, leg));
  }

  /**
   * One file of a server's skill, checked against the skill's entry (size, digest; a SKILL.md's frontmatter): a file
   * that fails is `SKILL_DIGEST_MISMATCH`, never returned. Otherwise throws as readResource does.
   * @example
   * const file = await registry.readSkill("runbooks", entry, entry.uri);
   */
  async readSkill(server: string, skill: Skill, uri: string, options: RegistryRequestOptions = {}): Promise<UpstreamSkillFile> {
    await this.ready();
    if (!this.table.has(server)) throw new McpHostError("MCP_SERVER_UNKNOWN", `no server is named "${server}"`, { server });
    try {
      return await this.request<UpstreamSkillFile>(server, `skill file "${uri}"`, options, (client, leg) => readUpstreamSkill(client, server, skill, uri, leg));
    } catch (error) {
      const cause = (error as { cause?: unknown }).cause;
      throw (cause as { code?: unknown } | undefined)?.code === "SKILL_DIGEST_MISMATCH" ? cause : error;
    }
  }

  /** What a tool call needs of its server: the table's entry and the output checks of its current listing. */
  private target(server: string): CallTarget {
    const upstream = this.table.get(server);
    return { ...upstream, checks: this.checks.of(upstream.listing, upstream.logger) };
  }

  /** readResource and getPrompt: a read, safe to repeat; its failure is thrown as an McpHostError. */
  private async request<T>(
    server: string,
    what: string,
    options: RegistryRequestOptions,
    send: Send,
    forwardable?: ForwardRequest,
    mayRerun = true,
  ): Promise<T> {
    const upstream = this.table.get(server);
    // A task request's call names its task, so the questions a server pushes for that task find it (server-requests.ts).
    const taskId = forwardable?.method.startsWith("tasks/") ? forwardable.name : undefined;
    const call = { server, ...defined({ relay: options.onServerRequest, taskId }) };
    const invoke = () => this.invoke<T>(upstream, call, mayRerun, options, send);
    try {
      return await (forwardable && this.forwards(options) ? this.forward<T>(upstream, call, mayRerun, options, forwardable, invoke) : invoke());
    } catch (error) {
      if (!(error instanceof UpstreamFailure)) throw error;
      const subject = `${what} on server "${server}"`;
      if (error.end === "idle" || error.end === "total") {
        const ms = error.end === "total" ? this.limits.totalOf(upstream.spec) : (options.timeoutMs ?? this.limits.timeoutOf(upstream.spec));
        throw new McpHostError("MCP_REQUEST_TIMEOUT", `${subject} timed out after ${ms} ms`, { server, cause: error.cause });
      }
      throw new McpHostError(error.failure.refused ?? "MCP_CALL_FAILED", `${subject} failed: ${upstream.redact(error.failure.detail)}`, {
        server,
        cause: error.cause,
      });
    }
  }

  /** Runs one upstream request with the registry's time limits, input rounds and retry rule. */
  private invoke<T>(upstream: Upstream, call: InFlightCall, mayRerun: boolean, options: RegistryRequestOptions & CallToolOptions, send: Send): Promise<T> {
    const { spec, connection } = upstream;
    const controller = new AbortController();
    const inflight: InFlightCall = { ...call, signal: controller.signal };
    const end = this.router.begin(inflight);
    return invokeUpstream<T>(
      {
        connection,
        server: spec.name,
        openTimeoutMs: this.limits.startupMs,
        timeoutMs: options.timeoutMs ?? this.limits.timeoutOf(spec),
        maxTotalMs: this.limits.totalOf(spec),
        clock: this.limits.clock,
        mayRerun,
        rounds: roundsOf(options),
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.onprogress ? { onprogress: options.onprogress } : {}),
        answer: (method, params) => this.router.answer(spec, method, params, inflight),
        afterReconnect: () => this.table.relist(spec.name),
        onReconnectFailed: (error) => this.table.reportFailure(spec.name, "connect", "reconnected", error),
      },
      send,
    ).finally(() => {
      end();
      controller.abort();
    });
  }

  /**
   * Whether a request with these options may be forwarded (callTool's `forward`): asked for, a first round, and — on a
   * 2026-07-28 connection — with its `input_required` handed back rather than answered here.
   */
  private forwards(options: RegistryRequestOptions & CallToolOptions): boolean {
    return options.forward === true && options.inputResponses === undefined && options.requestState === undefined && options.inputRequired === "return";
  }

  /** Runs one forwarded request with the registry's limits and retry rule; `fallback` is the client round. */
  private async forward<T>(
    upstream: Upstream,
    call: InFlightCall,
    mayRerun: boolean,
    options: RegistryRequestOptions & CallToolOptions,
    request: ForwardRequest,
    fallback: () => Promise<T>,
  ): Promise<T> {
    const { spec, connection } = upstream;
    // A server-to-client request pushed during the call is tied to it as for a client round (ServerRequestRouter).
    const end = this.router.begin(options.signal ? { ...call, signal: options.signal } : call);
    try {
      const result = await forwardUpstream<Record<string, unknown> | T>(
        {
          connection,
          openTimeoutMs: this.limits.startupMs,
          timeoutMs: options.timeoutMs ?? this.limits.timeoutOf(spec),
          maxTotalMs: this.limits.totalOf(spec),
          clock: this.limits.clock,
          mayRerun,
          ...(options.signal ? { signal: options.signal } : {}),
          ...(options.onprogress ? { onprogress: options.onprogress } : {}),
          afterReconnect: () => this.table.relist(spec.name),
          onReconnectFailed: (error) => this.table.reportFailure(spec.name, "connect", "reconnected", error),
        },
        request,
        fallback as () => Promise<Record<string, unknown>>,
      );
      return normalised(result as Record<string, unknown>, request.method) as T;
    } finally {
      end();
    }
  }

  /**
   * Changes to what the registry offers, as they are found (added / removed / updated, with the server's name).
   * Subscribes now; holds 64 events and then drops (see `stream.dropped`); ends when the registry closes.
   * @example
   * for await (const e of registry.watch()) console.log(e.kind, e.tool, e.server);
   */
  watch(): WatchStream {
    return this.table.hub.subscribe();
  }

  /**
   * Closes every server (stdio: the whole process group, SIGTERM then SIGKILL after 3 s), in reverse order of
   * opening, even when some fail; their errors are gathered into one AggregateError. Ends every watch() stream.
   * @example
   * await registry.close();
   */
  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  /** `await using registry = new McpRegistry(…)` closes it at the end of the block. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  private async shutdown(): Promise<void> {
    this.table.hub.close();
    const errors: McpHostError[] = [];
    for (const name of this.table.closeOrder()) {
      const upstream = this.table.get(name);
      try {
        await upstream.connection.close();
        upstream.logger.debug("closed");
      } catch (error) {
        errors.push(
          new McpHostError("MCP_SERVER_CLOSE_FAILED", `server "${name}" did not close cleanly: ${upstream.redact(messageOf(error))}`, {
            server: name,
            cause: error,
          }),
        );
      }
    }
    this.releaseExitGuard?.();
    const names = errors.map((e) => e.server!).sort(compareNames);
    if (errors.length > 0) throw new AggregateError(errors, `${errors.length} server(s) did not close cleanly: ${names.join(", ")}`);
  }

  private assertOpen(): void {
    if (this.closing) throw new McpHostError("MCP_REGISTRY_CLOSED", "the registry is closed");
  }
}
