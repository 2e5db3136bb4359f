/**
 * The `auth` option of a served host (docs/design.md §9): the same shape as the config file's `auth:` section (so a
 * loaded config's `auth` can be passed as it is), plus `verifier` for code that brings its own, and the few knobs
 * only code sets. `tokenVerifierFrom` turns it into the verifier it describes.
 */
import type { Clock } from "../../clock.js";
import { introspectionVerifier } from "./introspection-verifier.js";
import { jwtVerifier } from "./jwt-verifier.js";
import { authConfigError, insufficientScope, missingScopes } from "./refusals.js";
import type { TokenVerifier } from "./verified-caller.js";

/** RFC 7662 introspection of opaque tokens (config `auth.introspection`). */
export interface HostIntrospectionOptions {
  endpoint: string;
  clientId: string;
  /** The resolved secret (a config file gives it as a secret reference). */
  clientSecret: string;
  /** An answer is cached no longer than this (default 300 s), nor past the token's `exp`. */
  cacheMaxSeconds?: number;
}

export interface HostAuthOptions {
  /** A ready verifier (e.g. `customVerifier(...)`); instead of the JWT settings and `introspection`. */
  verifier?: TokenVerifier;
  /** JWT: the token issuer (`iss`). */
  issuer?: string;
  /** The accepted `aud` value(s) — this server's resource identifier. Required for JWTs; with introspection, default `resource`. */
  audience?: string | readonly string[];
  /** JWT: where the issuer publishes its keys. */
  jwksUri?: string;
  /** JWT: local public keys, JWK JSON or PEM text (resolved from the config's secret references). */
  keys?: readonly string[];
  /** JWT: accepted signature algorithms (default RS256, PS256, ES256, EdDSA). */
  algorithms?: readonly string[];
  /** JWT: a shared HMAC secret (needs an HS algorithm in `algorithms`). */
  hs256Secret?: string;
  /** JWT: leeway for `exp`/`nbf` (default 30 s). */
  clockToleranceSec?: number;
  /** Scopes every token needs. */
  requiredScopes?: readonly string[];
  /** Opaque tokens, checked at the authorization server, instead of JWT verification. */
  introspection?: HostIntrospectionOptions;
  /** The public URL of the MCP endpoint (the metadata's `resource`); default: derived from each request. */
  resource?: string;
  /** Published in the protected-resource metadata (default `[issuer]`); none: no metadata is served. */
  authorizationServers?: readonly string[];
  /** Published in the protected-resource metadata. */
  scopesSupported?: readonly string[];
  /** The scopes a token needs to reach a toolset: `{ admin: ["mcp:admin"] }`. */
  toolsetScopes?: Readonly<Record<string, readonly string[]>>;
  /** A selection naming a toolset the token may not reach: 403 so the client can step up (`refuse`, default), or serve without it. */
  onInsufficientScope?: "refuse" | "omit";
  /** Serve `/toolsets` without a token (default false). */
  publicToolsets?: boolean;
  /** The public origin (and path prefix) clients use behind a proxy; default: from `resource`, else each request. */
  publicBaseUrl?: string;
  /** Accept plain-http JWKS, introspection and authorization-server URLs off loopback (default false). */
  allowInsecureHttp?: boolean;
  /** The Retry-After of a 503 while tokens cannot be verified (default 10 s). */
  retryAfterSeconds?: number;
  /** Time for `exp`/`nbf` and caches (default the system clock; served by a host app, the app's clock). */
  clock?: Clock;
}

const JWT_KEYS = ["issuer", "jwksUri", "keys", "hs256Secret"] as const;

function optional<T>(name: string, value: T | undefined): Record<string, T> {
  return value === undefined ? {} : { [name]: value };
}

/** A given verifier with the configured required scopes added on top of its own. */
function withRequiredScopes(inner: TokenVerifier, extra: readonly string[]): TokenVerifier {
  if (extra.length === 0) return inner;
  const required = [...new Set([...inner.requiredScopes, ...extra])];
  return {
    kind: inner.kind,
    requiredScopes: required,
    verify: async (token) => {
      const caller = await inner.verify(token);
      const missing = missingScopes(required, caller.scopes);
      if (missing.length > 0) throw insufficientScope(missing);
      return caller;
    },
  };
}

/**
 * The verifier `auth` describes: `verifier` as given, else introspection, else JWT verification.
 * @example
 * const verifier = tokenVerifierFrom({ issuer: "https://id.example.com/", audience: "https://mcp.example.com/mcp", jwksUri: "https://id.example.com/jwks" });
 */
export function tokenVerifierFrom(auth: HostAuthOptions): TokenVerifier {
  if (typeof auth !== "object" || auth === null) throw authConfigError("auth must be an object such as { issuer, audience, jwksUri }");
  const shared = { ...optional("allowInsecureHttp", auth.allowInsecureHttp), ...optional("clock", auth.clock) };
  const requiredScopes = auth.requiredScopes === undefined ? {} : { requiredScopes: [...auth.requiredScopes] };
  if (auth.verifier !== undefined) {
    const extra = [...JWT_KEYS, "audience", "introspection"].filter((key) => auth[key as keyof HostAuthOptions] !== undefined);
    if (extra.length > 0) {
      throw authConfigError(
        `auth: \`verifier\` is given together with ${extra.map((k) => `\`${k}\``).join(", ")}, which it would ignore; give one way to verify tokens (publish the authorization server with \`authorizationServers\`)`,
      );
    }
    if (typeof auth.verifier.verify !== "function")
      throw authConfigError("auth.verifier must be a TokenVerifier (jwtVerifier, introspectionVerifier or customVerifier)");
    return withRequiredScopes(auth.verifier, auth.requiredScopes ?? []);
  }
  if (auth.introspection !== undefined) {
    const extra = JWT_KEYS.filter((key) => auth[key] !== undefined && key !== "issuer");
    if (extra.length > 0)
      throw authConfigError(
        `auth: \`introspection\` is given together with ${extra.map((k) => `\`${k}\``).join(", ")}; tokens are either introspected or verified as JWTs`,
      );
    const { endpoint, clientId, clientSecret, cacheMaxSeconds } = auth.introspection;
    return introspectionVerifier({
      endpoint,
      clientId,
      clientSecret,
      ...optional("cacheMaxSeconds", cacheMaxSeconds),
      // An introspected token must be meant for this server: its aud names the audience, else the public resource URL.
      audience: auth.audience === undefined ? (auth.resource as string) : typeof auth.audience === "string" ? auth.audience : [...auth.audience],
      ...requiredScopes,
      ...shared,
    });
  }
  return jwtVerifier({
    issuer: auth.issuer as string,
    audience: typeof auth.audience === "string" ? auth.audience : [...(auth.audience ?? [])],
    ...optional("jwksUri", auth.jwksUri),
    ...(auth.keys === undefined ? {} : { keys: [...auth.keys] }),
    ...(auth.algorithms === undefined ? {} : { algorithms: [...auth.algorithms] }),
    ...optional("hs256Secret", auth.hs256Secret),
    ...optional("clockToleranceSec", auth.clockToleranceSec),
    ...requiredScopes,
    ...shared,
  });
}
