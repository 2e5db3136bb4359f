/**
 * The verifier for opaque access tokens: RFC 7662 introspection at the authorization server, authenticated with
 * this server's own client credentials (HTTP Basic). An active answer counts only when its `aud` names this server
 * (`audience` is required: a token the authorization server issued for another resource is active too). Answers are
 * cached by a hash of the token, never longer than
 * the token's `exp` or `cacheMaxSeconds`; refusals briefly, so a flood of one bad token costs the authorization
 * server one call; outages never, so the next request tries again.
 */
import { systemClock, type Clock } from "../../clock.js";
import { isMcpHostError, McpHostError } from "../../errors.js";
import { endpointUrl } from "./endpoint-url.js";
import { createTtlCache, tokenKey } from "./introspection-cache.js";
import { authConfigError, insufficientScope, missingScopes, tokenRefused, verifierUnavailable, type TokenRefusalReason } from "./refusals.js";
import { clientIdFromClaims, frozenCopy, matchedAudience, resourceOf, scopesFromClaims, type TokenVerifier, type VerifiedCaller } from "./verified-caller.js";
import { defined } from "../../defined.js";

export interface IntrospectionVerifierOptions {
  /** The RFC 7662 introspection endpoint. */
  endpoint: string | URL;
  /** This server's client id at the authorization server. */
  clientId: string;
  /** This server's client secret (resolve it from a secret reference; it never appears in a message). */
  clientSecret: string;
  /** Keep an active answer at most this long (default 300 s), and never past the token's `exp`. */
  cacheMaxSeconds?: number;
  /** Keep a refusal (`active: false`, wrong audience, no subject) this long (default 10 s, capped by cacheMaxSeconds). */
  inactiveCacheSeconds?: number;
  /** At most this many cached answers (default 10000); the oldest go first. */
  maxCacheEntries?: number;
  /** Scopes every token must carry. */
  requiredScopes?: string[];
  /**
   * This server's resource identifier(s): the answer's `aud` (a string or a list) must name one of them. Required —
   * without it, an active token issued for any other resource of the same authorization server would be accepted.
   */
  audience: string | string[];
  /** Abort an introspection request after this long (default 5000 ms). */
  fetchTimeoutMs?: number;
  /** Accept a plain-http endpoint off loopback (default false). */
  allowInsecureHttp?: boolean;
  /** The time source for cache deadlines and `exp` (default the system clock). */
  clock?: Clock;
}

type Outcome = { kind: "caller"; caller: VerifiedCaller } | { kind: "refused"; reason: TokenRefusalReason };

function formEncode(value: string): string {
  return encodeURIComponent(value).replace(/%20/g, "+");
}

function seconds(value: number | undefined, fallback: number, option: string): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) throw authConfigError(`introspectionVerifier: \`${option}\` must be a number ≥ 0`);
  return value;
}

function checkOptions(options: IntrospectionVerifierOptions) {
  const url = endpointUrl("introspectionVerifier", "endpoint", options?.endpoint, options?.allowInsecureHttp);
  if (typeof options.clientId !== "string" || options.clientId.length === 0)
    throw authConfigError("introspectionVerifier: `clientId` is required: this server's client id at the authorization server");
  if (typeof options.clientSecret !== "string" || options.clientSecret.length === 0)
    throw authConfigError("introspectionVerifier: `clientSecret` is required (give it as a secret reference)");
  if (options.audience === undefined) {
    throw authConfigError(
      "introspectionVerifier: `audience` is required: this server's resource identifier, which an introspected token's `aud` must name (else a token issued for another resource is accepted)",
    );
  }
  const audience = typeof options.audience === "string" ? [options.audience] : Array.isArray(options.audience) ? [...options.audience] : [];
  if (audience.length === 0 || audience.some((a) => typeof a !== "string" || a.length === 0)) {
    throw authConfigError("introspectionVerifier: `audience` must be a non-empty string or list of strings");
  }
  const cacheMaxSeconds = seconds(options.cacheMaxSeconds, 300, "cacheMaxSeconds");
  return {
    url,
    audience,
    cacheMaxSeconds,
    inactiveCacheSeconds: Math.min(seconds(options.inactiveCacheSeconds, 10, "inactiveCacheSeconds"), cacheMaxSeconds),
    maxCacheEntries: Math.floor(seconds(options.maxCacheEntries, 10_000, "maxCacheEntries")),
    timeoutMs: Math.max(1, Math.round(seconds(options.fetchTimeoutMs, 5_000, "fetchTimeoutMs"))),
    authorization: `Basic ${Buffer.from(`${formEncode(options.clientId)}:${formEncode(options.clientSecret)}`).toString("base64")}`,
  };
}

