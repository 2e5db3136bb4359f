/**
 * The rules of `auth:` that one key's schema cannot express (docs/design.md §9): JWT verification needs an issuer, an
 * audience and one key source; `none` is never an algorithm; HMAC algorithms and `hs256Secret` come together;
 * the URLs follow the URL rule; `toolsetScopes` names toolsets. Introspection (opaque tokens) replaces the JWT keys,
 * and still needs an audience (or `resource`, which stands in for it): an introspected token must be meant for us.
 */
import { toolsetNameProblem } from "../extension/toolset-name.js";
import type { KeyPath, PathProblem } from "./problems.js";
import { DEFAULT_JWT_ALGORITHMS, HMAC_ALGORITHMS } from "./schema-auth.js";
import { isRecord } from "./schema-parts.js";
import { urlProblem } from "./url-rule.js";

function urlRule(value: unknown, path: KeyPath, query: "refuse" | "allow"): PathProblem[] {
  if (typeof value !== "string") return [];
  const why = urlProblem(value, { query, hint: "remove it" });
  return why ? [{ code: "MCP_URL_INVALID", path, message: `the URL ${why}` }] : [];
}

function algorithmProblems(auth: Record<string, unknown>): PathProblem[] {
  const out: PathProblem[] = [];
  const listed = Array.isArray(auth.algorithms) ? auth.algorithms : auth.algorithms === undefined ? DEFAULT_JWT_ALGORITHMS : [];
  const hasSecret = auth.hs256Secret !== undefined;
  listed.forEach((alg, i) => {
    if (typeof alg !== "string") return;
    const path = ["auth", "algorithms", i];
    if (alg.toLowerCase() === "none") out.push({ code: "CONFIG_INVALID", path, message: '"none" is never accepted: an unsigned token would let anyone in' });
    else if (HMAC_ALGORITHMS.includes(alg) && !hasSecret)
      out.push({ code: "CONFIG_INVALID", path, message: `${alg} needs auth.hs256Secret (the shared secret); set it or remove ${alg}` });
  });
  if (hasSecret && !listed.some((alg) => typeof alg === "string" && HMAC_ALGORITHMS.includes(alg))) {
    out.push({
      code: "CONFIG_INVALID",
      path: ["auth", "hs256Secret"],
      message: 'is set but auth.algorithms lists no HS256, HS384 or HS512, so it would never be used; add "HS256" to auth.algorithms or remove hs256Secret',
    });
  }
  return out;
}

function keySourceProblems(auth: Record<string, unknown>): PathProblem[] {
  const out: PathProblem[] = [];
  const introspection = auth.introspection !== undefined;
  if (auth.jwksUri !== undefined && auth.keys !== undefined) {
    out.push({ code: "CONFIG_INVALID", path: ["auth", "keys"], message: "is set together with auth.jwksUri; keys come from one of them, so remove one" });
  }
  if (introspection) {
    if (auth.audience === undefined && auth.resource === undefined) {
      out.push({
        code: "CONFIG_INVALID",
        path: ["auth", "audience"],
        message:
          "is required with auth.introspection (or set auth.resource): an introspected token's aud must name this server, else a token issued for another resource is accepted",
      });
    }
    return out;
  }
  const jwt = "for JWT verification (or configure auth.introspection for opaque tokens)";
  if (auth.issuer === undefined) out.push({ code: "CONFIG_INVALID", path: ["auth", "issuer"], message: `is required ${jwt}` });
  if (auth.audience === undefined)
    out.push({ code: "CONFIG_INVALID", path: ["auth", "audience"], message: `is required ${jwt}: a token must be meant for this server` });
  if (auth.jwksUri === undefined && auth.keys === undefined && auth.hs256Secret === undefined) {
    out.push({ code: "CONFIG_INVALID", path: ["auth"], message: "needs a key source: jwksUri, keys or hs256Secret (or introspection for opaque tokens)" });
  }
  return out;
}

/**
 * Problems of the top-level `auth` section beyond its schema.
 * @example
 * authProblems({ issuer: "https://id.example.com/", audience: "mcp", jwksUri: "https://id.example.com/jwks", algorithms: ["none"] })
 * // [{ code: "CONFIG_INVALID", path: ["auth", "algorithms", 0], message: '"none" is never accepted: …' }]
 */
export function authProblems(auth: unknown): PathProblem[] {
  if (!isRecord(auth)) return [];
  const out = [...keySourceProblems(auth), ...algorithmProblems(auth)];
  out.push(
    ...urlRule(auth.issuer, ["auth", "issuer"], "refuse"),
    ...urlRule(auth.jwksUri, ["auth", "jwksUri"], "allow"),
    ...urlRule(auth.resource, ["auth", "resource"], "allow"),
  );
  if (isRecord(auth.introspection)) out.push(...urlRule(auth.introspection.endpoint, ["auth", "introspection", "endpoint"], "allow"));
  if (Array.isArray(auth.authorizationServers))
    auth.authorizationServers.forEach((url, i) => {
      out.push(...urlRule(url, ["auth", "authorizationServers", i], "refuse"));
    });
  if (isRecord(auth.toolsetScopes)) {
    for (const name of Object.keys(auth.toolsetScopes)) {
      const bad = toolsetNameProblem(name);
      if (bad) out.push({ code: "CONFIG_INVALID", path: ["auth", "toolsetScopes", name], message: bad });
    }
  }
  return out;
}
