/**
 * The MCP endpoint of one selection (docs/design.md §8): both protocol eras at one URL. Modern requests go to one SDK
 * `createMcpHandler` per selection — its own event bus, so `?only=a` listeners are not woken by other toolsets —
 * whose factory makes a fresh low-level server over the request's build, prepared from the request's facts; legacy
 * requests follow `http.legacy` (stateful sessions by default). Every request reaches the SDK through the same
 * exchange (web-exchange.ts), so the SDK's whole entry runs on each and a handler sees the same context whatever it
 * asked. The endpoint counts its requests in flight (listen streams included), so an idle one can be let go.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { createMcpHandler, type AuthInfo, type McpHttpHandler, type McpRequestContext, type Server } from "@modelcontextprotocol/server";
import type { Logger } from "../../logger.js";
import type { BuildCore } from "../../host/build/compiled-build.js";
import { toolsetsBehind, type BuildId } from "../../host/build/build-id.js";
import { createSdkServer } from "../../host/protocol/sdk-server.js";
import { checkSubscriptions, type SubscriptionLimits } from "../../host/protocol/subscriptions.js";
import { paramHeaderMismatch } from "../../host/protocol/param-headers.js";
import { onResponseClose } from "../edge/connection-tracker.js";
import { header, looksModern } from "../edge/era-sniff.js";
import type { HostServing } from "../../host/serving-port.js";
import { sendInBandError, sendJsonRpcError } from "../edge/jsonrpc-response.js";
import { carriedFacts, type RequestFacts } from "../edge/request-facts.js";
import type { LegacyMode } from "../http-options.js";
import type { Fleet } from "../../scale-out/fleet.js";
import { serveLegacy, type LegacyServing } from "./legacy-serving.js";
import { isListen, taskListenOf } from "./task-listen.js";
import { callerFrom } from "../../host/protocol/request-state.js";
import type { TaskStore } from "../../tasks/task-store.js";
import { modernErrorLog } from "./modern-error-log.js";
import { webRequestOf, writeWebResponse } from "./web-exchange.js";
import { FastPath } from "./fast-path.js";
import { requestInfoOf } from "./request-info.js";
import { defined } from "../../defined.js";

/** What every endpoint of one app shares. */
export interface EndpointContext {
  legacy: LegacyMode;
  legacyServing: LegacyServing;
  serving: HostServing;
  logger: Logger;
  maxBodyBytes: number;
  /** What one listen stream may follow. */
  subscriptionLimits: SubscriptionLimits;
  /** In a fleet: the selection's event bus comes from it, and a listen stream follows its URIs on the fleet's channels. */
  fleet?: Fleet;
  /** The host's tasks, for the task notifications a listen stream asks for (docs/tasks.md). */
  tasks?: TaskStore;
  /** Serve ordinary 2026-07-28 requests on pooled servers (fast-path.ts); false: every request through the SDK's entry. */
  fastPath: boolean;
}

/** The resource URIs a `subscriptions/listen` request follows (checked already), or none. */
function listenedUris(body: unknown): string[] {
  const message = body as { method?: unknown; params?: { notifications?: { resourceSubscriptions?: unknown } } } | undefined;
  if (message?.method !== "subscriptions/listen") return [];
  const uris = message.params?.notifications?.resourceSubscriptions;
  return Array.isArray(uris) ? uris.filter((uri): uri is string => typeof uri === "string") : [];
}

/**
 * Refuses a `subscriptions/listen` whose resource subscriptions are more, longer or other than the selection may
 * follow (answered in band, as a handler's -32602 would be); true when it answered.
 */
function refusedListen(body: unknown, build: BuildCore, limits: SubscriptionLimits, res: ServerResponse): boolean {
  const message = body as { method?: unknown; id?: unknown; params?: { notifications?: { resourceSubscriptions?: unknown } } } | undefined;
  if (message?.method !== "subscriptions/listen") return false;
  const uris = message.params?.notifications?.resourceSubscriptions;
  if (!Array.isArray(uris)) return false;
  try {
    checkSubscriptions(uris, build.protocol.tables, limits);
    return false;
  } catch (error) {
    const id = typeof message.id === "string" || typeof message.id === "number" ? message.id : null;
    sendInBandError(res, id, -32602, (error as Error).message);
    return true;
  }
}

/**
 * Refuses a 2026-07-28 `tools/call` whose `Mcp-Param-*` headers disagree with its arguments (SEP-2243): 400 with
 * -32020 (HeaderMismatch), as the SDK answers for the servers it checks itself (host/protocol/param-headers.ts).
 */
function refusedParamHeaders(req: IncomingMessage, body: unknown, build: BuildCore, res: ServerResponse): boolean {
  const message = body as { method?: unknown; id?: unknown; params?: { name?: unknown; arguments?: unknown } } | undefined;
  if (message?.method !== "tools/call" || typeof message.params?.name !== "string" || !looksModern(req, body)) return false;
  const declarations = build.protocol.tables.toolByName.get(message.params.name)?.paramHeaders;
  if (declarations === undefined) return false;
  const mismatch = paramHeaderMismatch(declarations, message.params.arguments, (name) => header(req, name.toLowerCase()));
  if (mismatch === undefined) return false;
  const id = typeof message.id === "string" || typeof message.id === "number" ? message.id : null;
  const error = { code: -32020, message: `Bad Request: the request headers and body disagree: ${mismatch.problem}`, data: { mismatch } };
  res.writeHead(400, { "content-type": "application/json" });
  res.end(JSON.stringify({ jsonrpc: "2.0", id, error }));
  return true;
}

