/**
 * The JWT access-token verifier, on jose (docs/design.md §9). Issuer and audience are required, algorithms are an
 * allow-list checked against the token header before any key is looked up (so `none` and HS256-with-a-public-key
 * never reach a key), headers that point at their own keys (`jku`, `x5u`, `jwk`) are ignored, and every failure
 * becomes one of a few fixed, log-safe refusals.
 */
import {
  decodeProtectedHeader,
  errors,
  jwtVerify,
  type CryptoKey,
  type JWTPayload,
  type JWTVerifyGetKey,
  type JWTVerifyOptions,
  type ProtectedHeaderParameters,
} from "jose";
import { systemClock, type Clock } from "../../clock.js";
import { isMcpHostError, type McpHostError } from "../../errors.js";
import { endpointUrl } from "./endpoint-url.js";
import { localKeySet, parseLocalKeys, remoteKeySet } from "./jwt-keys.js";
import { authConfigError, insufficientScope, missingScopes, tokenRefused } from "./refusals.js";
import { clientIdFromClaims, frozenCopy, matchedAudience, resourceOf, scopesFromClaims, type TokenVerifier, type VerifiedCaller } from "./verified-caller.js";
import { defined } from "../../defined.js";

export interface JwtVerifierOptions {
  /** The `iss` tokens must carry (required). */
  issuer: string;
  /** The `aud` value(s) naming this server; a token must name one of them (required). */
  audience: string | string[];
  /** Where the issuer publishes its keys (JWKS). Exactly one of jwksUri, keys, hs256Secret. */
  jwksUri?: string | URL;
  /** Local public keys: JWK JSON (a key or a key set) or PEM text (public key or certificate). */
  keys?: string[];
  /** Accepted `alg` values (default RS256, PS256, ES256, EdDSA; with hs256Secret, default HS256). `none` is never accepted. */
  algorithms?: string[];
  /** An HMAC secret (at least 32 bytes); only HS256/384/512 are then accepted, only with this secret. */
  hs256Secret?: string | Uint8Array;
  /** Leeway for exp and nbf, in seconds (default 30). */
  clockToleranceSec?: number;
  /** Scopes every token must carry. */
  requiredScopes?: string[];
  /** Abort a JWKS fetch after this long (default 5000 ms). */
  fetchTimeoutMs?: number;
  /** Re-fetch the JWKS at least this often (default 600000 ms). */
  jwksCacheMaxAgeMs?: number;
  /** After a JWKS fetch, an unknown kid does not cause another fetch for this long (default 30000 ms). */
  jwksCooldownMs?: number;
  /** Accept a plain-http jwksUri off loopback (default false). */
  allowInsecureHttp?: boolean;
  /** The time source for exp and nbf (default the system clock). */
  clock?: Clock;
}

const ASYMMETRIC = new Set(["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA", "Ed25519"]);
const SYMMETRIC = new Set(["HS256", "HS384", "HS512"]);
const DEFAULT_ALGORITHMS = ["RS256", "PS256", "ES256", "EdDSA"];

function checkAlgorithms(options: JwtVerifierOptions): string[] {
  const withSecret = options.hs256Secret !== undefined;
  const algorithms = options.algorithms ?? (withSecret ? ["HS256"] : DEFAULT_ALGORITHMS);
  if (!Array.isArray(algorithms) || algorithms.length === 0) throw authConfigError('jwtVerifier: `algorithms` must be a non-empty list such as ["RS256"]');
  for (const alg of algorithms) {
    if (typeof alg === "string" && alg.toLowerCase() === "none")
      throw authConfigError('jwtVerifier: `algorithms` must not contain "none"; unsigned tokens are never accepted');
    if (typeof alg !== "string" || (!ASYMMETRIC.has(alg) && !SYMMETRIC.has(alg))) {
      throw authConfigError(`jwtVerifier: \`algorithms\` contains ${JSON.stringify(alg)}; use ${[...ASYMMETRIC, ...SYMMETRIC].join(", ")}`);
    }
    if (SYMMETRIC.has(alg) && !withSecret)
      throw authConfigError(`jwtVerifier: \`algorithms\` contains ${alg} but no hs256Secret is set; HMAC algorithms need their own secret`);
    if (!SYMMETRIC.has(alg) && withSecret) throw authConfigError(`jwtVerifier: with hs256Secret only HS256, HS384 and HS512 are accepted, not ${alg}`);
  }
  return [...new Set(algorithms)];
}

function checkAudience(audience: unknown): string[] {
  const list = typeof audience === "string" ? [audience] : Array.isArray(audience) ? audience : [];
  if (list.length === 0 || list.some((a) => typeof a !== "string" || a.length === 0)) {
    throw authConfigError(
      "jwtVerifier: `audience` is required: this server's resource identifier (e.g. https://mcp.example.com/mcp) as the identity provider puts it in `aud`",
    );
  }
  return list as string[];
}

function secretBytes(secret: string | Uint8Array): Uint8Array {
  const bytes = typeof secret === "string" ? new TextEncoder().encode(secret) : secret;
  if (!(bytes instanceof Uint8Array) || bytes.length < 32) throw authConfigError("jwtVerifier: `hs256Secret` must be at least 32 bytes");
  return bytes;
}

function checkNumber(value: number | undefined, fallback: number, option: string, min: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isFinite(value) || value < min) throw authConfigError(`jwtVerifier: \`${option}\` must be a number ≥ ${min}`);
  return value;
}

