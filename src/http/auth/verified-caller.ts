/**
 * Who a verified token speaks for, and the verifier contract every token format implements. A VerifiedCaller
 * never holds the token itself, so it can travel to handlers and log lines safely; `toAuthInfo` re-attaches the
 * token only where an SDK seam needs the SDK's `AuthInfo`.
 */
import type { AuthInfo } from "@modelcontextprotocol/server";
import { defined } from "../../defined.js";

/** The verified identity behind a bearer token. */
export interface VerifiedCaller {
  /** The token's subject (`sub`). */
  subject: string;
  /** The OAuth client the token was issued to (`client_id`, `azp` or `cid`); empty when the token names none. */
  clientId: string;
  /** Granted scopes, in the token's order, without duplicates. */
  scopes: string[];
  /** When the token expires, in seconds since the epoch. */
  expiresAt?: number;
  /** Every claim the token carried (or the introspection answer), frozen. */
  claims: Readonly<Record<string, unknown>>;
  /** The resource (RFC 8707) the token was accepted for: the configured audience it named. */
  resource?: URL;
}

/** Verifies a bearer token; throws `AUTH_TOKEN_INVALID`, `AUTH_INSUFFICIENT_SCOPE` or `AUTH_UNAVAILABLE`. */
export interface TokenVerifier {
  /** What kind of verifier this is, for log lines. */
  readonly kind: "jwt" | "introspection" | "custom";
  /** Scopes this verifier demands of every token (the HTTP challenge names them). */
  readonly requiredScopes: readonly string[];
  verify(token: string): Promise<VerifiedCaller>;
}

/**
 * The SDK's `AuthInfo` for a caller, for the seams that take one (`req.auth`, `handler.fetch(req, { authInfo })`).
 * `extra` carries `{ subject, claims }`.
 * @example
 * const authInfo = toAuthInfo(await verifier.verify(token), token);
 */
export function toAuthInfo(caller: VerifiedCaller, token: string, options: { resourceMetadataUrl?: string } = {}): AuthInfo {
  return {
    token,
    clientId: caller.clientId,
    scopes: [...caller.scopes],
    ...defined({ expiresAt: caller.expiresAt }),
    ...(caller.resource === undefined ? {} : { resource: new URL(caller.resource.href) }),
    ...defined({ resourceMetadataUrl: options.resourceMetadataUrl }),
    extra: { subject: caller.subject, claims: caller.claims },
  };
}

/**
 * Scopes from a claims set: `scope` (space-separated) when it is a string, else `scp` (an array, or a string).
 * @example
 * scopesFromClaims({ scope: "mcp:read mcp:write" }) // ["mcp:read", "mcp:write"]
 */
export function scopesFromClaims(claims: Readonly<Record<string, unknown>>): string[] {
  const source = typeof claims.scope === "string" ? claims.scope : claims.scp;
  const list = typeof source === "string" ? source.split(" ") : Array.isArray(source) ? source : [];
  return [...new Set(list.filter((s): s is string => typeof s === "string" && s.length > 0))];
}

/**
 * The client a claims set names: `client_id`, else `azp`, else `cid`; empty when none is a string.
 * @example
 * clientIdFromClaims({ azp: "web-app" }) // "web-app"
 */
export function clientIdFromClaims(claims: Readonly<Record<string, unknown>>): string {
  for (const name of ["client_id", "azp", "cid"]) {
    const value = claims[name];
    if (typeof value === "string" && value.length > 0) return value;
  }
  return "";
}

/**
 * The first accepted audience that the claims' `aud` names, or undefined.
 * @example
 * matchedAudience({ aud: ["a", "b"] }, ["b"]) // "b"
 */
export function matchedAudience(claims: Readonly<Record<string, unknown>>, accepted: readonly string[]): string | undefined {
  const aud = claims.aud;
  const named = typeof aud === "string" ? [aud] : Array.isArray(aud) ? aud.filter((a): a is string => typeof a === "string") : [];
  return accepted.find((a) => named.includes(a));
}

/**
 * A frozen deep copy of a JSON-like value (claims from a token or an introspection answer).
 * @example
 * const claims = frozenCopy(payload);
 */
export function frozenCopy<T>(value: T): T {
  const copy = structuredClone(value);
  const freeze = (v: unknown): void => {
    if (typeof v !== "object" || v === null || Object.isFrozen(v)) return;
    Object.freeze(v);
    for (const child of Object.values(v)) freeze(child);
  };
  freeze(copy);
  return copy;
}

/**
 * The URL form of an accepted audience, when it is an http(s) URL (audiences may be URNs).
 * @example
 * resourceOf("https://mcp.example.com/mcp")?.href // "https://mcp.example.com/mcp"; resourceOf("urn:x") // undefined
 */
export function resourceOf(audience: string | undefined): URL | undefined {
  if (audience === undefined || !URL.canParse(audience)) return undefined;
  const url = new URL(audience);
  return url.protocol === "http:" || url.protocol === "https:" ? url : undefined;
}