/** The SDK's answer to a request it could not serve: -32603 with the request's id when it has one. */
function sendInternalError(res: ServerResponse, body: unknown): void {
  const message = body as { method?: unknown; id?: unknown } | undefined;
  const id = typeof message?.method === "string" && (typeof message.id === "string" || typeof message.id === "number") ? message.id : null;
  if (res.headersSent) {
    res.end();
    return;
  }
  res.writeHead(500, { "content-type": "application/json" });
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32603, message: "Internal server error" }, id }));
}

/**
 * The per-request server the SDK's entry asks for: the request's build and what the caller may reach, from the facts
 * the request carries — the one preparation every modern request gets.
 */
function preparedServer(build: BuildCore, facts: RequestFacts | undefined, era: "modern" | "legacy", authInfo: AuthInfo | undefined): Server {
  return createSdkServer(build.protocol, requestInfoOf(build, facts, era, authInfo));
}

export class SelectionEndpoint {
  /** The SDK handler of the modern era; its `notify` reaches this selection's listen streams. */
  readonly modern: McpHttpHandler;
  private readonly fetch: McpHttpHandler["fetch"];
  private readonly adapterError: (error: Error) => void;
  /** Ordinary 2026-07-28 requests on pooled servers; absent when forced off or the SDK is not one it was proven on. */
  private readonly fast: FastPath | undefined;
  private inFlight = 0;

  readonly key: string;

  constructor(
    /** The build this endpoint serves: its selection, view included. */
    readonly id: BuildId,
    private readonly context: EndpointContext,
  ) {
    this.key = id.key;
    const errors = modernErrorLog(() => this.modern, context.logger, id.key);
    // In a fleet with Redis the bus follows this selection's toolsets on the fleet's channels while a stream listens.
    const bus = context.fleet?.eventBusFor(toolsetsBehind(id), errors.onerror);
    this.modern = createMcpHandler((ctx) => this.serverFor(ctx), {
      legacy: context.legacy === "stateless" ? "stateless" : "reject",
      maxRequestBodySize: context.maxBodyBytes,
      onerror: errors.onerror,
      ...defined({ bus }),
    });
    this.fetch = errors.fetch;
    this.adapterError = errors.onAdapterError;
    this.fast = context.fastPath ? new FastPath() : undefined;
  }

  /** True while a request (or a long-lived stream) of this selection is being served. */
  get busy(): boolean {
    return this.inFlight > 0;
  }

  /**
   * Serves one request for `build` (this selection's current build) whose checks have passed and whose body is read.
   * @example
   * await endpoint.handle(build, facts, req, res);
   */
  async handle(build: BuildCore, facts: RequestFacts, req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.inFlight += 1;
    onResponseClose(res, () => (this.inFlight -= 1));
    if (this.context.legacy === "stateful") {
      const legacy = serveLegacy(this.context.legacyServing, facts, req, res, this.key, build);
      if (legacy !== false) {
        await legacy;
        return;
      }
    }
    if ((req.method === "GET" || req.method === "DELETE") && this.context.legacy !== "stateless") {
      sendJsonRpcError(
        res,
        405,
        -32000,
        `Method not allowed: ${req.method} needs a 2025-era session (Mcp-Session-Id); the 2026-07-28 protocol uses POST only.`,
        { allow: "POST" },
      );
      return;
    }
    if (refusedListen(facts.body, build, this.context.subscriptionLimits, res)) return;
    if (refusedParamHeaders(req, facts.body, build, res)) return;
    const tasks =
      this.context.tasks === undefined || !isListen(facts.body)
        ? undefined
        : await taskListenOf(facts.body, { store: this.context.tasks, owner: callerFrom(facts.authInfo, undefined, "http") });
    if (tasks?.kind === "refused") {
      sendInBandError(res, tasks.id, tasks.code, tasks.message, tasks.data);
      return;
    }
    this.followListened(facts.body, res);
    if (tasks === undefined && this.fast !== undefined) {
      const fast = this.fast.serve(build, facts, req, res);
      if (fast === true || (fast !== false && (await fast))) return;
    }
    let request: Request;
    try {
      request = webRequestOf(req, res, facts);
    } catch (error) {
      // Something in front (a serverFactory) left the request with no URL to make: a bug, answered as the SDK would.
      this.adapterError(error instanceof Error ? error : new Error(String(error)));
      sendInternalError(res, facts.body);
      return;
    }
    const response = await this.fetch(request, {
      ...defined({ parsedBody: facts.body, authInfo: facts.authInfo }),
    });
    await writeWebResponse(res, tasks === undefined ? response : tasks.wrap(response));
  }

  async close(): Promise<void> {
    await Promise.all([this.modern.close(), this.fast?.close()]);
  }

  /** In a fleet: a listen stream's resource URIs are followed on the fleet's channels while the stream is open. */
  private followListened(body: unknown, res: ServerResponse): void {
    const events = this.context.fleet?.events;
    if (events === undefined) return;
    const uris = listenedUris(body);
    if (uris.length === 0) return;
    const releases = uris.map((uri) => events.followResource(uri));
    onResponseClose(res, () => {
      for (const release of releases) release();
    });
  }

  private async serverFor(ctx: McpRequestContext): Promise<Server> {
    const facts = carriedFacts(ctx.requestInfo);
    const build = facts?.built ?? (await this.context.serving.compiled(this.id));
    return preparedServer(build, facts, ctx.era, ctx.authInfo);
  }
}
