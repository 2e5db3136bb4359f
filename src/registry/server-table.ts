/**
 * What the registry knows about its servers: each one's connection and latest listing, which are unavailable and
 * why, which await re-listing, and the index built from all listings. Bringing servers up (in parallel, under one
 * deadline), re-listing one server, and announcing the resulting changes to watchers all happen here.
 */
import type { Tool } from "@modelcontextprotocol/client";
import { McpHostError, messageOf } from "../errors.js";
import type { Logger } from "../logger.js";
import { isDestructive } from "./approval.js";
import { ServerConnection } from "./connection.js";
import { classifyFailure } from "./failure.js";
import { globMatcher } from "./glob.js";
import type { Limits } from "./limits.js";
import { fetchListing, type ServerListing } from "./listing.js";
import { RegistryIndex, type IndexInput } from "./naming.js";
import { createRedactor } from "./redact.js";
import type { ServerRequestRouter } from "./server-requests.js";
import { OutputChecks } from "./structured-output.js";
import type { RegistryOptions, ServerSpecification, ServerStatus, UnavailableServer } from "./types.js";
import { WatchHub, diffOffers, snapshotOffer } from "./watch.js";

/** One server's state inside the registry. */
export interface Upstream {
  spec: ServerSpecification;
  connection: ServerConnection;
  logger: Logger;
  redact: (text: string) => string;
  listing?: ServerListing;
  /** Output validators of the current listing (replaced with it). */
  checks: OutputChecks;
  relisting?: Promise<void>;
}

/** What the table needs from its registry. */
export interface TableSettings {
  logger: Logger;
  router: ServerRequestRouter;
  options: RegistryOptions;
  limits: Limits;
  /** True while an eager re-list (for watchers) is welcome: started and not closing. */
  live: () => boolean;
}

function secretsOf(spec: ServerSpecification): string[] {
  if (spec.transport === "http") return [spec.url, ...Object.values(spec.headers ?? {})];
  if (spec.transport === "stdio") return Object.values(spec.env ?? {});
  return [];
}

/**
 * The registry's servers and their listings.
 * @example
 * const table = new ServerTable(specs, settings); await table.bringUp(table.names(), false); table.index.tools
 */
export class ServerTable {
  readonly hub = new WatchHub();
  index: RegistryIndex;
  private readonly upstreams = new Map<string, Upstream>();
  private readonly stale = new Set<string>();
  private readonly down = new Map<string, UnavailableServer>();
  private readonly opened: string[] = [];
  private readonly registryDenied: (name: string) => boolean;
  private eagerRefresh = false;

  constructor(
    specs: readonly ServerSpecification[],
    private readonly settings: TableSettings,
  ) {
    this.registryDenied = globMatcher(settings.options.deniedTools ?? []);
    for (const spec of specs) {
      if (this.upstreams.has(spec.name)) {
        throw new McpHostError("MCP_TRANSPORT_INVALID", `two servers are named "${spec.name}"; server names must be unique`, { server: spec.name });
      }
      this.upstreams.set(spec.name, this.makeUpstream(spec));
    }
    this.index = RegistryIndex.build(this.names(), []);
  }

  private makeUpstream(spec: ServerSpecification): Upstream {
    const { logger: root, router, options, limits } = this.settings;
    const logger = root.child(spec.name);
    const redact = createRedactor(secretsOf(spec));
    const name = spec.name;
    const connection = new ServerConnection(spec, {
      logger,
      redact,
      router,
      clientInfo: options.clientInfo ?? { name: "mcp-host-registry", version: "0.1.0" },
      timeoutMs: limits.timeoutOf(spec),
      onListChanged: () => this.markStale(name),
      onUnexpectedClose: () => this.markStale(name),
      onOpened: () => {
        this.down.delete(name);
        if (!this.opened.includes(name)) this.opened.push(name);
      },
    });
    return { spec, connection, logger, redact, checks: new OutputChecks(logger) };
  }

  /** Server names in spec order. */
  names(): string[] {
    return [...this.upstreams.keys()];
  }

  /** One server (it exists: names come from the index or were checked). */
  get(name: string): Upstream {
    return this.upstreams.get(name)!;
  }

  has(name: string): boolean {
    return this.upstreams.has(name);
  }

  /** The order to close in: reverse order of opening, then the servers never opened. */
  closeOrder(): string[] {
    const order = [...this.opened].reverse();
    for (const name of this.names().reverse()) if (!order.includes(name)) order.push(name);
    return order;
  }

  /** Kills every stdio child at once (for process exit). */
  killAll(): void {
    for (const u of this.upstreams.values()) u.connection.killNow();
  }

  unavailable(): UnavailableServer[] {
    return this.names().flatMap((n) => {
      const u = this.down.get(n);
      return u ? [{ ...u }] : [];
    });
  }

