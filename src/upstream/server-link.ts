/**
 * One upstream server inside the gateway: its registry (one connection, shared by every selection and session), its
 * tool filter, and what it currently offers. It follows the upstream's list changes (the registry's `watch()`),
 * coalescing each burst into one re-read of the listing, and while the server cannot be reached it reconnects in
 * the background with a capped, jittered backoff on the gateway's clock. Whatever changes, it tells the gateway
 * once, which re-publishes the offer.
 */
import type { Clock, ClockTimer } from "../clock.js";
import { McpHostError, messageOf } from "../errors.js";
import type { AuthStrategy, UnavailableReport } from "../extension/types.js";
import type { Logger } from "../logger.js";
import { McpRegistry, type WatchStream } from "../registry/index.js";
import type { SecretRedactor } from "../secret-redactor.js";
import { backoffDelay, type Backoff } from "./backoff.js";
import { PausedCalls } from "./calls/paused-calls.js";
import { declaresTasks } from "./calls/task-relay.js";
import { runsTaskCalls } from "./calls/legacy-task-relay.js";
import type { UpstreamCallObserver } from "./calls/call-observer.js";
import type { ServerCalls } from "./calls/tool-handler.js";
import type { GatewayServerConfig } from "./gateway-options.js";
import { serverOffer, toolsetOf, type ServerOffer } from "./offer/server-offer.js";
import { toolFilter, type ToolFilter } from "./offer/tool-filter.js";
import { serverSpecOf } from "./server-spec.js";
import { defined } from "../defined.js";
import type { Skill } from "@modelcontextprotocol/client/ext/skills";

/** What every link of one gateway shares. */
export interface LinkDeps {
  strategies: Readonly<Record<string, AuthStrategy>>;
  clock: Clock;
  /** The registries' logger (lines carry `[server]`). */
  registryLogger: Logger;
  /** The gateway's own logger. */
  logger: Logger;
  startupTimeoutMs: number;
  clientInfo: { name: string; version: string };
  backoff: Backoff;
  pendingInputTtlMs: number;
  /** The link's offer or availability changed. */
  changed(link: ServerLink): void;
  /** Times and traces upstream calls. */
  observer?: UpstreamCallObserver;
  /** The deployment's secrets; learns the credentials each link obtains. */
  redactor: SecretRedactor;
  /** How much of an upstream's answer is read, and how deep it may nest (the registry's defaults when unset). */
  maxResultBytes?: number;
  maxJsonDepth?: number;
}

/** Where a server stands, as `gateway.status()` reports it. */
export interface ServerLinkStatus {
  server: string;
  state: "starting" | "up" | "unavailable" | "closed";
  /** Tools the toolset offers now (after include/exclude). */
  tools: number;
  /** True once it was connected and listed at least once. */
  connected: boolean;
  /** Calls waiting for their client's next round (bounded in all and per caller). */
  paused: number;
  code?: string;
  message?: string;
}

/**
 * @example
 * const link = new ServerLink("git", config, deps); const problems = await link.start(); … await link.close();
 */
export class ServerLink {
  readonly registry: McpRegistry;
  private readonly filter: ToolFilter;
  private readonly calls: ServerCalls;
  private readonly paused: PausedCalls;
  private offerNow: ServerOffer;
  private state: ServerLinkStatus["state"] = "starting";
  private everListed = false;
  private watcher?: WatchStream;
  private retryTimer?: ClockTimer;
  private attempt = 0;
  private refreshing?: Promise<void>;
  private refreshAgain = false;

