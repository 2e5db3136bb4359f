/**
 * Serving the 2025 era over HTTP with sessions (docs/design.md §8, `http.legacy: stateful`): an `initialize` opens a
 * session bound to its selection's build; later requests carry `Mcp-Session-Id` and reach that session's
 * transport — the SDK's web-standard one, handed each request through the one exchange every MCP request takes
 * (web-exchange.ts). A session that belongs to another selection, an unknown session, or a request without one gets
 * a JSON-RPC error that says what to do. A session opened with a verified token is bound to its subject: another
 * caller's request on it is answered as for an unknown session (MCP guidance on session hijacking), and runs nothing.
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { classifyInboundRequest, isInitializeRequest, WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/server";
import type { Logger } from "../../logger.js";
import type { BuildCore } from "../../host/build/compiled-build.js";
import { toolsetsBehind } from "../../host/build/build-id.js";
import { createSdkServer } from "../../host/protocol/sdk-server.js";
import { SessionSubscriptions, type SubscriptionLimits } from "../../host/protocol/subscriptions.js";
import type { HostServing } from "../../host/serving-port.js";
import { header, type RequestFacts } from "../edge/request-facts.js";
import { sendJsonRpcError } from "../edge/jsonrpc-response.js";
import { callerKeyOf } from "./caller-limits.js";
import { looksModern } from "../edge/era-sniff.js";
import type { LegacySession, LegacySessionStore } from "./legacy-sessions.js";
import { webRequestOf, writeWebResponse } from "./web-exchange.js";
import { defined } from "../../defined.js";

/** What legacy serving shares across selections. */
export interface LegacyServing {
  sessions: LegacySessionStore;
  serving: HostServing;
  logger: Logger;
  /** What one session may follow with `resources/subscribe`. */
  subscriptionLimits: SubscriptionLimits;
  /** A new session's id: `<instanceId>.<uuid>` in a fleet (so a proxy can route it back), else a UUID. */
  newSessionId: () => string;
  /** In a fleet: this instance's name, and the events a session follows while it lives (with Redis). */
  fleet?: { instanceId: string; events?: FleetFollowing; misrouted: Set<string> };
}

/** What a session follows on the fleet's channels (fleet-events.ts). */
export interface FleetFollowing {
  followOffers(toolsets: readonly string[]): () => void;
  followResource(uri: string): () => void;
}

/**
 * The ids of 2025-era sessions. In a fleet an id starts with the instance's name and a dot: a proxy reads the prefix of
 * `Mcp-Session-Id` and sends the request to the instance that holds the session, from the first request after
 * `initialize` on (docs/scale-out.md).
 * @example
 * sessionIdsFor("mcp-a")() // "mcp-a.0b9e…"
 */
export function sessionIdsFor(instanceId: string | undefined): () => string {
  return instanceId === undefined ? () => randomUUID() : () => `${instanceId}.${randomUUID()}`;
}

/**
 * True when the SDK's entry would route this POST to its 2025-era serving: the SDK's own classifier on the parsed
 * body and the standard headers (what `isLegacyRequest` runs), or a body that is no JSON at all.
 */
function isLegacyClassified(req: IncomingMessage, body: unknown): boolean {
  if (body === undefined) return true;
  const protocolVersionHeader = header(req, "mcp-protocol-version");
  const mcpMethodHeader = header(req, "mcp-method");
  const mcpNameHeader = header(req, "mcp-name");
  return (
    classifyInboundRequest({
      httpMethod: "POST",
      ...defined({ protocolVersionHeader, mcpMethodHeader, mcpNameHeader }),
      body,
    }).kind === "legacy"
  );
}

/** Hands the request to a session's transport and writes its answer. */
async function exchange(transport: WebStandardStreamableHTTPServerTransport, facts: RequestFacts, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const response = await transport.handleRequest(webRequestOf(req, res, facts), {
    ...defined({ parsedBody: facts.body, authInfo: facts.authInfo }),
  });
  await writeWebResponse(res, response);
}

