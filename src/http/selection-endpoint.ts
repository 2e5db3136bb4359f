/**
 * The MCP endpoint of one selection (docs/design.md §8): both protocol eras at one URL. Modern requests go to one SDK
 * `createMcpHandler` per selection — its own event bus, so `?only=a` listeners are not woken by other toolsets —
 * whose factory makes a fresh low-level server over the request's build; legacy requests follow `http.legacy`
 * (stateful sessions by default). It counts its requests in flight (listen streams included), so an idle one can
 * be let go.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { toNodeHandler } from "@modelcontextprotocol/node";
import { createMcpHandler, type AuthInfo, type McpHttpHandler, type McpRequestContext, type Server } from "@modelcontextprotocol/server";
import type { Logger } from "../logger.js";
import { createSdkServer } from "../host/protocol/sdk-server.js";
import type { HostServing } from "../host/serving-port.js";
import { bodyOf, header } from "./era-sniff.js";
import type { LegacyMode } from "./http-options.js";
import { sendInBandError, sendJsonRpcError } from "./jsonrpc-response.js";
import { checkSubscriptions, type SubscriptionLimits } from "../host/protocol/subscriptions.js";
import { serveLegacy, type LegacyServing } from "./legacy-serving.js";
import { modernErrorLog } from "./modern-error-log.js";
import { FAST_PATH_REVISION, fastRouteOf, serveFast } from "./modern-fast-path.js";
import { requestScope, scopeOf, type RequestScope } from "./request-scope.js";
import type { Admission, SelectionGuard } from "./selection-guard.js";

/** What every endpoint of one app shares. */
export interface EndpointContext {
  legacy: LegacyMode;
  legacyServing: LegacyServing;
  serving: HostServing;
  logger: Logger;
  maxBodyBytes: number;
  guard: SelectionGuard;
  /** Answer plain 2026-07-28 calls and lists on the fast path (default true; tests and the bench turn it off). */
  fastPath: boolean;
  /** What one listen stream may follow. */
  subscriptionLimits: SubscriptionLimits;
}

/**
 * Refuses a `subscriptions/listen` whose resource subscriptions are more, longer or other than the selection may
 * follow (answered in band, as a handler's -32602 would be); true when it answered.
 */
function refusedListen(body: unknown, compiled: RequestScope["compiled"], limits: SubscriptionLimits, res: ServerResponse): boolean {
  const message = body as { method?: unknown; id?: unknown; params?: { notifications?: { resourceSubscriptions?: unknown } } } | undefined;
  if (message?.method !== "subscriptions/listen") return false;
  const uris = message.params?.notifications?.resourceSubscriptions;
  if (!Array.isArray(uris)) return false;
  try {
    checkSubscriptions(uris, compiled.protocol.tables, limits);
    return false;
  } catch (error) {
    const id = typeof message.id === "string" || typeof message.id === "number" ? message.id : null;
    sendInBandError(res, id, -32602, (error as Error).message);
    return true;
  }
}

/** The scope the edge attached, with what the guard learned (the guard's word wins: it runs last). */
function withAdmission(scope: RequestScope, admission: Admission): RequestScope {
  return {
    compiled: scope.compiled,
    unknown: scope.unknown,
    ...(scope.requested === undefined ? {} : { requested: scope.requested }),
    ...(admission.authInfo === undefined ? {} : { authInfo: admission.authInfo }),
    ...(admission.subject === undefined ? {} : { subject: admission.subject }),
    ...(admission.permitted === undefined ? {} : { permitted: admission.permitted }),
  };
}

export class SelectionEndpoint {
  /** The SDK handler of the modern era; its `notify` reaches this selection's listen streams. */
  readonly modern: McpHttpHandler;
  private readonly modernNode: ReturnType<typeof toNodeHandler>;
  private inFlight = 0;
  /** The fast path's servers with an exchange in flight. */
  private readonly fastLive = new Set<Server>();

  constructor(
    readonly key: string,
    readonly toolsets: readonly string[],
    private readonly context: EndpointContext,
  ) {
    const errors = modernErrorLog(() => this.modern, context.logger, key);
    this.modern = createMcpHandler((ctx) => this.modernServer(ctx), {
      legacy: context.legacy === "stateless" ? "stateless" : "reject",
      maxRequestBodySize: context.maxBodyBytes,
      onerror: errors.onerror,
    });
    this.modernNode = toNodeHandler({ fetch: errors.fetch }, { maxRequestBodySize: context.maxBodyBytes, onerror: errors.onAdapterError });
  }

  /** True while a request (or a long-lived stream) of this selection is being served. */
  get busy(): boolean {
    return this.inFlight > 0;
  }

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.inFlight += 1;
    res.once("close", () => (this.inFlight -= 1));
    const admission = await this.context.guard.admit(req, res);
    if (admission === undefined) return;
    // A legacy session keeps the permissions it was opened with; anything else must be within the caller's.
    const continuing = this.context.legacy === "stateful" && header(req, "mcp-session-id") !== undefined;
    if (!continuing && !this.context.guard.covers(this.toolsets, admission, req, res)) return;
    const scope = withAdmission(scopeOf(req) ?? { compiled: await this.context.serving.compiled(this.toolsets), unknown: [] }, admission);
    if (this.context.legacy === "stateful" && (await serveLegacy(this.context.legacyServing, req, res, this.key, scope))) return;
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
    const body = bodyOf(req);
    if (refusedListen(body, scope.compiled, this.context.subscriptionLimits, res)) return;
    const route = this.context.fastPath ? fastRouteOf(req, body) : undefined;
    if (route !== undefined) {
      const server = this.serverFor(scope, "modern", (req as { auth?: AuthInfo }).auth, FAST_PATH_REVISION);
      // No AsyncLocalStorage run: the scope went into the server here, and only the SDK entry's factory reads the store.
      await serveFast({ route, server, req, res, logger: this.context.logger, selection: this.key, live: this.fastLive });
      return;
    }
    await requestScope.run(scope, () => this.modernNode(req as never, res as never, body));
  }

  async close(): Promise<void> {
    const closing = [...this.fastLive].map((server) => server.close().catch(() => {}));
    this.fastLive.clear();
    await Promise.all([this.modern.close(), ...closing]);
  }

  private async modernServer(ctx: McpRequestContext) {
    const scope: RequestScope = requestScope.getStore() ?? { compiled: await this.context.serving.compiled(this.toolsets), unknown: [] };
    return this.serverFor(scope, ctx.era, ctx.authInfo);
  }

  /** The per-request server both modern paths use: the selection's build, what the caller may reach, its auth. */
  private serverFor(scope: RequestScope, era: "modern" | "legacy", requestAuth: AuthInfo | undefined, modernRevision?: string): Server {
    const authInfo = requestAuth ?? scope.authInfo;
    return createSdkServer(
      scope.compiled.protocol,
      {
        era,
        selection: { active: scope.compiled.toolsets, unknown: scope.unknown, ...(scope.permitted === undefined ? {} : { permitted: scope.permitted }) },
        ...(authInfo ? { authInfo } : {}),
      },
      modernRevision === undefined ? {} : { modernRevision },
    );
  }
}
