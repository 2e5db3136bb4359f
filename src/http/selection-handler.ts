/**
 * The MCP handler of one selection key, serving both protocol eras at one URL (DESIGN.md §8): modern requests go
 * to one SDK `createMcpHandler` per key (its own bus, so `?only=a` listeners are not woken by other toolsets)
 * whose factory makes a fresh low-level server over the current build; legacy requests follow `legacy`
 * (stateful sessions by default). Handlers survive rebuilds; list changes and resource updates reach their
 * listeners in both eras.
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { NodeStreamableHTTPServerTransport, toNodeHandler, toWebRequest } from "@modelcontextprotocol/node";
import { createMcpHandler, isInitializeRequest, isLegacyRequest, type McpHttpHandler, type McpRequestContext } from "@modelcontextprotocol/server";
import type { NodeHandler } from "../host/built-server.js";
import type { McpHost, OfferChange } from "../host/host.js";
import type { LegacyServingOptions } from "../host/host-options.js";
import { sendJsonRpcError } from "./jsonrpc-response.js";
import { LegacySessionStore, type LegacySession } from "./legacy-sessions.js";
import { createSdkServer } from "../host/protocol/sdk-server.js";
import { parseSelection } from "../host/selection.js";
import { requestScope, scopeOf, type RequestScope } from "./request-scope.js";

interface KeyEntry {
  key: string;
  active: ReadonlySet<string>;
  modern: McpHttpHandler;
}

/** What serving a host needs to shut down cleanly. */
export interface SelectionServing {
  readonly sessions: LegacySessionStore;
  close(): Promise<void>;
}

const MODERN_VERSION_KEY = "io.modelcontextprotocol/protocolVersion";

/**
 * A cheap first look on the per-request path: a request that names a 2026 protocol version (header or envelope)
 * is modern and skips the SDK's full classification, which copies the request. Anything else is classified by
 * the SDK (`isLegacyRequest`), so this can only ever save work, never change a verdict's rules for legacy traffic.
 */