function keyResolver(options: JwtVerifierOptions): JWTVerifyGetKey | Uint8Array {
  const sources = [options.jwksUri, options.keys, options.hs256Secret].filter((s) => s !== undefined).length;
  if (sources !== 1) throw authConfigError("jwtVerifier: give exactly one of `jwksUri`, `keys` or `hs256Secret`");
  if (options.hs256Secret !== undefined) return secretBytes(options.hs256Secret);
  if (options.keys !== undefined) {
    if (!Array.isArray(options.keys)) throw authConfigError("jwtVerifier: `keys` must be a list of JWK JSON or PEM texts");
    return localKeySet(parseLocalKeys(options.keys));
  }
  return remoteKeySet(endpointUrl("jwtVerifier", "jwksUri", options.jwksUri, options.allowInsecureHttp), {
    timeoutMs: Math.round(checkNumber(options.fetchTimeoutMs, 5_000, "fetchTimeoutMs", 1)),
    cacheMaxAgeMs: checkNumber(options.jwksCacheMaxAgeMs, 600_000, "jwksCacheMaxAgeMs", 0),
    cooldownMs: checkNumber(options.jwksCooldownMs, 30_000, "jwksCooldownMs", 0),
  });
}

/** Maps whatever jose threw to one of our refusals (an outage from the key resolver passes through). */
function refusalFor(error: unknown): McpHostError {
  if (isMcpHostError(error)) return error;
  if (error instanceof errors.JWTExpired) return tokenRefused("expired", error);
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === "iss") return tokenRefused("issuer", error);
    if (error.claim === "aud") return tokenRefused("audience", error);
    if (error.claim === "nbf") return tokenRefused("notYetValid", error);
    if (error.claim === "exp" && error.reason === "missing") return tokenRefused("noExpiry", error);
    return tokenRefused("malformed", error);
  }
  if (error instanceof errors.JOSEAlgNotAllowed || error instanceof errors.JOSENotSupported) return tokenRefused("algorithm", error);
  if (error instanceof errors.JWSSignatureVerificationFailed) return tokenRefused("signature", error);
  if (error instanceof errors.JWKSNoMatchingKey) return tokenRefused("unknownKey", error);
  return tokenRefused("malformed", error);
}

/** jwtVerify, trying each candidate when several keys of a set match a token without a usable kid. */
async function verifySignedJwt(token: string, key: JWTVerifyGetKey | Uint8Array, options: JWTVerifyOptions): Promise<JWTPayload> {
  try {
    return (await jwtVerify(token, key as JWTVerifyGetKey, options)).payload;
  } catch (error) {
    if (!(error instanceof errors.JWKSMultipleMatchingKeys)) throw error;
    for await (const candidate of error as unknown as AsyncIterable<CryptoKey>) {
      try {
        return (await jwtVerify(token, candidate, options)).payload;
      } catch (inner) {
        if (!(inner instanceof errors.JWSSignatureVerificationFailed)) throw inner;
      }
    }
    throw new errors.JWSSignatureVerificationFailed();
  }
}

function checkHeader(token: string, allowed: ReadonlySet<string>): void {
  let header: ProtectedHeaderParameters;
  try {
    header = decodeProtectedHeader(token);
  } catch (cause) {
    throw tokenRefused("malformed", cause);
  }
  if (typeof header.alg !== "string" || !allowed.has(header.alg)) throw tokenRefused("algorithm");
  if (header.crit !== undefined) throw tokenRefused("criticalHeader");
}

/**
 * A verifier for JWT access tokens.
 * @example
 * const verifier = jwtVerifier({ issuer: "https://idp.example.com", audience: "https://mcp.example.com/mcp", jwksUri: "https://idp.example.com/jwks" });
 * const caller = await verifier.verify(token);
 */
export function jwtVerifier(options: JwtVerifierOptions): TokenVerifier {
  if (typeof options?.issuer !== "string" || options.issuer.length === 0) {
    throw authConfigError("jwtVerifier: `issuer` is required: the `iss` your identity provider puts in its tokens (e.g. https://idp.example.com)");
  }
  const audience = checkAudience(options.audience);
  const algorithms = checkAlgorithms(options);
  const allowed = new Set(algorithms);
  const clockTolerance = checkNumber(options.clockToleranceSec, 30, "clockToleranceSec", 0);
  const requiredScopes = [...(options.requiredScopes ?? [])];
  const key = keyResolver(options);
  const clock = options.clock ?? systemClock;

  return {
    kind: "jwt",
    requiredScopes,
    async verify(token: string): Promise<VerifiedCaller> {
      if (typeof token !== "string" || token.length === 0) throw tokenRefused("malformed");
      checkHeader(token, allowed);
      let payload: JWTPayload;
      try {
        payload = await verifySignedJwt(token, key, {
          issuer: options.issuer,
          audience,
          algorithms,
          clockTolerance,
          requiredClaims: ["exp"],
          currentDate: new Date(clock.now()),
        });
      } catch (error) {
        throw refusalFor(error);
      }
      if (typeof payload.sub !== "string" || payload.sub.length === 0) throw tokenRefused("noSubject");
      const claims = frozenCopy(payload as Record<string, unknown>);
      const scopes = scopesFromClaims(claims);
      const missing = missingScopes(requiredScopes, scopes);
      if (missing.length > 0) throw insufficientScope(missing);
      const resource = resourceOf(matchedAudience(claims, audience));
      return {
        subject: payload.sub,
        clientId: clientIdFromClaims(claims),
        scopes,
        ...(typeof payload.exp === "number" ? { expiresAt: payload.exp } : {}),
        claims,
        ...defined({ resource }),
      };
    },
  };
}
