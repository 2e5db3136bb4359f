/**
 * McpRegistry: many upstream MCP servers as one tool host. It connects lazily (all servers in parallel, under one
 * deadline), keeps each server's listing and one shared connection, names everything so nothing clashes, routes
 * calls back, and isolates failures: a server that cannot be reached is reported in `unavailable`, never thrown,
 * and a failing call comes back as an error result the model can read.
 */
import type { CallToolResult, GetPromptResult, ReadResourceResult, Tool } from "@modelcontextprotocol/client";
import { McpHostError, messageOf } from "../errors.js";
import { createLogger, type Logger } from "../logger.js";
import { isDestructive } from "./approval.js";
import { ServerConnection } from "./connection.js";
import { guardOnExit } from "./exit-guard.js";
import { classifyFailure } from "./failure.js";
import { globMatcher } from "./glob.js";
import { invokeUpstream, UpstreamFailure } from "./invoke.js";
import { fetchListing, type ServerListing } from "./listing.js";
import { RegistryIndex, type IndexInput } from "./naming.js";
import { createRedactor } from "./redact.js";
import { ServerRequestRouter, type InFlightCall } from "./server-requests.js";
import { OutputChecks } from "./structured-output.js";
import { runToolCall } from "./tool-call.js";
import type {
  CallToolOptions,
  RegistryOptions,
  RegistryPrompt,
  RegistryResource,
  RegistryResourceTemplate,
  RegistryTool,
  RequestOptions,
  ServerSpecification,
  ServerStatus,
  UnavailableServer,
} from "./types.js";
import { WatchHub, diffOffers, snapshotOffer, type WatchStream } from "./watch.js";

const DEFAULT_CALL_TIMEOUT_MS = 60_000;
const DEFAULT_STARTUP_TIMEOUT_MS = 10_000;

/** One server's state inside the registry. */
interface Upstream {
  spec: ServerSpecification;
  connection: ServerConnection;
  logger: Logger;
  redact: (text: string) => string;
  listing?: ServerListing;
  checks: OutputChecks;
  relisting?: Promise<void>;
}

