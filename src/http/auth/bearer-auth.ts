/**
 * The bearer-token gate in front of an MCP endpoint (express 5 / node-style middleware). It reads the token only
 * from `Authorization: Bearer`, verifies it, answers failures with RFC 6750 challenges that point at the RFC 9728
 * metadata for this very URL (query kept), and on success sets the SDK's `req.auth` and our VerifiedCaller.
 */
import type { NextFunction, Request, RequestHandler, Response } from "express";
import type { AuthInfo } from "@modelcontextprotocol/server";
import { isMcpHostError, messageOf, type McpHostErrorCode } from "../../errors.js";
import { silentLogger, type Logger } from "../../logger.js";
import { bearerTokenOf, DEFAULT_MAX_AUTHORIZATION_BYTES } from "./bearer-token.js";
import { authFailureResponse, writeAuthFailure } from "./challenge.js";
import { authConfigError, insufficientScope, missingScopes } from "./refusals.js";
import { protectedResourceMetadataUrl, publicBaseUrlOf, type AuthRequest } from "./resource-url.js";
import { toAuthInfo, type TokenVerifier, type VerifiedCaller } from "./verified-caller.js";

export interface BearerAuthOptions {
  verifier: TokenVerifier;
  /**
   * The RFC 9728 metadata URL for a request (default: `protectedResourceMetadataUrl(req, { publicBaseUrl })`);
   * undefined leaves `resource_metadata` out of the challenge (no metadata is published).
   */
  resourceMetadataUrl?: (req: Request) => string | undefined;
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

const callers = new WeakMap<object, VerifiedCaller>();

/**
 * The caller bearerAuth verified for this request, or undefined when it did not run or refused.
 * @example
 * app.post("/mcp", bearerAuth({ verifier }), (req, res) => res.json({ who: callerOf(req)?.subject }));
 */
export function callerOf(req: object): VerifiedCaller | undefined {
  return callers.get(req);
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
 * Middleware that lets a request through only with a valid bearer token.
 * @example
 * app.all("/mcp", bearerAuth({ verifier: jwtVerifier({ issuer, audience, jwksUri }), logger }), mcpHandler);
 */
export function bearerAuth(options: BearerAuthOptions): RequestHandler {
  const verifier = options?.verifier;
  if (verifier === undefined || typeof verifier.verify !== "function")
    throw authConfigError("bearerAuth: `verifier` is required (jwtVerifier, introspectionVerifier or customVerifier)");
  const base = options.publicBaseUrl === undefined ? undefined : publicBaseUrlOf(options.publicBaseUrl, "bearerAuth");
  const metadataUrlOf =
    options.resourceMetadataUrl ?? ((req: Request) => protectedResourceMetadataUrl(req as AuthRequest, base === undefined ? {} : { publicBaseUrl: base }));
  const requiredScopes = [...(options.requiredScopes ?? [])];
  const challengeScopes = [...new Set([...verifier.requiredScopes, ...requiredScopes])];
  const logger = options.logger ?? silentLogger;
  const maxBytes = options.maxHeaderBytes ?? DEFAULT_MAX_AUTHORIZATION_BYTES;

  const metadataUrlIfAny = (req: Request): string | undefined => {
    try {
      return metadataUrlOf(req);
    } catch {
      return undefined;
    }
  };

  const refuse = (req: Request, res: Response, error: unknown, token: string | undefined): void => {
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
      ...(resourceMetadataUrl === undefined ? {} : { resourceMetadataUrl }),
      scopes: challengeScopes,
      ...(options.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: options.retryAfterSeconds }),
    });
    const code = isMcpHostError(answerWith) ? answerWith.code : undefined;
    const level = (code === undefined ? undefined : LOG_LEVEL[code]) ?? "error";
    logger[level]("bearer token refused", {
      ...(code === undefined ? { failure: "internal" } : { code }),
      status: answer.status,
      reason: redact(messageOf(answerWith), token),
      verifier: verifier.kind,
      method: req.method,
      path: req.path,
    });
    writeAuthFailure(res, answer);
  };

  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    let token: string | undefined;
    try {
      token = bearerTokenOf(req as AuthRequest, { maxBytes });
      const caller = await verifier.verify(token);
      const missing = missingScopes(requiredScopes, caller.scopes);
      if (missing.length > 0) throw insufficientScope(missing);
      const resourceMetadataUrl = metadataUrlIfAny(req);
      const authInfo: AuthInfo = toAuthInfo(caller, token, resourceMetadataUrl === undefined ? {} : { resourceMetadataUrl });
      callers.set(req, caller);
      (req as Request & { auth?: AuthInfo }).auth = authInfo;
      logger.debug("bearer token accepted", { subject: caller.subject, clientId: caller.clientId, verifier: verifier.kind, path: req.path });
    } catch (error) {
      refuse(req, res, error, token);
      return;
    }
    next();
  };
}