  /** Records (or, with no message, clears) a server's unavailability. */
  setUnavailable(name: string, phase: UnavailableServer["phase"], message?: string): void {
    if (message === undefined) this.down.delete(name);
    else this.down.set(name, { server: name, phase, code: "MCP_SERVER_UNREACHABLE", message });
  }

  status(): ServerStatus[] {
    return [...this.upstreams.values()].map(({ spec, connection }) => {
      const isDown = this.down.has(spec.name) && connection.state !== "connected" && connection.state !== "closed";
      return {
        server: spec.name,
        transport: spec.transport,
        state: isDown ? "unavailable" : connection.state,
        ...(connection.era ? { era: connection.era } : {}),
        ...(connection.pid !== undefined ? { pid: connection.pid } : {}),
        stale: this.stale.has(spec.name),
      };
    });
  }

  /** Connects and lists the given servers in parallel under one start-up deadline; failures go to `unavailable`. */
  async bringUp(servers: readonly string[], announce: boolean): Promise<void> {
    const deadline = AbortSignal.timeout(this.settings.limits.startupMs);
    await Promise.all(servers.map((name) => this.bringUpOne(this.get(name), deadline)));
    this.rebuild(announce);
  }

  private async bringUpOne(upstream: Upstream, deadline: AbortSignal): Promise<void> {
    const { spec, connection } = upstream;
    const { limits } = this.settings;
    let phase: "connect" | "list" = "connect";
    try {
      const client = await raceAbort(connection.ready({ timeoutMs: limits.startupMs, signal: deadline }), deadline);
      phase = "list";
      this.stale.delete(spec.name);
      upstream.listing = await raceAbort(fetchListing(client, { logger: upstream.logger, timeoutMs: limits.timeoutOf(spec), signal: deadline }), deadline);
      upstream.checks = new OutputChecks(upstream.logger);
      this.down.delete(spec.name);
    } catch (error) {
      upstream.listing = undefined;
      const message = this.startFailureMessage(upstream, phase, error, deadline.aborted);
      this.setUnavailable(spec.name, phase, message);
      upstream.logger.warn(`unavailable (${phase}): ${message}`, { code: "MCP_SERVER_UNREACHABLE" });
    }
  }

  private startFailureMessage(upstream: Upstream, phase: "connect" | "list", error: unknown, timedOut: boolean): string {
    const { spec, connection } = upstream;
    if (timedOut) return `server "${spec.name}" did not ${phase === "connect" ? "connect" : "list its tools"} within ${this.settings.limits.startupMs} ms`;
    const code = (error as { code?: unknown }).code;
    let detail = classifyFailure(error).detail;
    if (code === "ENOENT") detail = `the command "${spec.transport === "stdio" ? spec.command : ""}" was not found`;
    else if (code === "EACCES") detail = "the command is not executable";
    const exit = connection.lastExit;
    if (exit && phase === "connect") detail = `the server process exited during start-up (${exit.signal ? `signal ${exit.signal}` : `exit code ${exit.code}`})`;
    return upstream.redact(`server "${spec.name}" could not be ${phase === "connect" ? "connected" : "listed"}: ${detail}`);
  }

  /** Marks a server for re-listing at the next operation — at once, while someone watches. */
  markStale(server: string): void {
    this.stale.add(server);
    if (!this.hub.active || this.eagerRefresh || !this.settings.live()) return;
    this.eagerRefresh = true;
    queueMicrotask(() => {
      this.eagerRefresh = false;
      void this.relistStale().catch((error) => this.settings.logger.warn("re-listing failed", { error: messageOf(error) }));
    });
  }

  hasStale(): boolean {
    return this.stale.size > 0;
  }

  /** Re-lists the servers marked stale (only those). */
  async relistStale(): Promise<void> {
    await Promise.all([...this.stale].map((name) => this.relist(name)));
  }

  /** Re-lists one server (shared by concurrent callers) and announces what changed. */
  relist(name: string): Promise<void> {
    const upstream = this.get(name);
    upstream.relisting ??= (async () => {
      this.stale.delete(name);
      const { spec, connection } = upstream;
      const { limits } = this.settings;
      let phase: UnavailableServer["phase"] = "connect";
      try {
        const client = await connection.ready({ timeoutMs: limits.startupMs });
        phase = "list";
        upstream.listing = await fetchListing(client, { logger: upstream.logger, timeoutMs: limits.timeoutOf(spec) });
        upstream.checks = new OutputChecks(upstream.logger);
        this.down.delete(name);
      } catch (error) {
        // The last listing stays in the index (names stay stable); the server is reported until it recovers.
        const message = upstream.redact(`server "${name}" could not be ${phase === "connect" ? "reconnected" : "re-listed"}: ${classifyFailure(error).detail}`);
        this.setUnavailable(name, phase, message);
        upstream.logger.warn(message);
      }
      this.rebuild(true);
    })().finally(() => (upstream.relisting = undefined));
    return upstream.relisting;
  }

  /** Rebuilds the index from every listing; announces the differences to watchers when asked. */
  rebuild(announce: boolean): void {
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
