/**
 * The bearer-token gate in front of an MCP endpoint. It reads the token only from `Authorization: Bearer`, verifies
 * it, answers failures with RFC 6750 challenges that point at the RFC 9728 metadata for this very URL (query kept),
 * and on success records the verified caller in the request's facts (one place: `callerOf(req)` reads it there)
 * and, for express middleware behind it, the SDK's `req.auth`. `bearerGate` is the step itself, for the selection's
 * server; `bearerAuth` is the same step as express middleware.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { NextFunction, Request, RequestHandler, Response } from "express";
import type { AuthInfo } from "@modelcontextprotocol/server";
import { isMcpHostError, messageOf, type McpHostErrorCode } from "../../errors.js";
import { silentLogger, type Logger } from "../../logger.js";
import { bearerTokenOf, DEFAULT_MAX_AUTHORIZATION_BYTES } from "./bearer-token.js";
import { authFailureResponse, writeAuthFailure } from "./challenge.js";
import { authConfigError, insufficientScope, missingScopes } from "./refusals.js";
import { protectedResourceMetadataUrl, publicBaseUrlOf, type AuthRequest } from "./resource-url.js";
import { toAuthInfo, type TokenVerifier, type VerifiedCaller } from "./verified-caller.js";
import { carriedFacts, factsOf } from "../edge/request-facts.js";
import { defined } from "../../defined.js";

export interface BearerAuthOptions {
  verifier: TokenVerifier;
  /**
   * The RFC 9728 metadata URL for a request (default: `protectedResourceMetadataUrl(req, { publicBaseUrl })`);
   * undefined leaves `resource_metadata` out of the challenge (no metadata is published).
   */
  resourceMetadataUrl?: (req: AuthRequest) => string | undefined;
  /** The public origin clients use, when behind a proxy (used by the default resourceMetadataUrl). */
  publicBaseUrl?: string | URL;
  /** Scopes every request must carry, on top of the verifier's own. */
  requiredScopes?: string[];
  logger?: Logger;
  /** Authorization headers longer than this are refused with 400 (default 8192 bytes). */
  maxHeaderBytes?: number;
  /** The Retry-After of a 503 when verification is unavailable (default 10 s). */
  retryAfterSeconds?: number;
}

/**
 * The caller the bearer gate verified for this request, or undefined when it did not run or refused.
 * @example
 * app.post("/mcp", bearerAuth({ verifier }), (req, res) => res.json({ who: callerOf(req)?.subject }));
 */
export function callerOf(req: object): VerifiedCaller | undefined {
  return carriedFacts(req)?.caller;
}

const LOG_LEVEL: Partial<Record<McpHostErrorCode, keyof Omit<Logger, "child">>> = {
  AUTH_TOKEN_MISSING: "debug",
  AUTH_TOKEN_INVALID: "info",
  AUTH_INSUFFICIENT_SCOPE: "info",
  AUTH_BAD_REQUEST: "info",
  AUTH_UNAVAILABLE: "warn",
};

function redact(text: string, token: string | undefined): string {
  return token === undefined || token.length === 0 ? text : text.split(token).join("[token]");
}

/**
 * The gate itself: true when the request carries a valid token (its caller and `authInfo`, token removed, are then in
 * the request's facts), false when it was answered (400/401/403/503).
 */
export type BearerGate = (req: IncomingMessage, res: ServerResponse) => Promise<boolean>;

/**
 * Middleware that lets a request through only with a valid bearer token.
 * @example
 * app.all("/mcp", bearerAuth({ verifier: jwtVerifier({ issuer, audience, jwksUri }), logger }), mcpHandler);
 */
export function bearerAuth(options: BearerAuthOptions): RequestHandler {
  const verify = tokenCheck(options);
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const verified = await verify(req, res);
    if (verified === undefined) return;
    // The SDK's own seam, for handlers of the SDK's kind behind this one: its AuthInfo, token included, as the SDK's
    // requireBearerAuth sets it. (mcp-host's own serving never reads it: its handlers see the caller without it.)
    (req as Request & { auth?: AuthInfo }).auth = toAuthInfo(
      verified.caller,
      verified.token,
      verified.resourceMetadataUrl === undefined ? {} : { resourceMetadataUrl: verified.resourceMetadataUrl },
    );
    next();
  };
}

