/**
 * Where a JWT verifier finds its public keys: a remote JWKS (jose's `createRemoteJWKSet`, whose cache and cooldown
 * let keys rotate without a restart) or local keys given as JWK JSON or PEM text. A JWKS endpoint that cannot be
 * read is an outage (`AUTH_UNAVAILABLE`), kept apart from a token whose key is simply unknown.
 */
import { createPublicKey, type JsonWebKey } from "node:crypto";
import { createLocalJWKSet, createRemoteJWKSet, errors, type JWK, type JWTVerifyGetKey } from "jose";
import { authConfigError, verifierUnavailable } from "./refusals.js";

/** How the remote key set fetches and caches. */
export interface RemoteKeySetOptions {
  /** Abort a JWKS fetch after this long (default 5000 ms). */
  timeoutMs: number;
  /** Re-fetch the key set at least this often (default 10 min). */
  cacheMaxAgeMs: number;
  /** After a fetch, an unknown `kid` does not trigger another fetch for this long (default 30 s). */
  cooldownMs: number;
}

/** True for jose errors that mean "this token's key is not in the set", as opposed to "the set cannot be read". */
function isKeySelectionError(error: unknown): boolean {
  return error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys || error instanceof errors.JOSENotSupported;
}

function describeJwksFailure(error: unknown, timeoutMs: number): string {
  if (error instanceof errors.JWKSTimeout) return `the JWKS endpoint (jwksUri) did not answer within ${timeoutMs} ms`;
  if (error instanceof errors.JWKSInvalid) return "the JWKS endpoint (jwksUri) did not return a JSON Web Key Set";
  if (error instanceof errors.JOSEError) return "the JWKS endpoint (jwksUri) did not answer 200 OK with a JSON key set";
  return "the JWKS endpoint (jwksUri) could not be reached";
}

/**
 * A key resolver over a remote JWKS whose fetch failures become `AUTH_UNAVAILABLE`.
 * @example
 * const getKey = remoteKeySet(new URL("https://idp.example.com/jwks"), { timeoutMs: 5000, cacheMaxAgeMs: 600000, cooldownMs: 30000 });
 */
export function remoteKeySet(url: URL, options: RemoteKeySetOptions): JWTVerifyGetKey {
  const remote = createRemoteJWKSet(url, {
    timeoutDuration: options.timeoutMs,
    cacheMaxAge: options.cacheMaxAgeMs,
    cooldownDuration: options.cooldownMs,
  });
  return async (header, token) => {
    try {
      return await remote(header, token);
    } catch (error) {
      if (isKeySelectionError(error)) throw error;
      throw verifierUnavailable(describeJwksFailure(error, options.timeoutMs), error);
    }
  };
}

function publicJwkFromJwk(input: unknown, where: string): JWK {
  if (typeof input !== "object" || input === null || Array.isArray(input)) throw authConfigError(`jwtVerifier: ${where} is not a JWK object`);
  const jwk = input as Record<string, unknown>;
  if (jwk.kty === "oct") throw authConfigError(`jwtVerifier: ${where} is a symmetric key; give HMAC secrets as hs256Secret`);
  if (jwk.d !== undefined) throw authConfigError(`jwtVerifier: ${where} is a private key; configure only the public key`);
  let exported: JsonWebKey;
  try {
    exported = createPublicKey({ key: jwk as JsonWebKey, format: "jwk" }).export({ format: "jwk" });
  } catch (cause) {
    throw authConfigError(`jwtVerifier: ${where} is not a valid public JWK`, cause);
  }
  const keep: Record<string, unknown> = {};
  for (const name of ["kid", "alg", "use"]) if (typeof jwk[name] === "string") keep[name] = jwk[name];
  return { ...(exported as JWK), ...keep };
}

function publicJwkFromPem(pem: string, where: string): JWK {
  if (/PRIVATE KEY-----/.test(pem)) throw authConfigError(`jwtVerifier: ${where} is a private key; configure only the public key`);
  try {
    return createPublicKey(pem).export({ format: "jwk" }) as JWK;
  } catch (cause) {
    throw authConfigError(`jwtVerifier: ${where} is not a PEM public key or certificate`, cause);
  }
}

/**
 * Parses `keys` (JWK JSON — one key or a `{ "keys": [...] }` set — or PEM public keys / certificates) into public
 * JWKs, refusing private and symmetric keys.
 * @example
 * const jwks = parseLocalKeys([pemText]);
 */
export function parseLocalKeys(keys: readonly unknown[]): JWK[] {
  if (keys.length === 0) throw authConfigError("jwtVerifier: `keys` is empty; give at least one public key (JWK JSON or PEM)");
  const out: JWK[] = [];
  keys.forEach((key, index) => {
    const where = `keys[${index}]`;
    const text = typeof key === "string" ? key.trim() : "";
    if (text.startsWith("-----BEGIN")) {
      out.push(publicJwkFromPem(text, where));
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw authConfigError(`jwtVerifier: ${where} is neither JWK JSON nor PEM text`);
    }
    const set = (parsed as { keys?: unknown }).keys;
    if (Array.isArray(set)) for (const [i, jwk] of set.entries()) out.push(publicJwkFromJwk(jwk, `${where}.keys[${i}]`));
    else out.push(publicJwkFromJwk(parsed, where));
  });
  return out;
}

/**
 * A key resolver over local public keys.
 * @example
 * const getKey = localKeySet(parseLocalKeys([pemText]));
 */
export function localKeySet(jwks: JWK[]): JWTVerifyGetKey {
  return createLocalJWKSet({ keys: jwks });
}