function looksModern(req: IncomingMessage, body: unknown): boolean {
  const version = header(req, "mcp-protocol-version");
  if (version !== undefined && version >= "2026-") return true;
  const meta = (body as { params?: { _meta?: Record<string, unknown> } } | undefined)?.params?._meta;
  const enveloped = meta?.[MODERN_VERSION_KEY];
  return typeof enveloped === "string" && enveloped >= "2026-";
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Makes `host` serve every selection over HTTP in both eras. Call once per host, before serving.
 * @example
 * const serving = serveSelections(host, { legacy: "stateful" }); … await serving.close();
 */
export function serveSelections(host: McpHost, options: LegacyServingOptions = {}): SelectionServing {
  const legacy = options.legacy ?? "stateful";
  const logger = host.logger.child("http");
  const sessions = new LegacySessionStore(options.sessionIdleTtlMs ?? 30 * 60_000, options.maxSessions ?? 10_000, logger);
  const entries = new Map<string, KeyEntry>();
  const maxRequestBodySize = options.maxBodyBytes ?? 4 * 1024 * 1024;

  const fallbackScope = (ctx: McpRequestContext): RequestScope => {
    const url = ctx.requestInfo ? new URL(ctx.requestInfo.url) : undefined;
    return { ...host.activeFor(parseSelection(url?.search ?? "")), ...(ctx.authInfo ? { authInfo: ctx.authInfo } : {}) };
  };

  const modernFor = (key: string): McpHttpHandler =>
    createMcpHandler(
      async (ctx) => {
        const scope = requestScope.getStore() ?? fallbackScope(ctx);
        const built = await host.buildActive(scope.active);
        const authInfo = ctx.authInfo ?? scope.authInfo;
        return createSdkServer(built.core, { era: ctx.era, selection: { active: scope.active, unknown: scope.unknown }, ...(authInfo ? { authInfo } : {}) });
      },
      {
        legacy: legacy === "stateless" ? "stateless" : "reject",
        maxRequestBodySize,
        onerror: (error) => logger.debug(`selection "${key}": ${error.message}`),
      },
    );

  async function openSession(req: IncomingMessage, res: ServerResponse, key: string, scope: RequestScope): Promise<void> {
    if (sessions.size >= sessions.maxSessions) {
      logger.warn(`legacy session limit (${sessions.maxSessions}) reached; refusing a new session`, { code: "HTTP_SESSION_LIMIT" });
      sendJsonRpcError(res, 503, -32000, `Too many sessions: this server holds at most ${sessions.maxSessions} legacy (2025) sessions. End unused ones with DELETE, or retry later.`, { "retry-after": "30" });
      return;
    }
    const built = await host.buildActive(scope.active);
    const subscriptions = new Set<string>();
    let session: LegacySession | undefined;
    const transport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      maxRequestBodySize,
      onsessioninitialized: (id) => {
        session = { id, key, active: scope.active, unknown: scope.unknown, transport, server, core: built.core, stale: false, lastSeen: Date.now(), subscriptions };
        sessions.add(session);
      },
      onsessionclosed: (id) => sessions.remove(id),
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.remove(transport.sessionId);
    };
    const server = createSdkServer(() => session?.core ?? built.core, {
      era: "legacy",
      selection: { active: scope.active, unknown: scope.unknown },
      subscriptions,
      ...(scope.authInfo ? { authInfo: scope.authInfo } : {}),
    });
    await server.connect(transport);
    await transport.handleRequest(req as never, res, (req as { body?: unknown }).body);
    // An initialize the transport refused (malformed, wrong version…) made no session: nothing may linger.
    if (!session) {
      await transport.close().catch(() => {});
      await server.close().catch(() => {});
    }
  }

  async function serveLegacy(req: IncomingMessage, res: ServerResponse, key: string, scope: RequestScope): Promise<boolean> {
    const sessionId = header(req, "mcp-session-id");
    if (sessionId !== undefined) {
      const session = sessions.get(sessionId);
      if (!session) {
        sendJsonRpcError(res, 404, -32001, "Session not found: it ended or expired. Start a new session with initialize (without an Mcp-Session-Id header).");
        return true;
      }
      if (session.key !== key) {
        sendJsonRpcError(res, 400, -32000, "This session was started on another selection of toolsets; use the URL it was started on, or start a new session.");
        return true;
      }
      session.lastSeen = Date.now();
      if (session.stale) {
        session.stale = false;
        session.core = (await host.buildActive(session.active)).core;
      }
      await session.transport.handleRequest(req as never, res, (req as { body?: unknown }).body);
      return true;
    }
    if (req.method !== "POST") return false;
    const body = (req as { body?: unknown }).body;
    if (looksModern(req, body)) return false;
    if (!(await isLegacyRequest(await toWebRequest(req as never, body), body, { maxRequestBodySize }))) return false;
    if (isInitializeRequest(body)) {
      await openSession(req, res, key, scope);
      return true;
    }
    sendJsonRpcError(res, 400, -32000, "Bad Request: no session. A 2025-era client must start with initialize; send Mcp-Session-Id on later requests.");
    return true;
  }

  const handlerFor = (_host: McpHost, key: string): NodeHandler => {
    const active = new Set(key ? key.split(",") : []);
    const entry: KeyEntry = { key, active, modern: modernFor(key) };
    entries.set(key, entry);
    const modernNode = toNodeHandler(entry.modern);
    return async (req, res) => {
      const scope = scopeOf(req) ?? { active: [...active], unknown: [] };
      if (legacy === "stateful" && (await serveLegacy(req, res, key, scope))) return;
      if (req.method === "GET" || req.method === "DELETE") {
        if (legacy !== "stateless") {
          sendJsonRpcError(res, 405, -32000, `Method not allowed: ${req.method} needs a 2025-era session (Mcp-Session-Id); the 2026-07-28 protocol uses POST only.`, { allow: "POST" });
          return;
        }
      }
      await requestScope.run(scope, () => modernNode(req as never, res as never, (req as { body?: unknown }).body));
    };
  };

  const onChange = (change: OfferChange) => {
    const touched = change.toolsets ? new Set(change.toolsets) : undefined;
    const affects = (active: Iterable<string>) => !touched || [...active].some((t) => touched.has(t));
    for (const entry of entries.values()) {
      if (!affects(entry.active)) continue;
      entry.modern.notify.toolsChanged();
      entry.modern.notify.promptsChanged();
      entry.modern.notify.resourcesChanged();
    }
    for (const session of sessions.all()) {
      if (!affects(session.active)) continue;
      session.stale = true;
      void Promise.allSettled([session.server.sendToolListChanged(), session.server.sendPromptListChanged(), session.server.sendResourceListChanged()]);
    }
  };
  const onResource = (uri: string) => {
    for (const entry of entries.values()) entry.modern.notify.resourceUpdated(uri);
    for (const session of sessions.all()) {
      if (session.subscriptions.has(uri)) void session.server.sendResourceUpdated({ uri }).catch(() => {});
    }
  };
  const stopChanges = host.onOfferChange(onChange);
  const stopResources = host.onResourceUpdated(onResource);
  host.setHandlerFactory(handlerFor);

  return {
    sessions,
    close: async () => {
      stopChanges();
      stopResources();
      await sessions.closeAll();
      await Promise.all([...entries.values()].map((e) => e.modern.close()));
    },
  };
}
