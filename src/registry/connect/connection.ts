/**
 * One upstream server's connection: the SDK client and its transport, opened lazily, shared by every caller and
 * re-opened on demand (a reconnect is shared too, so concurrent failures cause one reconnect). It also keeps the
 * server's list-change feed alive: pushed notifications on a 2025 connection, a `subscriptions/listen` stream on a
 * 2026 one — re-opened when it drops, since the SDK does not.
 */
import {
  Client,
  StreamableHTTPClientTransport,
  type ClientCapabilities,
  type JSONRPCMessage,
  type McpSubscription,
  type PriorDiscovery,
  type ServerCapabilities,
  type Transport,
} from "@modelcontextprotocol/client";
import type { Clock } from "../../clock.js";
import { McpHostError } from "../../errors.js";
import type { Logger } from "../../logger.js";
import type { AnswerLimits } from "../answers/answer-limits.js";
import { boundedFetch } from "../answers/bounded-fetch.js";
import { classifyFailure, failureDetail } from "../failure.js";
import { waitAtMost } from "../limits.js";
import type { Redactor } from "../redact.js";
import type { ServerSpecification, ServerStatus } from "../types.js";
import { HttpForwarder, httpForwardingReady } from "../forward/http-forwarder.js";
import type { Forwarder } from "../forward/forwarder.js";
import { stdioForwarder } from "../forward/stdio-forwarder.js";
import { MODERN_PROTOCOL_VERSION, negotiationFor, verdictOf } from "./era.js";
import { LinearSchemaValidator } from "./schema-validator.js";
import { StdioProcessTransport, type ChildExit } from "./stdio-process.js";
import { defined } from "../../defined.js";

/** How each new client is prepared for server-to-client requests (the call layer's router does this). */
export interface ClientSetup {
  /** The capabilities the client declares to this server. */
  capabilities(spec: ServerSpecification): ClientCapabilities;
  /** Installs the client's handlers for requests the server pushes. */
  install(client: Client, spec: ServerSpecification): void;
  /** Answers a request the server pushed on a forwarded request's HTTP stream, as the installed handlers would. */
  answerPushed(spec: ServerSpecification, method: string, params: Record<string, unknown>): Promise<unknown>;
}

/** What a connection needs from its registry. */
export interface ConnectionDeps {
  /** The server's logger (lines carry its name; messages need not repeat it). */
  logger: Logger;
  redact: Redactor;
  setup: ClientSetup;
  clientInfo: { name: string; version: string };
  /** What the connection's waits and delays run on. */
  clock: Clock;
  /** How much of an answer is read, and how deep it may nest (every transport the registry makes). */
  answers: AnswerLimits;
  /** The server said (or may have said, while its feed was down) that its lists changed. */
  onListChanged: () => void;
  /** The connection ended without being asked to (a stdio child exited). */
  onUnexpectedClose: () => void;
  /** A connection (first or re-opened) is up. */
  onOpened: () => void;
  /** Timeout for the requests the connection makes itself (the listen stream's acknowledgement). */
  timeoutMs: number;
}

/** How long to wait for a connection, and an abort for the start-up deadline or for close(). */
export interface OpenOptions {
  timeoutMs: number;
  signal?: AbortSignal;
}

/**
 * The SDK client hands notifications to their handlers a microtask later but settles a response at once, so the last
 * progress notification a server sends just before its result would reach nobody (the request is over by then).
 * Handing responses on a microtask later too keeps the server's order.
 */
function notificationsFirst(transport: Transport): void {
  const deliver = transport.onmessage;
  if (!deliver) return;
  transport.onmessage = (message, extra) => {
    if ("id" in message && !("method" in message)) queueMicrotask(() => deliver(message, extra));
    else deliver(message, extra);
  };
}

const SESSION_END_WAIT_MS = 2000;
const LISTEN_STABLE_MS = 5000;
const LISTEN_MAX_BACKOFF_MS = 30_000;
const LIST_CHANGED = ["notifications/tools/list_changed", "notifications/resources/list_changed", "notifications/prompts/list_changed"] as const;

