/**
 * What the registry knows about its servers: each one's connection and latest listing, which are unavailable and
 * why, which await re-listing, and the index built from all listings. Bringing servers up (in parallel, under one
 * deadline), re-listing one server, and announcing the resulting changes to watchers all happen here.
 */
import type { Tool } from "@modelcontextprotocol/client";
import { messageOf, type McpHostErrorCode } from "../../errors.js";
import type { Logger } from "../../logger.js";
import { QUALIFIER } from "../../names.js";
import { ServerConnection, type ClientSetup } from "../connect/connection.js";
import { failureDetail } from "../failure.js";
import { raceAbort, startBudget, type Limits } from "../limits.js";
import { redactorOf, type Redactor } from "../redact.js";
import { checkServerNames } from "../server-spec.js";
import type { RegistryOptions, ServerSpecification, ServerStatus, UnavailableServer } from "../types.js";
import { isDestructive } from "./destructive.js";
import { globMatcher } from "./glob.js";
import { fetchListing, type ServerListing } from "./listing.js";
import { RegistryIndex, type IndexInput } from "./naming.js";
import { WatchHub, diffOffers, snapshotOffer } from "./watch.js";

/** One server's state inside the registry. */
export interface Upstream {
  spec: ServerSpecification;
  connection: ServerConnection;
  /** Lines carry the server's name as their prefix; messages need not repeat it. */
  logger: Logger;
  /** For what the server or its transport says; never for the registry's own words. */
  redact: Redactor;
  listing?: ServerListing;
  relisting?: Promise<void>;
}

/** What the table needs from its registry. */
export interface TableSettings {
  logger: Logger;
  /** Prepares every new client for server-to-client requests. */
  setup: ClientSetup;
  options: RegistryOptions;
  limits: Limits;
  /** True while an eager re-list (for watchers) is welcome: started and not closing. */
  live: () => boolean;
}