async function postIntrospection(url: URL, authorization: string, token: string, timeoutMs: number): Promise<Record<string, unknown>> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: "POST",
      redirect: "manual",
      // Real time on purpose: it bounds one real network exchange, as the server's own socket timeouts do.
      signal: AbortSignal.timeout(timeoutMs),
      headers: { authorization, "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body: new URLSearchParams({ token, token_type_hint: "access_token" }).toString(),
    });
  } catch (error) {
    const timedOut = (error as { name?: string }).name === "TimeoutError";
    throw verifierUnavailable(
      timedOut ? `the introspection endpoint did not answer within ${timeoutMs} ms` : "the introspection endpoint could not be reached",
      error,
    );
  }
  if (response.status === 401 || response.status === 403) {
    await response.body?.cancel();
    throw verifierUnavailable(`the introspection endpoint refused this server's client credentials (HTTP ${response.status}); check clientId and clientSecret`);
  }
  if (response.status !== 200) {
    await response.body?.cancel();
    throw verifierUnavailable(`the introspection endpoint answered HTTP ${response.status}`);
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch (error) {
    const timedOut = (error as { name?: string }).name === "TimeoutError";
    throw verifierUnavailable(
      timedOut ? `the introspection endpoint did not answer within ${timeoutMs} ms` : "the introspection endpoint did not return JSON",
      error,
    );
  }
  if (typeof body !== "object" || body === null || typeof (body as { active?: unknown }).active !== "boolean") {
    throw verifierUnavailable("the introspection endpoint did not return an RFC 7662 answer (no boolean `active`)");
  }
  return body as Record<string, unknown>;
}

function outcomeOf(answer: Record<string, unknown>, audience: readonly string[]): Outcome {
  if (answer.active !== true) return { kind: "refused", reason: "inactive" };
  const claims = frozenCopy(answer);
  const sub = claims.sub;
  if (typeof sub !== "string" || sub.length === 0) return { kind: "refused", reason: "noSubject" };
  // No `aud`, or one naming only other resources, is refused: the token was not issued for this server.
  const matched = matchedAudience(claims, audience);
  if (matched === undefined) return { kind: "refused", reason: "audience" };
  const resource = resourceOf(matched);
  const exp = claims.exp;
  return {
    kind: "caller",
    caller: {
      subject: sub,
      clientId: clientIdFromClaims(claims),
      scopes: scopesFromClaims(claims),
      ...(typeof exp === "number" && Number.isFinite(exp) ? { expiresAt: exp } : {}),
      claims,
      ...defined({ resource }),
    },
  };
}

/**
 * A verifier for opaque tokens by RFC 7662 introspection.
 * @example
 * const verifier = introspectionVerifier({ endpoint: "https://idp.example.com/introspect", clientId: "mcp-host", clientSecret, audience: "https://mcp.example.com/mcp" });
 * const caller = await verifier.verify(token);
 */
export function introspectionVerifier(options: IntrospectionVerifierOptions): TokenVerifier {
  const settings = checkOptions(options);
  const requiredScopes = [...(options.requiredScopes ?? [])];
  const clock = options.clock ?? systemClock;
  const cache = createTtlCache<Outcome>(settings.maxCacheEntries);

  const load = async (key: string, token: string): Promise<Outcome> => {
    const outcome = outcomeOf(await postIntrospection(settings.url, settings.authorization, token, settings.timeoutMs), settings.audience);
    const now = clock.now();
    const until =
      outcome.kind === "refused"
        ? now + settings.inactiveCacheSeconds * 1000
        : Math.min(now + settings.cacheMaxSeconds * 1000, outcome.caller.expiresAt === undefined ? Infinity : outcome.caller.expiresAt * 1000);
    cache.set(key, outcome, until, now);
    return outcome;
  };

  return {
    kind: "introspection",
    requiredScopes,
    async verify(token: string): Promise<VerifiedCaller> {
      if (typeof token !== "string" || token.length === 0) throw tokenRefused("malformed");
      const key = tokenKey(token);
      let outcome: Outcome;
      try {
        outcome = cache.get(key, clock.now()) ?? (await cache.once(key, () => load(key, token)));
      } catch (error) {
        throw isMcpHostError(error)
          ? error
          : new McpHostError("AUTH_UNAVAILABLE", "tokens cannot be verified right now: introspection failed", { cause: error });
      }
      if (outcome.kind === "refused") throw tokenRefused(outcome.reason);
      const { caller } = outcome;
      if (caller.expiresAt !== undefined && caller.expiresAt * 1000 <= clock.now()) throw tokenRefused("expired");
      const missing = missingScopes(requiredScopes, caller.scopes);
      if (missing.length > 0) throw insufficientScope(missing);
      return { ...caller, scopes: [...caller.scopes] };
    },
  };
}