/**
 * The lazily opened, shared, re-openable connection to one server.
 * @example
 * const conn = new ServerConnection(spec, deps);
 * const client = await conn.ready({ timeoutMs: 10_000 }); … await conn.close();
 */
export class ServerConnection {
  state: ServerStatus["state"] = "idle";
  private client?: Client;
  private transport?: Transport;
  private opening?: Promise<Client>;
  private openAbort?: AbortController;
  private generation = 0;
  private verdict?: PriorDiscovery;
  private subscription?: McpSubscription;
  private listenLost = false;
  /** Delay before re-opening a stream that dropped soon after it opened (0: re-open at once). */
  private listenBackoffMs = 0;
  private closed = false;
  /** How the last stdio child ended, when a connect failed because it exited. */
  lastExit?: ChildExit;
  /** The raw forwarding channel of a client's transport, made on first use; only ever used with that same client. */
  private forwarding?: { client: Client; forwarder: Forwarder };

  constructor(
    readonly spec: ServerSpecification,
    private readonly deps: ConnectionDeps,
  ) {}

  /** What the server declared it supports, once connected. */
  get serverCapabilities(): ServerCapabilities | undefined {
    return this.client?.getServerCapabilities();
  }

  /** The negotiated era, once connected. */
  get era(): "legacy" | "modern" | undefined {
    return this.client?.getProtocolEra();
  }

  /** The stdio child's pid (and process group), while there is one. */
  get pid(): number | undefined {
    return this.transport instanceof StdioProcessTransport ? this.transport.pid : undefined;
  }

  /** The connected client, connecting first if needed; concurrent callers share one attempt. */
  async ready(options: OpenOptions): Promise<Client> {
    if (this.closed) throw new McpHostError("MCP_REGISTRY_CLOSED", "the registry is closed", { server: this.spec.name });
    if (this.client && this.state === "connected") {
      if (this.listenLost) await this.listen(this.client, this.generation);
      return this.client;
    }
    this.opening ??= this.open(options).finally(() => (this.opening = undefined));
    return this.opening;
  }

  /**
   * Drops `failed` (the client a request failed on) and connects again. When another caller already replaced it,
   * this just returns the current one: a burst of failures causes one reconnect.
   */
  async reconnect(failed: Client, options: OpenOptions): Promise<Client> {
    if (this.client === failed) await this.drop();
    return this.ready(options);
  }

  /**
   * Closes the client (for stdio: terminates the process group; for a 2025 HTTP session: ends it with DELETE, best
   * effort). Errors are thrown for the caller to gather.
   */
  async close(): Promise<void> {
    this.closed = true;
    this.openAbort?.abort(new McpHostError("MCP_REGISTRY_CLOSED", "the registry is closing"));
    await this.opening?.catch(() => undefined);
    const transport = this.transport;
    if (transport instanceof StreamableHTTPClientTransport && transport.sessionId) {
      await waitAtMost(this.deps.clock, transport.terminateSession(), SESSION_END_WAIT_MS);
    }
    try {
      await this.drop();
    } finally {
      this.state = "closed";
    }
  }

  /** Kills a stdio child at once, without waiting (for process exit). */
  killNow(): void {
    if (this.transport instanceof StdioProcessTransport) this.transport.killNow();
  }