/**
 * The bearer gate as a step: verifies, records the caller in the request's facts, or answers the refusal.
 * @example
 * const gate = bearerGate({ verifier }); if (!(await gate(req, res))) return;
 */
export function bearerGate(options: BearerAuthOptions): BearerGate {
  const verify = tokenCheck(options);
  return async (req, res) => (await verify(req, res)) !== undefined;
}

/** A verified token: its caller (also in the request's facts), the token itself, and the metadata URL named. */
interface Verified {
  caller: VerifiedCaller;
  token: string;
  resourceMetadataUrl: string | undefined;
}

/** The check both faces share: verify, record the caller in the facts, or answer the refusal (undefined then). */
function tokenCheck(options: BearerAuthOptions): (req: AuthRequest, res: ServerResponse) => Promise<Verified | undefined> {
  const verifier = options?.verifier;
  if (verifier === undefined || typeof verifier.verify !== "function")
    throw authConfigError("bearerAuth: `verifier` is required (jwtVerifier, introspectionVerifier or customVerifier)");
  const base = options.publicBaseUrl === undefined ? undefined : publicBaseUrlOf(options.publicBaseUrl, "bearerAuth");
  const metadataUrlOf = options.resourceMetadataUrl ?? ((req: AuthRequest) => protectedResourceMetadataUrl(req, defined({ publicBaseUrl: base })));
  const requiredScopes = [...(options.requiredScopes ?? [])];
  const challengeScopes = [...new Set([...verifier.requiredScopes, ...requiredScopes])];
  const logger = options.logger ?? silentLogger;
  const maxBytes = options.maxHeaderBytes ?? DEFAULT_MAX_AUTHORIZATION_BYTES;

  const metadataUrlIfAny = (req: AuthRequest): string | undefined => {
    try {
      return metadataUrlOf(req);
    } catch {
      return undefined;
    }
  };

  const refuse = (req: AuthRequest, res: ServerResponse, error: unknown, token: string | undefined): void => {
    let resourceMetadataUrl: string | undefined;
    let answerWith = error;
    if (!isMcpHostError(error, "AUTH_BAD_REQUEST")) {
      try {
        resourceMetadataUrl = metadataUrlOf(req);
      } catch (urlError) {
        answerWith = urlError;
      }
    }
    const answer = authFailureResponse(answerWith, {
      ...defined({ resourceMetadataUrl }),
      scopes: challengeScopes,
      ...defined({ retryAfterSeconds: options.retryAfterSeconds }),
    });
    const code = isMcpHostError(answerWith) ? answerWith.code : undefined;
    const level = (code === undefined ? undefined : LOG_LEVEL[code]) ?? "error";
    logger[level]("bearer token refused", {
      ...(code === undefined ? { failure: "internal" } : { code }),
      status: answer.status,
      reason: redact(messageOf(answerWith), token),
      verifier: verifier.kind,
      method: req.method,
      path: pathOf(req),
    });
    writeAuthFailure(res, answer);
  };

  return async (req: AuthRequest, res: ServerResponse): Promise<Verified | undefined> => {
    let token: string | undefined;
    try {
      token = bearerTokenOf(req, { maxBytes });
      const caller = await verifier.verify(token);
      const missing = missingScopes(requiredScopes, caller.scopes);
      if (missing.length > 0) throw insufficientScope(missing);
      const resourceMetadataUrl = metadataUrlIfAny(req);
      const facts = factsOf(req);
      facts.caller = caller;
      // What handlers and the SDK see of the caller: never the token itself.
      facts.authInfo = toAuthInfo(caller, "", defined({ resourceMetadataUrl }));
      logger.debug("bearer token accepted", { subject: caller.subject, clientId: caller.clientId, verifier: verifier.kind, path: pathOf(req) });
      return { caller, token, resourceMetadataUrl };
    } catch (error) {
      refuse(req, res, error, token);
      return undefined;
    }
  };
}

/** The path of a request's target, without its query. */
function pathOf(req: IncomingMessage): string {
  const url = req.url ?? "/";
  const at = url.indexOf("?");
  return at < 0 ? url : url.slice(0, at);
}