async function openSession(ctx: LegacyServing, facts: RequestFacts, req: IncomingMessage, res: ServerResponse, key: string, build: BuildCore): Promise<void> {
  const { sessions } = ctx;
  if (sessions.size >= sessions.maxSessions) {
    ctx.logger.warn(`legacy session limit (${sessions.maxSessions}) reached; refusing a new session`, { code: "HTTP_SESSION_LIMIT" });
    sendJsonRpcError(
      res,
      503,
      -32000,
      `Too many sessions: this server holds at most ${sessions.maxSessions} legacy (2025) sessions. End unused ones with DELETE, or retry later.`,
      { "retry-after": "30" },
    );
    return;
  }
  const caller = callerKeyOf(req, facts);
  if (sessions.heldBy(caller) >= sessions.maxSessionsPerCaller) {
    ctx.logger.info(`a caller holds ${sessions.maxSessionsPerCaller} legacy sessions already; refusing another`, { code: "HTTP_SESSION_LIMIT" });
    sendJsonRpcError(
      res,
      429,
      -32000,
      `Too many sessions for this caller: one caller may hold ${sessions.maxSessionsPerCaller} legacy (2025) sessions at once (http.maxSessionsPerCaller). End unused ones with DELETE, or retry later.`,
      { "retry-after": "30" },
    );
    return;
  }
  const unknown = facts.unknown;
  const events = ctx.fleet?.events;
  const subscriptions = new SessionSubscriptions(ctx.subscriptionLimits, events === undefined ? undefined : (uri) => events.followResource(uri));
  const subject = facts.subject;
  let session: LegacySession | undefined;
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: ctx.newSessionId,
    onsessioninitialized: (id) => {
      const offers = events?.followOffers(toolsetsBehind(build.id));
      session = {
        id,
        served: build.id,
        requested: key,
        ...defined({ subject }),
        unknown,
        caller,
        transport,
        server,
        protocol: build.protocol,
        stale: false,
        lastSeen: sessions.clock.now(),
        subscriptions,
        streams: new Map(),
        unfollow: () => {
          offers?.();
          subscriptions.clear();
        },
      };
      sessions.add(session);
    },
    onsessionclosed: (id) => sessions.remove(id),
  });
  transport.onclose = () => {
    if (transport.sessionId) sessions.remove(transport.sessionId);
  };
  const server = createSdkServer(() => session?.protocol ?? build.protocol, {
    era: "legacy",
    selection: { active: build.toolsets, unknown, ...defined({ permitted: facts.permitted }) },
    subscriptions,
    ...(facts.authInfo ? { authInfo: facts.authInfo } : {}),
  });
  await server.connect(transport);
  await exchange(transport, facts, req, res);
  // An initialize the transport refused (malformed, wrong version…) made no session: nothing may linger.
  if (!session) {
    await transport.close().catch(() => {});
    await server.close().catch(() => {});
  }
}

/** Says so (once per instance name: a misrouting proxy would otherwise log every request) when an unknown session names another instance: the proxy does not route by it. */
function misrouted(ctx: LegacyServing, sessionId: string): void {
  const at = sessionId.indexOf(".");
  const owner = at > 0 ? sessionId.slice(0, at) : undefined;
  if (ctx.fleet === undefined || owner === undefined || owner === ctx.fleet.instanceId || !/^[A-Za-z0-9_-]{1,64}$/.test(owner)) return;
  const reported = ctx.fleet.misrouted;
  if (reported.has(owner) || reported.size >= 256) return;
  reported.add(owner);
  ctx.logger.warn(
    `a 2025-era session of instance "${owner}" reached instance "${ctx.fleet.instanceId}": answered 404 (the client starts a new session). Either "${owner}" is gone, or the proxy in front does not route Mcp-Session-Id by its instance prefix (docs/scale-out.md)`,
  );
}

const SESSION_NOT_FOUND = "Session not found: it ended or expired. Start a new session with initialize (without an Mcp-Session-Id header).";

async function continueSession(
  ctx: LegacyServing,
  facts: RequestFacts,
  req: IncomingMessage,
  res: ServerResponse,
  key: string,
  sessionId: string,
): Promise<void> {
  const session = ctx.sessions.get(sessionId);
  if (!session) {
    misrouted(ctx, sessionId);
    sendJsonRpcError(res, 404, -32001, SESSION_NOT_FOUND);
    return;
  }
  if (session.subject !== facts.subject) {
    // The same answer as for a session that does not exist: a stolen id tells its holder nothing.
    ctx.logger.warn("a legacy session was presented by a caller other than the one that opened it; refused", {
      session: session.id.slice(0, 8),
      method: req.method ?? "",
    });
    sendJsonRpcError(res, 404, -32001, SESSION_NOT_FOUND);
    return;
  }
  if (session.requested !== key) {
    sendJsonRpcError(res, 400, -32000, "This session was started on another selection of toolsets; use the URL it was started on, or start a new session.");
    return;
  }
  ctx.sessions.touch(session);
  if (req.method === "GET") {
    facts.stream = true;
    ctx.sessions.openStream(session, res);
  }
  if (session.stale) {
    session.stale = false;
    session.protocol = (await ctx.serving.compiled(session.served)).protocol;
  }
  await exchange(session.transport, facts, req, res);
}

/**
 * Serves the request if it belongs to the 2025 era with sessions (a promise while it does); false at once when it is
 * for the modern path, which then pays for no promise here.
 * @example
 * const legacy = serveLegacy(ctx, facts, req, res, "time,text", build); if (legacy !== false) return void (await legacy);
 */
export function serveLegacy(
  ctx: LegacyServing,
  facts: RequestFacts,
  req: IncomingMessage,
  res: ServerResponse,
  endpointKey: string,
  build: BuildCore,
): boolean | Promise<true> {
  const key = facts.requested ?? endpointKey;
  const sessionId = header(req, "mcp-session-id");
  if (sessionId !== undefined) return continueSession(ctx, facts, req, res, key, sessionId).then(() => true);
  if (req.method !== "POST") return false;
  const body = facts.body;
  if (looksModern(req, body)) return false;
  if (!isLegacyClassified(req, body)) return false;
  if (isInitializeRequest(body)) return openSession(ctx, facts, req, res, key, build).then(() => true);
  sendJsonRpcError(res, 400, -32000, "Bad Request: no session. A 2025-era client must start with initialize; send Mcp-Session-Id on later requests.");
  return true;
}