type Phase = UnavailableServer["phase"];

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
    checkServerNames(specs);
    this.registryDenied = globMatcher(settings.options.deniedTools ?? []);
    for (const spec of specs) this.upstreams.set(spec.name, this.makeUpstream(spec));
    this.index = RegistryIndex.build(this.names(), []);
  }

  private makeUpstream(spec: ServerSpecification): Upstream {
    const { logger: root, setup, options, limits } = this.settings;
    const logger = root.child(spec.name);
    const redact = redactorOf(spec, options.redactor);
    const name = spec.name;
    const connection = new ServerConnection(spec, {
      logger,
      redact,
      setup,
      clock: limits.clock,
      answers: limits.answers,
      clientInfo: options.clientInfo ?? { name: "mcp-host-registry", version: "0.1.0" },
      timeoutMs: limits.timeoutOf(spec),
      onListChanged: () => this.markStale(name),
      onUnexpectedClose: () => this.markStale(name),
      onOpened: () => {
        this.down.delete(name);
        if (!this.opened.includes(name)) this.opened.push(name);
      },
    });
    return { spec, connection, logger, redact };
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

  /**
   * Records that a server is unavailable and logs it once, under the server's name. `what` is the registry's
   * sentence about it without the server's name ("could not be connected: …"), its foreign part already redacted.
   */
  reportUnavailable(name: string, phase: Phase, what: string): void {
    this.down.set(name, { server: name, phase, code: "MCP_SERVER_UNREACHABLE", message: `server "${name}" ${what}` });
    this.get(name).logger.warn(`unavailable (${phase}): ${what}`, { code: "MCP_SERVER_UNREACHABLE" satisfies McpHostErrorCode });
  }

  /** Reports a server unavailable because `error` stopped it being `verb` ("reconnected", "re-listed"). */
  reportFailure(name: string, phase: Phase, verb: string, error: unknown): void {
    this.reportUnavailable(name, phase, `could not be ${verb}: ${failureDetail(error, this.get(name).redact)}`);
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
    const { clock, startupMs } = this.settings.limits;
    const deadline = startBudget(clock, startupMs, "the start-up deadline passed");
    try {
      await Promise.all(servers.map((name) => this.bringUpOne(this.get(name), deadline.signal)));
    } finally {
      deadline.clear();
    }
    this.rebuild(announce);
  }

  private async bringUpOne(upstream: Upstream, deadline: AbortSignal): Promise<void> {
    const failed = await this.list(upstream, deadline);
    if (!failed) return;
    upstream.listing = undefined;
    this.reportUnavailable(upstream.spec.name, failed.phase, this.startFailure(upstream, failed.phase, failed.error, deadline.aborted));
  }

  /** Connects (if needed) and reads one server's listing; on failure, says in which phase and why. */
  private async list(upstream: Upstream, signal?: AbortSignal): Promise<{ phase: Phase; error: unknown } | undefined> {
    const { spec, connection, logger } = upstream;
    const { limits } = this.settings;
    let phase: Phase = "connect";
    try {
      const client = await raceAbort(connection.ready({ timeoutMs: limits.startupMs, ...(signal ? { signal } : {}) }), signal);
      phase = "list";
      this.stale.delete(spec.name); // a change announced from here on is not in this listing
      const listing = await raceAbort(
        fetchListing(client, { logger, redact: upstream.redact, timeoutMs: limits.timeoutOf(spec), ...(signal ? { signal } : {}) }),
        signal,
      );
      upstream.listing = listing;
      this.down.delete(spec.name);
      const { tools, resources, templates, prompts } = listing;
      logger.debug(`listed ${tools.length} tool(s), ${resources.length} resource(s), ${templates.length} template(s), ${prompts.length} prompt(s)`);
      return undefined;
    } catch (error) {
      return { phase, error };
    }
  }

  /** Why a server did not come up, in the registry's words around the redacted foreign detail. */
  private startFailure(upstream: Upstream, phase: Phase, error: unknown, timedOut: boolean): string {
    const { spec, connection } = upstream;
    if (timedOut) return `did not ${phase === "connect" ? "connect" : "list its tools"} within ${this.settings.limits.startupMs} ms`;
    const code = (error as { code?: unknown }).code;
    const exit = connection.lastExit;
    let detail: string;
    if (exit && phase === "connect") {
      // The server's own last words (already redacted) say why — an npx 404, a missing module — at any log level.
      // The first line naming the problem leads when the tail has lost it (Node's stack pushes it out).
      const problem =
        exit.stderrProblem !== undefined && !exit.stderrTail?.includes(exit.stderrProblem) ? `; its stderr said ${JSON.stringify(exit.stderrProblem)}` : "";
      const tail = exit.stderrTail && exit.stderrTail.length > 0 ? `; its last stderr lines: ${exit.stderrTail.map((l) => JSON.stringify(l)).join(" | ")}` : "";
      const said = problem + tail;
      detail = `the server process exited during start-up (${exit.signal ? `signal ${exit.signal}` : `exit code ${exit.code}`})${said}`;
    } else if (code === "ENOENT") detail = `the command "${spec.transport === "stdio" ? spec.command : ""}" was not found`;
    else if (code === "EACCES") detail = "the command is not executable";
    else detail = failureDetail(error, upstream.redact);
    return `could not be ${phase === "connect" ? "connected" : "listed"}: ${detail}`;
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
      const failed = await this.list(upstream);
      // On failure the last listing stays in the index (names stay stable); the server is reported until it recovers.
      if (failed) this.reportFailure(name, failed.phase, failed.phase === "connect" ? "reconnected" : "re-listed", failed.error);
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
        denied: (tool) => denied(tool) || this.registryDenied(tool) || this.registryDenied(`${spec.name}${QUALIFIER}${tool}`),
        destructive: (tool: Tool) => isDestructive(tool, spec.unannotated),
      });
    }
    const before = this.index;
    this.index = RegistryIndex.build(this.names(), inputs);
    if (!announce || !this.hub.active) return;
    const events = diffOffers(
      snapshotOffer(before.tools, before.prompts, before.resources),
      snapshotOffer(this.index.tools, this.index.prompts, this.index.resources),
    );
    if (events.length > 0) this.hub.publish(events);
  }
}
