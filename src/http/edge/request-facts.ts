/**
 * What is known about one request, in one object (docs/design.md §8): the edge starts it (id, selection), the
 * selection's server adds to it as its checks pass (the verified caller, the toolsets it may reach, the build it is
 * served by, the body), and everything after reads it — the MCP serving, the SDK's server factory, the access line.
 * It travels one way: a node request and the web `Request` made from it both carry the same object under one symbol,
 * so `factsOf` reaches it from whichever request is in hand.
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { AuthInfo } from "@modelcontextprotocol/server";
import type { BuildCore } from "../../host/build/compiled-build.js";
import type { SelectionPlan } from "../../host/build/selection-plan.js";
import type { Selection } from "../../host/selection.js";
import type { VerifiedCaller } from "../auth/verified-caller.js";
import { clientAddressOf, clientProtocolOf, TRUST_NONE, type TrustProxy } from "./client-address.js";

const FACTS = Symbol.for("mcp-host.requestFacts");

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/** The first value of a request header. */
export function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

export class RequestFacts {
  /** When the edge first saw it (performance.now()). */
  readonly startedAt = performance.now();
  /** The selection as the URL (else `X-MCP-Toolsets`, else the default) names it: read once, by the edge. */
  selection: Selection | undefined;
  /** The toolsets the caller's own query or header named (not the deployment's default). */
  named: readonly string[] = [];
  /** What the selection asks for (the build's identity, unknown names), before the caller's permissions narrow it. */
  plan: SelectionPlan | undefined;
  /** True when the edge chose `built` for this caller (its plan narrowed by the caller's permissions). */
  routed = false;
  /** The deployment's CORS ran (the edge runs it before the token, with auth on). */
  corsApplied = false;
  /** The caller's rate was checked (the edge checks it before building, with auth on). */
  rated = false;
  /** The build that serves it, once known (after the caller's permissions narrowed it). */
  built: BuildCore | undefined;
  /** The names the selection used that nobody declared (or the caller may not reach). */
  unknown: readonly string[] = [];
  /** The build key of the selection before the caller's permissions narrowed it: a legacy session belongs to that URL. */
  requested: string | undefined;
  /** The verified caller (with auth on). */
  caller: VerifiedCaller | undefined;
  /** The caller's facts as handlers see them, token removed. */
  authInfo: AuthInfo | undefined;
  /** The declared toolsets the caller may reach (with toolset permissions). */
  permitted: readonly string[] | undefined;
  /** The parsed body (undefined until read, or when empty). */
  body: unknown = undefined;
  bodyRead = false;
  /** A long-lived stream (a legacy GET stream, `subscriptions/listen`): kept out of latency and drain counts. */
  stream = false;
  /** Which peers may say who the client is (`http.trustProxy`): set by the app before anything reads `client`. */
  trust: TrustProxy = TRUST_NONE;
  private clientAddress: string | undefined;
  private requestId: string | undefined;
  private readonly req: IncomingMessage;

  constructor(req: IncomingMessage) {
    this.req = req;
  }

  /**
   * The request's id: a well-formed `X-Request-Id` it came with (a proxy's), else a new one — made on first use, so a
   * deployment that logs nothing about its requests never makes one.
   */
  get id(): string {
    if (this.requestId === undefined) {
      const given = header(this.req, "x-request-id");
      this.requestId = given !== undefined && REQUEST_ID.test(given) ? given : randomUUID();
    }
    return this.requestId;
  }

  /** The caller's address (client-address.ts): the socket peer, or behind a trusted proxy the client; computed once. */
  get client(): string {
    this.clientAddress ??= clientAddressOf(this.req, this.trust);
    return this.clientAddress;
  }

  /** The scheme the client used (`X-Forwarded-Proto` or `Forwarded` only from a trusted proxy). */
  get protocol(): "http" | "https" {
    return clientProtocolOf(this.req, this.trust);
  }

  /** Who the caller is for legacy-session binding: the verified subject, else what the SDK's `req.auth` names. */
  get subject(): string | undefined {
    if (this.caller !== undefined) return this.caller.subject;
    const auth = this.authInfo;
    if (auth === undefined) return undefined;
    const subject = auth.extra?.subject;
    return typeof subject === "string" && subject.length > 0 ? subject : auth.clientId;
  }
}

/**
 * The facts of a request (node or web), made on first use: a request that reached a selection's server without the
 * edge (a BuiltServer's `server` mounted elsewhere) still gets one.
 * @example
 * const facts = factsOf(req); facts.caller?.subject;
 */
export function factsOf(req: IncomingMessage): RequestFacts {
  const carrier = req as unknown as { [FACTS]?: RequestFacts };
  let facts = carrier[FACTS];
  if (facts === undefined) {
    facts = new RequestFacts(req);
    carrier[FACTS] = facts;
  }
  return facts;
}

/** The facts a request carries, if any (a web `Request` the serving layer made carries its node request's). */
export function carriedFacts(request: object | undefined): RequestFacts | undefined {
  return (request as { [FACTS]?: RequestFacts } | undefined)?.[FACTS];
}

/** Makes `target` (a web `Request` made from the node request) carry the same facts. */
export function carryFacts(target: object, facts: RequestFacts): void {
  (target as { [FACTS]?: RequestFacts })[FACTS] = facts;
}