  /**
   * The raw forwarding channel of the live connection (forward/), or undefined when there is none to share: not
   * connected, or a transport whose requests only the SDK client can make — a custom one, or HTTP with an auth
   * provider or a fetch of its own (tokens refreshed on 401, headers computed per request).
   */
  forwarder(): Forwarder | undefined {
    const client = this.client;
    if (!client || this.state !== "connected") return undefined;
    // A channel belongs to the transport it was made on: after a reconnect (or an unexpected close) it is a new one.
    if (this.forwarding?.client === client) return this.forwarding.forwarder;
    this.dropForwarding();
    const spec = this.spec;
    const era = client.getProtocolEra() === "modern" ? "modern" : "legacy";
    const envelope =
      era === "modern"
        ? {
            "io.modelcontextprotocol/protocolVersion": MODERN_PROTOCOL_VERSION,
            "io.modelcontextprotocol/clientInfo": this.deps.clientInfo,
            "io.modelcontextprotocol/clientCapabilities": this.deps.setup.capabilities(spec),
          }
        : undefined;
    const transport = this.transport;
    let forwarder: Forwarder | undefined;
    if (transport instanceof StdioProcessTransport) forwarder = stdioForwarder(transport, transport.forwarded, era, envelope);
    else if (transport instanceof StreamableHTTPClientTransport && spec.transport === "http" && !spec.authProvider && !spec.fetch && httpForwardingReady()) {
      forwarder = new HttpForwarder({
        url: new URL(spec.url),
        headers: { ...spec.headers },
        era,
        session: () => ({
          ...defined({ sessionId: transport.sessionId, protocolVersion: transport.protocolVersion }),
        }),
        ...(envelope ? { envelope } : {}),
        answer: (request) => this.answerPushed(request),
        limits: this.deps.answers,
        logger: this.deps.logger,
      });
    }
    if (forwarder) this.forwarding = { client, forwarder };
    return forwarder;
  }

  private dropForwarding(): void {
    const forwarder = this.forwarding?.forwarder;
    this.forwarding = undefined;
    if (forwarder instanceof HttpForwarder) void forwarder.close();
  }

  /** A pushed request's reply, as a JSON-RPC message (a refusal or a handler's failure as its error). */
  private async answerPushed(request: { id: string | number; method: string; params?: unknown }): Promise<JSONRPCMessage> {
    try {
      const result = await this.deps.setup.answerPushed(this.spec, request.method, (request.params ?? {}) as Record<string, unknown>);
      return { jsonrpc: "2.0", id: request.id, result: result as Record<string, unknown> };
    } catch (error) {
      const e = error as { code?: unknown; message?: unknown };
      return { jsonrpc: "2.0", id: request.id, error: { code: typeof e.code === "number" ? e.code : -32603, message: String(e.message ?? "refused") } };
    }
  }

  private async drop(): Promise<void> {
    const client = this.client;
    const subscription = this.subscription;
    this.dropForwarding();
    this.generation++;
    this.client = undefined;
    this.transport = undefined;
    this.subscription = undefined;
    if (!this.closed) this.state = "idle";
    await subscription?.close().catch(() => undefined);
    await client?.close();
  }

  private async makeTransport(): Promise<Transport> {
    const spec = this.spec;
    if (spec.transport === "stdio") {
      return new StdioProcessTransport({
        command: spec.command,
        args: spec.args,
        ...(spec.env ? { env: spec.env } : {}),
        ...(spec.cwd ? { cwd: spec.cwd } : {}),
        ...(spec.killGraceMs !== undefined ? { killGraceMs: spec.killGraceMs } : {}),
        logger: this.deps.logger,
        redact: this.deps.redact,
        clock: this.deps.clock,
        limits: this.deps.answers,
      });
    }
    if (spec.transport === "http") {
      // Every answer the SDK client reads is counted as it arrives (a spec's own fetch too).
      const fetchOf = spec.fetch ?? ((url: string | URL, init?: RequestInit) => fetch(url, init));
      return new StreamableHTTPClientTransport(new URL(spec.url), {
        requestInit: { headers: { ...spec.headers } },
        ...(spec.authProvider ? { authProvider: spec.authProvider } : {}),
        fetch: boundedFetch(fetchOf, {
          limits: this.deps.answers,
          ignored: (what) => this.deps.logger.debug(`${what} arrived on a request's stream; ignored`),
        }),
      });
    }
    return spec.connect();
  }

