/**
 * The coded errors token verification raises, made in one place so every verifier refuses alike. A refused token
 * carries a short, fixed reason ("the access token has expired") that is safe for logs — never the token, a key,
 * or a library's stack — and the HTTP layer decides how much of it reaches the client.
 */
import { isMcpHostError, McpHostError } from "../../errors.js";
import { defined } from "../../defined.js";

/** Why a token was refused; each maps to one fixed log-safe message. */
export type TokenRefusalReason =
  | "malformed"
  | "algorithm"
  | "criticalHeader"
  | "signature"
  | "unknownKey"
  | "expired"
  | "notYetValid"
  | "issuer"
  | "audience"
  | "noSubject"
  | "noExpiry"
  | "inactive"
  | "rejected";

const REFUSAL_MESSAGES: Readonly<Record<TokenRefusalReason, string>> = Object.freeze({
  malformed: "the access token is malformed",
  algorithm: "the access token is signed with an algorithm this server does not accept",
  criticalHeader: "the access token has a critical header extension this server does not understand",
  signature: "the access token's signature does not verify",
  unknownKey: "the access token is signed by a key the issuer does not publish",
  expired: "the access token has expired",
  notYetValid: "the access token is not valid yet (nbf is in the future)",
  issuer: "the access token was issued by an issuer this server does not accept",
  audience: "the access token was issued for another resource (its audience does not name this server)",
  noSubject: "the access token has no subject (sub)",
  noExpiry: "the access token has no expiry (exp)",
  inactive: "the access token is not active (the authorization server says it is revoked, expired or unknown)",
  rejected: "the access token was rejected by the deployment's verifier",
});

/**
 * An `AUTH_TOKEN_INVALID` error with the fixed message for `reason`.
 * @example
 * throw tokenRefused("expired");
 */
export function tokenRefused(reason: TokenRefusalReason, cause?: unknown): McpHostError {
  return new McpHostError("AUTH_TOKEN_INVALID", REFUSAL_MESSAGES[reason], defined({ cause }));
}

/**
 * The reason of an error made by `tokenRefused`, or undefined for any other error (a custom verifier's own).
 * @example
 * if (refusalReasonOf(error) === "expired") tellClientToRefresh();
 */
export function refusalReasonOf(error: unknown): TokenRefusalReason | undefined {
  if (!isMcpHostError(error, "AUTH_TOKEN_INVALID")) return undefined;
  for (const [reason, message] of Object.entries(REFUSAL_MESSAGES)) {
    if (message === error.message) return reason as TokenRefusalReason;
  }
  return undefined;
}

/**
 * An `AUTH_INSUFFICIENT_SCOPE` error naming the scopes the token lacks (never the ones it has).
 * @example
 * const missing = missingScopes(["mcp:admin"], caller.scopes); if (missing.length) throw insufficientScope(missing);
 */
export function insufficientScope(missing: readonly string[]): McpHostError {
  return new McpHostError("AUTH_INSUFFICIENT_SCOPE", `the access token lacks the required scope(s): ${missing.join(" ")}`);
}

/**
 * The required scopes a token does not have, in the order they were required.
 * @example
 * missingScopes(["a", "b"], ["b"]) // ["a"]
 */
export function missingScopes(required: readonly string[], granted: readonly string[]): string[] {
  const have = new Set(granted);
  return [...new Set(required)].filter((scope) => !have.has(scope));
}

/**
 * An `AUTH_UNAVAILABLE` error: the verifier's own endpoint failed, so the caller is not to blame.
 * @example
 * throw verifierUnavailable("the JWKS endpoint (jwksUri) timed out after 5000 ms", err);
 */
export function verifierUnavailable(what: string, cause?: unknown): McpHostError {
  return new McpHostError("AUTH_UNAVAILABLE", `tokens cannot be verified right now: ${what}`, defined({ cause }));
}

/**
 * An `AUTH_CONFIG_INVALID` error naming the option that is wrong.
 * @example
 * throw authConfigError("jwtVerifier: `issuer` is required (the iss your identity provider puts in tokens)");
 */
export function authConfigError(message: string, cause?: unknown): McpHostError {
  return new McpHostError("AUTH_CONFIG_INVALID", message, defined({ cause }));
}
