/**
 * Serving the 2025 era over HTTP with sessions (docs/design.md §8, `http.legacy: stateful`): an `initialize` opens a
 * session bound to its selection's build; later requests carry `Mcp-Session-Id` and reach that session's
 * transport. A session that belongs to another selection, an unknown session, or a request without one gets a
 * JSON-RPC error that says what to do. A session opened with a verified token is bound to its subject: another
 * caller's request on it is answered as for an unknown session (MCP guidance on session hijacking), and runs nothing.
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { NodeStreamableHTTPServerTransport, toWebRequest } from "@modelcontextprotocol/node";
import { isInitializeRequest, isLegacyRequest } from "@modelcontextprotocol/server";
import type { Logger } from "../logger.js";
import { createSdkServer } from "../host/protocol/sdk-server.js";
import type { HostServing } from "../host/serving-port.js";
import { bodyOf, header, looksModern } from "./era-sniff.js";
import { sendJsonRpcError } from "./jsonrpc-response.js";
import type { LegacySession, LegacySessionStore } from "./legacy-sessions.js";
import type { RequestScope } from "./request-scope.js";
import { callerKeyOf } from "./caller-limits.js";
import { SessionSubscriptions, type SubscriptionLimits } from "../host/protocol/subscriptions.js";

/** What legacy serving shares across selections. */
export interface LegacyServing {
  sessions: LegacySessionStore;
  serving: HostServing;
  logger: Logger;
  maxBodyBytes: number;
  /** What one session may follow with `resources/subscribe`. */
  subscriptionLimits: SubscriptionLimits;
}

async function openSession(ctx: LegacyServing, req: IncomingMessage, res: ServerResponse, key: string, scope: RequestScope): Promise<void> {
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
  const caller = callerKeyOf(req);
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
  const { compiled, unknown } = scope;
  const subscriptions = new SessionSubscriptions(ctx.subscriptionLimits);
  let session: LegacySession | undefined;
  const transport = new NodeStreamableHTTPServerTransport({
    sessionIdGenerator: () => randomUUID(),
    maxRequestBodySize: ctx.maxBodyBytes,
    onsessioninitialized: (id) => {
      session = {
        id,
        toolsets: compiled.toolsets,
        selection: key,
        ...(scope.subject === undefined ? {} : { subject: scope.subject }),
        unknown,
        caller,
        transport,
        server,
        protocol: compiled.protocol,
        stale: false,
        lastSeen: sessions.clock.now(),
        subscriptions,
        streams: new Map(),
      };
      sessions.add(session);
    },
    onsessionclosed: (id) => sessions.remove(id),
  });
  transport.onclose = () => {
    if (transport.sessionId) sessions.remove(transport.sessionId);
  };
  const server = createSdkServer(() => session?.protocol ?? compiled.protocol, {
    era: "legacy",
    selection: { active: compiled.toolsets, unknown, ...(scope.permitted === undefined ? {} : { permitted: scope.permitted }) },
    subscriptions,
    ...(scope.authInfo ? { authInfo: scope.authInfo } : {}),
  });
  await server.connect(transport);
  await transport.handleRequest(req as never, res, bodyOf(req));
  // An initialize the transport refused (malformed, wrong version…) made no session: nothing may linger.
  if (!session) {
    await transport.close().catch(() => {});
    await server.close().catch(() => {});
  }
}

const SESSION_NOT_FOUND = "Session not found: it ended or expired. Start a new session with initialize (without an Mcp-Session-Id header).";

async function continueSession(
  ctx: LegacyServing,
  req: IncomingMessage,
  res: ServerResponse,
  key: string,
  sessionId: string,
  subject: string | undefined,
): Promise<void> {
  const session = ctx.sessions.get(sessionId);
  if (!session) {
    sendJsonRpcError(res, 404, -32001, SESSION_NOT_FOUND);
    return;
  }
  if (session.subject !== subject) {
    // The same answer as for a session that does not exist: a stolen id tells its holder nothing.
    ctx.logger.warn("a legacy session was presented by a caller other than the one that opened it; refused", {
      session: session.id.slice(0, 8),
      method: req.method ?? "",
    });
    sendJsonRpcError(res, 404, -32001, SESSION_NOT_FOUND);
    return;
  }
  if (session.selection !== key) {
    sendJsonRpcError(res, 400, -32000, "This session was started on another selection of toolsets; use the URL it was started on, or start a new session.");
    return;
  }
  ctx.sessions.touch(session);
  if (req.method === "GET") ctx.sessions.openStream(session, res);
  if (session.stale) {
    session.stale = false;
    session.protocol = (await ctx.serving.compiled(session.toolsets)).protocol;
  }
  await session.transport.handleRequest(req as never, res, bodyOf(req));
}

/**
 * Serves the request if it belongs to the 2025 era with sessions; returns false when it is for the modern path.
 * @example
 * if (await serveLegacy(ctx, req, res, "time,text", scope)) return;
 */
export async function serveLegacy(ctx: LegacyServing, req: IncomingMessage, res: ServerResponse, endpointKey: string, scope: RequestScope): Promise<boolean> {
  const key = scope.requested ?? endpointKey;
  const sessionId = header(req, "mcp-session-id");
  if (sessionId !== undefined) {
    await continueSession(ctx, req, res, key, sessionId, scope.subject);
    return true;
  }
  if (req.method !== "POST") return false;
  const body = bodyOf(req);
  if (looksModern(req, body)) return false;
  if (!(await isLegacyRequest(await toWebRequest(req as never, body), body, { maxRequestBodySize: ctx.maxBodyBytes }))) return false;
  if (isInitializeRequest(body)) {
    await openSession(ctx, req, res, key, scope);
    return true;
  }
  sendJsonRpcError(res, 400, -32000, "Bad Request: no session. A 2025-era client must start with initialize; send Mcp-Session-Id on later requests.");
  return true;
}