function secretsOf(spec: ServerSpecification): string[] {
  if (spec.transport === "http") return [spec.url, ...Object.values(spec.headers ?? {})];
  if (spec.transport === "stdio") return Object.values(spec.env ?? {});
  return [];
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
  private readonly upstreams = new Map<string, Upstream>();
  private readonly logger: Logger;
  private readonly router: ServerRequestRouter;
  private readonly hub = new WatchHub();
  private readonly stale = new Set<string>();
  private readonly unavailableByServer = new Map<string, UnavailableServer>();
  private readonly opened: string[] = [];
  private readonly registryDenied: (name: string) => boolean;
  private index: RegistryIndex;
  private started?: Promise<void>;
  private closing?: Promise<void>;
  private eagerRefresh = false;
  private releaseExitGuard?: () => void;

  constructor(
    specs: readonly ServerSpecification[],
    private readonly options: RegistryOptions = {},
  ) {
    this.logger = options.logger ?? createLogger({ level: "warn", prefix: ["mcp-registry"] });
    this.router = new ServerRequestRouter(options, this.logger);
    this.registryDenied = globMatcher(options.deniedTools ?? []);
    for (const spec of specs) {
      if (this.upstreams.has(spec.name)) {
        throw new McpHostError("MCP_TRANSPORT_INVALID", `two servers are named "${spec.name}"; server names must be unique`, { server: spec.name });
      }
      this.upstreams.set(spec.name, this.makeUpstream(spec));
    }
    this.index = RegistryIndex.build(this.names(), []);
    if (specs.some((s) => s.transport === "stdio")) {
      this.releaseExitGuard = guardOnExit(() => {
        for (const u of this.upstreams.values()) u.connection.killNow();
      });
    }
  }

  private names(): string[] {
    return [...this.upstreams.keys()];
  }

  private timeoutOf(spec: ServerSpecification): number {
    return spec.timeoutMs ?? this.options.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
  }

  private totalOf(spec: ServerSpecification): number {
    return spec.maxTotalTimeoutMs ?? this.options.maxTotalTimeoutMs ?? this.timeoutOf(spec) * 10;
  }

  private get startupMs(): number {
    return this.options.startupTimeoutMs ?? DEFAULT_STARTUP_TIMEOUT_MS;
  }

  private makeUpstream(spec: ServerSpecification): Upstream {
    const logger = this.logger.child(spec.name);
    const redact = createRedactor(secretsOf(spec));
    const name = spec.name;
    const connection = new ServerConnection(spec, {
      logger,
      redact,
      router: this.router,
      clientInfo: this.options.clientInfo ?? { name: "mcp-host-registry", version: "0.1.0" },
      timeoutMs: this.timeoutOf(spec),
      onListChanged: () => this.markStale(name),
      onUnexpectedClose: () => this.markStale(name),
      onOpened: () => {
        this.unavailableByServer.delete(name);
        if (!this.opened.includes(name)) this.opened.push(name);
      },
    });
    return { spec, connection, logger, redact, checks: new OutputChecks(logger) };
  }

  /** Servers that could not be connected to or listed: phase, code and a message free of URLs and secrets. */
  get unavailable(): UnavailableServer[] {
    return this.names().flatMap((n) => {
      const u = this.unavailableByServer.get(n);
      return u ? [{ ...u }] : [];
    });
  }

  /**
   * Where each server stands (connection state, era, stdio pid, whether it awaits re-listing).
   * @example
   * registry.status().filter((s) => s.state !== "connected")
   */
  status(): ServerStatus[] {
    return [...this.upstreams.values()].map(({ spec, connection }) => {
      const down = this.unavailableByServer.has(spec.name) && connection.state !== "connected" && connection.state !== "closed";
      const state = down ? "unavailable" : connection.state;
      return {
        server: spec.name,
        transport: spec.transport,
        state,
        ...(connection.era ? { era: connection.era } : {}),
        ...(connection.pid !== undefined ? { pid: connection.pid } : {}),
        stale: this.stale.has(spec.name),
      };
    });
  }

  /**
   * Connects to every server and lists it, in parallel under one deadline (`startupTimeoutMs`). Never throws for a
   * server's failure: see `unavailable`. Optional: every operation connects lazily. Idempotent.
   * @example
   * await registry.connect(); if (registry.unavailable.length) log.warn("degraded", registry.unavailable);
   */
  connect(): Promise<void> {
    this.assertOpen();
    this.started ??= this.bringUp(this.names(), false);
    return this.started;
  }

  /**
   * Retries the unavailable servers and re-lists every server, under one deadline.
   * @example
   * await registry.refresh();
   */
  async refresh(): Promise<void> {
    await this.connect();
    await this.bringUp(this.names(), true);
  }

  private async bringUp(servers: readonly string[], announce: boolean): Promise<void> {
    const deadline = AbortSignal.timeout(this.startupMs);
    await Promise.all(servers.map((name) => this.bringUpOne(this.upstreams.get(name)!, deadline)));
    this.rebuild(announce);
  }

  private async bringUpOne(upstream: Upstream, deadline: AbortSignal): Promise<void> {
    const { spec, connection } = upstream;
    let phase: "connect" | "list" = "connect";
    try {
      const client = await raceAbort(connection.ready({ timeoutMs: this.startupMs, signal: deadline }), deadline);
      phase = "list";
      this.stale.delete(spec.name);
      upstream.listing = await raceAbort(fetchListing(client, { logger: upstream.logger, timeoutMs: this.timeoutOf(spec), signal: deadline }), deadline);
      upstream.checks = new OutputChecks(upstream.logger);
      this.unavailableByServer.delete(spec.name);
    } catch (error) {
      upstream.listing = undefined;
      const message = this.startFailureMessage(upstream, phase, error, deadline.aborted);
      this.unavailableByServer.set(spec.name, { server: spec.name, phase, code: "MCP_SERVER_UNREACHABLE", message });
      upstream.logger.warn(`unavailable (${phase}): ${message}`, { code: "MCP_SERVER_UNREACHABLE" });
    }
  }

  private startFailureMessage(upstream: Upstream, phase: "connect" | "list", error: unknown, timedOut: boolean): string {
    const { spec } = upstream;
    if (timedOut) return `server "${spec.name}" did not ${phase === "connect" ? "connect" : "list its tools"} within ${this.startupMs} ms`;
    const code = (error as { code?: unknown }).code;
    let detail = classifyFailure(error).detail;
    if (code === "ENOENT") detail = `the command "${spec.transport === "stdio" ? spec.command : ""}" was not found`;
    else if (code === "EACCES") detail = "the command is not executable";
    const exit = upstream.connection.lastExit;
    if (exit && phase === "connect") detail = `the server process exited during start-up (${exit.signal ? `signal ${exit.signal}` : `exit code ${exit.code}`})`;
    return upstream.redact(`server "${spec.name}" could not be ${phase === "connect" ? "connected" : "listed"}: ${detail}`);
  }

  private markStale(server: string): void {
    this.stale.add(server);
    if (this.hub.active && !this.eagerRefresh && this.started && !this.closing) {
      this.eagerRefresh = true;
      queueMicrotask(() => {
        this.eagerRefresh = false;
        void this.relistStale().catch((error) => this.logger.warn("re-listing failed", { error: messageOf(error) }));
      });
    }
  }

  /** Connects if needed and re-lists the servers marked stale (only those). */
  private async ready(): Promise<void> {
    this.assertOpen();
    await this.connect();
    if (this.stale.size > 0) await this.relistStale();
  }

  private async relistStale(): Promise<void> {
    await Promise.all([...this.stale].map((name) => this.relist(name)));
  }

  /** Re-lists one server (shared by concurrent callers) and announces what changed. */
  private relist(name: string): Promise<void> {
    const upstream = this.upstreams.get(name)!;
    upstream.relisting ??= (async () => {
      this.stale.delete(name);
      const { spec, connection } = upstream;
      try {
        const client = await connection.ready({ timeoutMs: this.startupMs });
        upstream.listing = await fetchListing(client, { logger: upstream.logger, timeoutMs: this.timeoutOf(spec) });
        upstream.checks = new OutputChecks(upstream.logger);
        this.unavailableByServer.delete(name);
      } catch (error) {
        const message = upstream.redact(`server "${name}" could not be re-listed: ${classifyFailure(error).detail}`);
        this.unavailableByServer.set(name, { server: name, phase: "list", code: "MCP_SERVER_UNREACHABLE", message });
        upstream.logger.warn(message);
      }
      this.rebuild(true);
    })().finally(() => (upstream.relisting = undefined));
    return upstream.relisting;
  }

  private rebuild(announce: boolean): void {
    const inputs: IndexInput[] = [];
    for (const { spec, listing } of this.upstreams.values()) {
      if (!listing) continue;
      const denied = globMatcher(spec.deniedTools ?? []);
      inputs.push({
        server: spec.name,
        listing,
        denied: (tool) => denied(tool) || this.registryDenied(tool) || this.registryDenied(`${spec.name}__${tool}`),
        destructive: (tool: Tool) => isDestructive(tool, spec.unannotated),
      });
    }
    const before = this.index;
    this.index = RegistryIndex.build(this.names(), inputs);
    if (!announce || !this.hub.active) return;
    const events = diffOffers(snapshotOffer(before.tools, before.prompts, before.resources), snapshotOffer(this.index.tools, this.index.prompts, this.index.resources));
    if (events.length > 0) this.hub.publish(events);
  }

  /** Every tool of every available server, named for the caller. */
  async listTools(): Promise<RegistryTool[]> {
    await this.ready();
    return [...this.index.tools];
  }

  /** Every listed resource, by bare URI when unique and `server:uri` when two servers list it. */
  async listResources(): Promise<RegistryResource[]> {
    await this.ready();
    return [...this.index.resources];
  }

  /** Every resource template; read their URIs with `readResource(uri, { server })`. */
  async listResourceTemplates(): Promise<RegistryResourceTemplate[]> {
    await this.ready();
    return [...this.index.templates];
  }

  /** Every prompt, named like tools. */
  async listPrompts(): Promise<RegistryPrompt[]> {
    await this.ready();
    return [...this.index.prompts];
  }

  /**
   * Calls a tool by its listed name, `server__tool` or `server.tool`. Never throws for a failing call: routing
   * problems, refusals, transport failures and timeouts come back as `isError` results naming server and tool.
   * @example
   * const result = await registry.callTool("git__status", {}, { signal, onprogress: (p) => … });
   */
  async callTool(name: string, args: Record<string, unknown> = {}, options: CallToolOptions = {}): Promise<CallToolResult> {
    await this.ready();
    return runToolCall(
      {
        index: this.index,
        upstreamOf: (server) => this.upstreams.get(server)!,
        ...(this.options.approve ? { approve: this.options.approve } : {}),
        structuredContent: this.options.structuredContent ?? "error",
        limits: (spec, opts) => ({ idle: opts.timeoutMs ?? this.timeoutOf(spec), total: this.totalOf(spec) }),
        invoke: (target, call, mayRerun, send) => this.invoke(this.upstreams.get(target.spec.name)!, call, mayRerun, options, send),
      },
      name,
      args,
      options,
    );
  }

  /**
   * Reads a resource by its listed form, `server:uri`, or any URI with `{ server }` (templates). Throws McpHostError:
   * MCP_RESOURCE_UNKNOWN, MCP_TOOL_AMBIGUOUS (naming the qualified forms), MCP_SERVER_UNKNOWN, MCP_CALL_FAILED.
   * @example
   * await registry.readResource("demo://resource/dynamic/text/42", { server: "everything" })
   */
  async readResource(uri: string, options: RequestOptions & { server?: string } = {}): Promise<ReadResourceResult> {
    await this.ready();
    let server = options.server;
    let upstreamUri = uri;
    if (server !== undefined) {
      if (!this.upstreams.has(server)) throw new McpHostError("MCP_SERVER_UNKNOWN", `no server is named "${server}"`, { server });
      if (uri.startsWith(`${server}:`) && this.index.resolveResource(uri).kind === "found") upstreamUri = uri.slice(server.length + 1);
    } else {
      const found = this.index.resolveResource(uri);
      if (found.kind === "ambiguous") {
        throw new McpHostError("MCP_TOOL_AMBIGUOUS", `resource "${uri}" is listed by several servers; read one of: ${found.choices.join(", ")}`);
      }
      if (found.kind !== "found") {
        throw new McpHostError("MCP_RESOURCE_UNKNOWN", `no server lists a resource "${uri}"; for a template URI pass { server }`);
      }
      server = found.entry.server;
      upstreamUri = found.entry.upstreamUri;
    }
    return this.request<ReadResourceResult>(server, `resource "${uri}"`, options, (client, leg, inputs) =>
      client.readResource({ uri: upstreamUri, ...inputs } as never, leg),
    );
  }

  /**
   * Gets a prompt by its listed name, `server__prompt` or `server.prompt`. Throws McpHostError on an unknown or
   * ambiguous name (MCP_PROMPT_UNKNOWN, MCP_TOOL_AMBIGUOUS) or a failed request (MCP_CALL_FAILED, TOOL_TIMEOUT).
   * @example
   * const prompt = await registry.getPrompt("code_review", { language: "ts" });
   */
  async getPrompt(name: string, args: Record<string, string> = {}, options: RequestOptions = {}): Promise<GetPromptResult> {
    await this.ready();
    const found = this.index.resolvePrompt(name);
    if (found.kind === "ambiguous") throw new McpHostError("MCP_TOOL_AMBIGUOUS", `prompt "${name}" is offered by several servers; use one of: ${found.choices.join(", ")}`);
    if (found.kind !== "found") throw new McpHostError("MCP_PROMPT_UNKNOWN", `no server offers a prompt named "${name}"`);
    const { server, upstreamName } = found.entry;
    return this.request<GetPromptResult>(server, `prompt "${name}"`, options, (client, leg, inputs) =>
      client.getPrompt({ name: upstreamName, arguments: args, ...inputs } as never, leg),
    );
  }

  private async request<T>(server: string, what: string, options: RequestOptions, send: Parameters<typeof invokeUpstream>[1]): Promise<T> {
    const upstream = this.upstreams.get(server)!;
    try {
      return await this.invoke<T>(upstream, { server, ...(options.onServerRequest ? { relay: options.onServerRequest } : {}) }, true, options, send);
    } catch (error) {
      if (!(error instanceof UpstreamFailure)) throw error;
      const timeout = error.end === "idle" || error.end === "total";
      const ms = error.end === "total" ? this.totalOf(upstream.spec) : (options.timeoutMs ?? this.timeoutOf(upstream.spec));
      const message = timeout ? `${what} on server "${server}" timed out after ${ms} ms` : `${what} on server "${server}" failed: ${error.failure.detail}`;
      throw new McpHostError(timeout ? "TOOL_TIMEOUT" : "MCP_CALL_FAILED", upstream.redact(message), { server, cause: error.cause });
    }
  }

  /** Runs one upstream request with the registry's time limits, input rounds and retry rule. */
  private invoke<T>(upstream: Upstream, call: InFlightCall, mayRerun: boolean, options: RequestOptions & CallToolOptions, send: Parameters<typeof invokeUpstream>[1]): Promise<T> {
    const { spec, connection } = upstream;
    const controller = new AbortController();
    const inflight: InFlightCall = { ...call, signal: controller.signal };
    const end = this.router.begin(inflight);
    return invokeUpstream<T>(
      {
        connection,
        server: spec.name,
        openTimeoutMs: this.startupMs,
        timeoutMs: options.timeoutMs ?? this.timeoutOf(spec),
        maxTotalMs: this.totalOf(spec),
        mayRerun,
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.onprogress ? { onprogress: options.onprogress } : {}),
        answer: (method, params) => this.router.answer(spec, method, params, inflight),
        afterReconnect: () => this.relist(spec.name),
        onReconnectFailed: (error) => {
          const message = upstream.redact(`server "${spec.name}" could not be reconnected: ${classifyFailure(error).detail}`);
          this.unavailableByServer.set(spec.name, { server: spec.name, phase: "connect", code: "MCP_SERVER_UNREACHABLE", message });
          upstream.logger.warn(message);
        },
      },
      send,
    ).finally(() => {
      end();
      controller.abort();
    });
  }

  /**
   * Changes to what the registry offers, as they are found (added / removed / updated, with the server's name).
   * Subscribes now; holds 64 events and then drops (see `stream.dropped`); ends when the registry closes.
   * @example
   * for await (const e of registry.watch()) console.log(e.kind, e.tool, e.server);
   */
  watch(): WatchStream {
    return this.hub.subscribe();
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

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  private async shutdown(): Promise<void> {
    this.hub.close();
    const order = [...this.opened].reverse();
    for (const name of [...this.names()].reverse()) if (!order.includes(name)) order.push(name);
    const errors: McpHostError[] = [];
    for (const name of order) {
      const upstream = this.upstreams.get(name)!;
      try {
        await upstream.connection.close();
        upstream.logger.debug("closed");
      } catch (error) {
        errors.push(new McpHostError("MCP_CALL_FAILED", upstream.redact(`server "${name}" did not close cleanly: ${messageOf(error)}`), { server: name, cause: error }));
      }
    }
    this.releaseExitGuard?.();
    if (errors.length > 0) throw new AggregateError(errors, `${errors.length} server(s) did not close cleanly: ${errors.map((e) => e.server).join(", ")}`);
  }

  private assertOpen(): void {
    if (this.closing) throw new McpHostError("MCP_REGISTRY_CLOSED", "the registry is closed");
  }
}

/** Resolves or rejects with `promise`, or rejects when `signal` aborts (for steps that might not honour it). */
function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}