  /** Throws McpHostError when the entry cannot become a spec (transport, URL, credentials). */
  constructor(
    readonly name: string,
    readonly config: GatewayServerConfig,
    private readonly deps: LinkDeps,
  ) {
    const spec = serverSpecOf(name, config, { strategies: deps.strategies, clock: deps.clock, redactor: deps.redactor });
    this.filter = toolFilter(name, config);
    this.registry = new McpRegistry([spec], {
      startupTimeoutMs: deps.startupTimeoutMs,
      logger: deps.registryLogger,
      clock: deps.clock,
      clientInfo: deps.clientInfo,
      redactor: deps.redactor,
      ...defined({ maxResultBytes: deps.maxResultBytes, maxJsonDepth: deps.maxJsonDepth }),
    });
    this.paused = new PausedCalls(deps.clock, deps.pendingInputTtlMs);
    this.calls = {
      server: name,
      registry: this.registry,
      approval: config.approval ?? "never",
      paused: this.paused,
      unreachable: () => this.noticeDown(),
      redactor: deps.redactor,
      clock: deps.clock,
      ...defined({ observer: deps.observer }),
    };
    this.offerNow = this.emptyOffer();
  }

  /** What the server contributes now (while it was never listed: its toolset, empty). */
  get offer(): ServerOffer {
    return this.offerNow;
  }

  /**
   * Connects and lists (under the start-up deadline); resolves with what is wrong: MCP_SERVER_UNREACHABLE (the
   * registry's message: no URL, no secret) or TOOL_FILTER_MATCHES_NOTHING. Never throws.
   */
  async start(): Promise<McpHostError[]> {
    this.watch();
    try {
      await this.registry.connect();
    } catch (error) {
      return [new McpHostError("MCP_SERVER_UNREACHABLE", `server "${this.name}" could not be started: ${messageOf(error)}`, { server: this.name })];
    }
    const down = this.registry.unavailable;
    if (down.length > 0) {
      this.state = "unavailable";
      return down.map((u) => new McpHostError("MCP_SERVER_UNREACHABLE", u.message, { server: this.name }));
    }
    const problem = await this.readListing();
    return problem ? [problem] : [];
  }

  /** Keeps reconnecting in the background until the server is up (for an `optional` server that is down). */
  retryInBackground(): void {
    if (this.state !== "unavailable" || this.retryTimer) return;
    const delay = backoffDelay(this.deps.backoff, this.attempt++);
    this.deps.logger.debug(`retrying server "${this.name}" in ${delay} ms`, { server: this.name });
    this.retryTimer = this.deps.clock.setTimeout(() => {
      this.retryTimer = undefined;
      void this.retry();
    }, delay);
  }

  /** What to report as unavailable for this server (empty while it is up). */
  unavailable(): UnavailableReport[] {
    if (this.state === "closed") return [];
    return this.registry.unavailable.map((u) => ({ server: u.server, phase: u.phase, code: u.code, message: u.message }));
  }

  status(): ServerLinkStatus {
    const down = this.unavailable()[0];
    return {
      server: this.name,
      state: this.state,
      tools: this.offerNow.tools.length,
      connected: this.everListed,
      paused: this.paused.held.calls,
      ...(down ? { code: down.code, ...defined({ message: down.message }) } : {}),
    };
  }

  /** Stops retrying and watching, cancels paused calls, closes the connection (the stdio child's whole group). */
  async close(): Promise<void> {
    if (this.state === "closed") return;
    this.state = "closed";
    this.retryTimer?.clear();
    this.retryTimer = undefined;
    await this.watcher?.return?.();
    this.paused.clear("the upstream server was removed or the gateway stopped");
    await this.registry.close();
  }

  /** Read through a method: `close()` may run while an await is pending, which narrowing cannot see. */
  private isClosed(): boolean {
    return this.state === "closed";
  }

  private emptyOffer(): ServerOffer {
    return { toolsets: [toolsetOf(this.name, this.config)], tools: [], resources: [], resourceTemplates: [], prompts: [], skills: [] };
  }

