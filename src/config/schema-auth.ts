/**
 * The `auth:` section: bearer-token verification for every selection (docs/design.md §9) — JWTs checked against a
 * JWKS URL, local keys or an HMAC secret, or opaque tokens checked by RFC 7662 introspection — and the scopes that
 * guard toolsets. Which combinations make sense is checked in auth-rules.ts, so every mistake is reported at once.
 */
import { z } from "zod";
import { ranged, scopeToken, text } from "./schema-parts.js";

/**
 * Signature algorithms a token may use. `none` is not among them, and never will be.
 * @example
 * JWT_ALGORITHMS.includes("EdDSA") // true
 */
export const JWT_ALGORITHMS = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA", "HS256", "HS384", "HS512"] as const;

/**
 * What `auth.algorithms` allows when it is not set.
 * @example
 * DEFAULT_JWT_ALGORITHMS // ["RS256", "PS256", "ES256", "EdDSA"]
 */
export const DEFAULT_JWT_ALGORITHMS: readonly (typeof JWT_ALGORITHMS)[number][] = ["RS256", "PS256", "ES256", "EdDSA"];

/**
 * HMAC algorithms: allowed only together with `hs256Secret`.
 * @example
 * HMAC_ALGORITHMS.includes("HS256") // true
 */
export const HMAC_ALGORITHMS: readonly string[] = ["HS256", "HS384", "HS512"];

const introspectionSchema = z.strictObject({
  endpoint: z.string(),
  clientId: text,
  /** Must be a secret reference. */
  clientSecret: text,
  cacheMaxSeconds: ranged("auth.introspection.cacheMaxSeconds").default(300),
});

const authObject = z.strictObject({
  issuer: z.string().optional(),
  audience: z.union([text, z.array(text).min(1)]).optional(),
  jwksUri: z.string().optional(),
  keys: z.array(text).min(1).optional(),
  algorithms: z
    .array(z.enum(JWT_ALGORITHMS))
    .min(1)
    .default(() => [...DEFAULT_JWT_ALGORITHMS]),
  hs256Secret: text.optional(),
  clockToleranceSec: ranged("auth.clockToleranceSec").default(30),
  requiredScopes: z.array(scopeToken).default([]),
  introspection: introspectionSchema.optional(),
  resource: z.string().optional(),
  authorizationServers: z.array(z.string()).optional(),
  scopesSupported: z.array(scopeToken).default([]),
  toolsetScopes: z.record(z.string(), z.array(scopeToken).min(1)).default({}),
  onInsufficientScope: z.enum(["refuse", "omit"]).default("refuse"),
  publicToolsets: z.boolean().default(false),
});

/** Token verification, resolved: `audience` is always a list, `authorizationServers` defaults to `[issuer]`. */
export type AuthConfig = Omit<z.output<typeof authObject>, "audience" | "authorizationServers"> & {
  audience?: string[];
  authorizationServers: string[];
};

function resolveAuth(auth: z.output<typeof authObject>): AuthConfig {
  const { audience, authorizationServers, ...rest } = auth;
  return {
    ...rest,
    ...(audience === undefined ? {} : { audience: typeof audience === "string" ? [audience] : audience }),
    authorizationServers: authorizationServers ?? (auth.issuer === undefined ? [] : [auth.issuer]),
  };
}

/**
 * `auth:`; absent means no token verification.
 * @example
 * authSchema.parse({ issuer: "https://id.example.com/", audience: "mcp", jwksUri: "https://id.example.com/jwks" }).audience // ["mcp"]
 */
export const authSchema = authObject.transform(resolveAuth);