  private async open(options: OpenOptions): Promise<Client> {
    const generation = ++this.generation;
    this.state = "connecting";
    this.openAbort = new AbortController();
    const signal = options.signal ? AbortSignal.any([options.signal, this.openAbort.signal]) : this.openAbort.signal;
    const negotiation = negotiationFor(this.spec);
    const client = new Client(this.deps.clientInfo, {
      capabilities: this.deps.setup.capabilities(this.spec),
      inputRequired: { autoFulfill: false },
      jsonSchemaValidator: new LinearSchemaValidator(), // never the SDK's own ajv: its patterns backtrack
      ...(negotiation ? { versionNegotiation: negotiation } : {}),
    });
    this.deps.setup.install(client, this.spec);
    for (const method of LIST_CHANGED) client.setNotificationHandler(method, () => this.deps.onListChanged());
    client.onerror = (error) => this.deps.logger.debug(`connection: ${this.deps.redact(error.message)}`);
    client.onclose = () => {
      if (generation !== this.generation || this.closed || this.client !== client) return; // a failed connect is reported by open()
      this.state = "broken";
      this.client = undefined;
      this.dropForwarding();
      void this.transport?.close().catch(() => undefined); // whatever the child left behind in its group
      this.deps.logger.warn("the connection closed unexpectedly; the next use reconnects");
      this.deps.onUnexpectedClose();
    };
    let transport: Transport | undefined;
    try {
      transport = await this.makeTransport();
      this.transport = transport;
      const prior = negotiation ? this.verdict : undefined;
      try {
        await client.connect(transport, { timeout: options.timeoutMs, signal, ...(prior ? { prior } : {}) });
      } catch (error) {
        this.verdict = undefined; // a stale cached verdict must not outlive a failed connect
        throw error;
      }
      if (generation !== this.generation || this.closed) throw new McpHostError("MCP_REGISTRY_CLOSED", "the registry is closing");
      notificationsFirst(transport);
      if (negotiation) this.verdict = verdictOf(client);
      this.client = client;
      this.state = "connected";
      this.deps.logger.debug(`connected (${client.getProtocolEra() ?? "unknown"} era)`);
      this.deps.onOpened();
      await this.listen(client, generation);
      return client;
    } catch (error) {
      if (generation === this.generation) {
        this.state = this.closed ? "closed" : "unavailable";
        this.transport = undefined;
      }
      // A pipe error means the child is going away; wait (briefly) for its exit so the report can name it.
      const pipeBroke = classifyFailure(error).kind === "not-sent";
      this.lastExit = transport instanceof StdioProcessTransport ? (pipeBroke ? await transport.exitWithin(1_000) : transport.exit) : undefined;
      await client.close().catch(() => undefined);
      await transport?.close().catch(() => undefined);
      throw error;
    } finally {
      this.openAbort = undefined;
    }
  }

  /** Opens (or re-opens) the list-change stream of a 2026 connection; a failure is retried at the next use. */
  private async listen(client: Client, generation: number): Promise<void> {
    this.listenLost = false;
    if (client.getProtocolEra() !== "modern" || generation !== this.generation || this.closed) return;
    const caps = client.getServerCapabilities() ?? {};
    const filter = {
      ...(caps.tools?.listChanged ? { toolsListChanged: true } : {}),
      ...(caps.resources?.listChanged ? { resourcesListChanged: true } : {}),
      ...(caps.prompts?.listChanged ? { promptsListChanged: true } : {}),
    };
    if (Object.keys(filter).length === 0) return;
    try {
      const subscription = await client.listen(filter, { timeout: this.deps.timeoutMs });
      const { clock } = this.deps;
      const openedAt = clock.now();
      this.subscription = subscription;
      this.deps.logger.debug("the list-change stream is open");
      void subscription.closed.then((why) => {
        if (why === "local" || generation !== this.generation || this.closed) return;
        this.deps.onListChanged(); // changes may have been missed while it was down
        // A stream that lived a while is re-opened at once; one that keeps dropping right away, with a growing delay.
        this.listenBackoffMs = clock.now() - openedAt >= LISTEN_STABLE_MS ? 0 : Math.min(Math.max(this.listenBackoffMs * 2, 250), LISTEN_MAX_BACKOFF_MS);
        this.deps.logger.info(`the list-change stream ended (${why}); re-opening it`, { afterMs: this.listenBackoffMs });
        const reopen = () => void this.listen(client, generation);
        if (this.listenBackoffMs === 0) reopen();
        else clock.setTimeout(reopen, this.listenBackoffMs);
      });
    } catch (error) {
      this.listenLost = true;
      this.deps.logger.warn("could not open the list-change stream; will retry at the next use", { error: failureDetail(error, this.deps.redact) });
    }
  }
}