  /** Re-reads the listing into the offer; returns a filter problem (the offer keeps what the filter lets through). */
  private async readListing(): Promise<McpHostError | undefined> {
    const registry = this.registry;
    const [tools, resources, templates, prompts, skills] = await Promise.all([
      registry.listTools(),
      registry.listResources(),
      registry.listResourceTemplates(),
      registry.listPrompts(),
      this.readSkills(),
    ]);
    if (this.state === "closed") return undefined;
    const instructions = registry.instructionsOf(this.name);
    const tasks = taskSurfaceOf(registry, this.name);
    const listing = { tools, resources, templates, prompts, ...defined({ instructions, skills, tasks }) };
    this.offerNow = serverOffer({ server: this.name, config: this.config, calls: this.calls, listing, filter: this.filter });
    this.everListed = true;
    this.state = registry.unavailable.length > 0 ? "unavailable" : "up";
    return this.filter.problem(tools.map((t) => t.upstreamName));
  }

  /**
   * The server's skills when it declares the skills extension (docs/skills.md); an entry its client refuses is left
   * out with SKILL_INVALID, and a listing that fails costs the skills only, never the rest of the offer.
   */
  private async readSkills(): Promise<Skill[] | undefined> {
    try {
      const listed = await this.registry.listSkills(this.name);
      for (const invalid of listed?.invalid ?? []) {
        const failure = new McpHostError("SKILL_INVALID", `server "${this.name}": skill ${invalid.uri ?? "(no uri)"} is left out: ${invalid.reason}`, {
          server: this.name,
        });
        this.deps.logger.warn(failure.message, { code: failure.code, server: this.name });
      }
      return listed?.skills;
    } catch (error) {
      this.deps.logger.warn(`listing the skills of server "${this.name}" failed; its other offers serve: ${messageOf(error)}`, { server: this.name });
      return undefined;
    }
  }

  private async retry(): Promise<void> {
    if (this.state === "closed") return;
    try {
      await this.registry.refresh();
    } catch (error) {
      this.deps.logger.debug(`retrying server "${this.name}" failed: ${messageOf(error)}`, { server: this.name });
    }
    if (this.isClosed()) return;
    if (this.registry.unavailable.length > 0) {
      this.state = "unavailable";
      this.retryInBackground();
      return;
    }
    this.attempt = 0;
    this.deps.logger.info(`server "${this.name}" is reachable again; its toolset is served`, { server: this.name });
    await this.refresh();
  }

  /** A call found the server unreachable: report it, and reconnect in the background. */
  private noticeDown(): void {
    if (this.state === "closed" || this.registry.unavailable.length === 0) return;
    this.state = "unavailable";
    this.deps.changed(this);
    this.retryInBackground();
  }

  /** Follows the upstream's list changes; a burst of events becomes one re-read and one report. */
  private watch(): void {
    const stream = this.registry.watch();
    this.watcher = stream;
    void (async () => {
      for await (const _event of stream) void this.refresh();
    })();
  }

  /** Re-reads the listing (coalescing callers that arrive while it runs) and tells the gateway. */
  private refresh(): Promise<void> {
    if (this.refreshing) {
      this.refreshAgain = true;
      return this.refreshing;
    }
    this.refreshing = (async () => {
      do {
        this.refreshAgain = false;
        await new Promise<void>((resolve) => setImmediate(resolve)); // the rest of this burst's events arrive first
        try {
          const problem = await this.readListing();
          if (problem) this.deps.logger.warn(problem.message, { code: problem.code, server: this.name });
        } catch (error) {
          // Closing while a re-read was on its way is no failure: nobody will read the listing again.
          if (this.state !== "closed") this.deps.logger.warn(`re-reading server "${this.name}" failed: ${messageOf(error)}`, { server: this.name });
        }
      } while (this.refreshAgain && this.state !== "closed");
      if (this.state === "closed") return;
      this.deps.changed(this);
      if (this.state === "unavailable") this.retryInBackground(); // it went down while re-listing
    })().finally(() => (this.refreshing = undefined));
    return this.refreshing;
  }
}

/** Which task surface a connected server offers the gateway to relay (server-offer.ts), if any. */
function taskSurfaceOf(registry: McpRegistry, server: string): "modern" | "legacy" | undefined {
  if (registry.eraOf(server) === "modern") return declaresTasks(registry.extensionsOf(server)) ? "modern" : undefined;
  return runsTaskCalls(registry, server) ? "legacy" : undefined;
}
