/**
 * A deployment's own token check plugged in as a verifier. Whatever it throws becomes a plain invalid-token refusal
 * (its message is kept only as the cause, since it may quote the token), unless it throws one of our coded auth
 * errors; what it returns — a VerifiedCaller or an SDK-style AuthInfo — is checked and normalised.
 */
import { systemClock, type Clock } from "../../clock.js";
import { isMcpHostError, type McpHostError } from "../../errors.js";
import { authConfigError, insufficientScope, missingScopes, tokenRefused } from "./refusals.js";
import { frozenCopy, type TokenVerifier, type VerifiedCaller } from "./verified-caller.js";
import { defined } from "../../defined.js";

/** What an SDK `OAuthTokenVerifier` returns, roughly: `subject` comes from `extra.subject`, else `clientId`. */
export interface AuthInfoLike {
  token?: string;
  clientId: string;
  scopes: string[];
  expiresAt?: number;
  resource?: URL;
  extra?: Record<string, unknown>;
}

export type CustomVerify = (token: string) => Promise<VerifiedCaller | AuthInfoLike>;

export interface CustomVerifierOptions {
  /** Scopes every token must carry. */
  requiredScopes?: string[];
  /** The time source for `expiresAt` (default the system clock). */
  clock?: Clock;
}

const PASSED_THROUGH = new Set(["AUTH_TOKEN_INVALID", "AUTH_INSUFFICIENT_SCOPE", "AUTH_UNAVAILABLE", "AUTH_CONFIG_INVALID"]);

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((s) => typeof s === "string");
}

function normalise(result: unknown): VerifiedCaller {
  const bad = (what: string): McpHostError =>
    authConfigError(`customVerifier: the verify function returned ${what}; return { subject, clientId, scopes, claims } or an AuthInfo`);
  if (typeof result !== "object" || result === null) throw bad("no object");
  const r = result as Partial<VerifiedCaller & AuthInfoLike>;
  if (!isStringList(r.scopes)) throw bad("no `scopes` list of strings");
  if (r.expiresAt !== undefined && (typeof r.expiresAt !== "number" || !Number.isFinite(r.expiresAt)))
    throw bad("an `expiresAt` that is not a number of seconds");
  if (r.resource !== undefined && !(r.resource instanceof URL)) throw bad("a `resource` that is not a URL");
  const extra = typeof r.extra === "object" && r.extra !== null ? r.extra : {};
  const clientId = typeof r.clientId === "string" ? r.clientId : "";
  const subject = typeof r.subject === "string" ? r.subject : typeof extra.subject === "string" ? (extra.subject as string) : clientId;
  if (subject.length === 0) throw bad("no `subject` (nor an AuthInfo with a clientId)");
  const claimsSource = typeof r.subject === "string" ? r.claims : extra.claims;
  const claims = typeof claimsSource === "object" && claimsSource !== null ? frozenCopy(claimsSource as Record<string, unknown>) : Object.freeze({});
  return {
    subject,
    clientId,
    scopes: [...new Set(r.scopes)],
    ...defined({ expiresAt: r.expiresAt }),
    claims,
    ...(r.resource === undefined ? {} : { resource: new URL(r.resource.href) }),
  };
}

/**
 * A verifier over the deployment's own `verify(token)`.
 * @example
 * const verifier = customVerifier(async (token) => ({ subject: "svc", clientId: "svc", scopes: ["mcp"], claims: {} }));
 */
export function customVerifier(verify: CustomVerify, options: CustomVerifierOptions = {}): TokenVerifier {
  if (typeof verify !== "function") throw authConfigError("customVerifier: pass an async function (token) => caller");
  const requiredScopes = [...(options.requiredScopes ?? [])];
  const clock = options.clock ?? systemClock;
  return {
    kind: "custom",
    requiredScopes,
    async verify(token: string): Promise<VerifiedCaller> {
      if (typeof token !== "string" || token.length === 0) throw tokenRefused("malformed");
      let result: unknown;
      try {
        result = await verify(token);
      } catch (error) {
        if (isMcpHostError(error) && PASSED_THROUGH.has(error.code)) throw error;
        throw tokenRefused("rejected", error);
      }
      const caller = normalise(result);
      if (caller.expiresAt !== undefined && caller.expiresAt * 1000 <= clock.now()) throw tokenRefused("expired");
      const missing = missingScopes(requiredScopes, caller.scopes);
      if (missing.length > 0) throw insufficientScope(missing);
      return caller;
    },
  };
}
