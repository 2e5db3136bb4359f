/**
 * An upstream's credentials, turned into what its connection sends (docs/design.md §11): static `headers`, a bearer
 * token, OAuth client credentials, or a kind another extension contributes (`authStrategies`, whose `headers()`
 * runs before every request). These are always the deployment's credentials: nothing here sees the downstream
 * caller's request, so a caller's token can never reach an upstream (the MCP spec forbids passing it through).
 * Every credential used or obtained here is taught to the gateway's SecretRedactor, so no output repeats it.
 */
import type { AuthProvider, FetchLike } from "@modelcontextprotocol/client";
import type { Clock } from "../../clock.js";
import { McpHostError, messageOf } from "../../errors.js";
import type { AuthStrategy } from "../../extension/types.js";
import type { SecretRedactor } from "../../secret-redactor.js";
import type { GatewayServerConfig } from "../gateway-options.js";
import { clientCredentialsAuth } from "./client-credentials.js";

/** The auth kinds built into the gateway; any other kind names a strategy an extension contributes. */
export const BUILT_IN_AUTH_KINDS: readonly string[] = ["bearer", "oauth"];

/** What credentials are made with: the contributed strategies, the clock tokens expire on, the redactor to teach. */
export interface CredentialDeps {
  strategies: Readonly<Record<string, AuthStrategy>>;
  clock: Clock;
  redactor: SecretRedactor;
}

/** What an http server's spec gets from its credentials. */
export interface UpstreamCredentials {
  headers?: Record<string, string>;
  authProvider?: AuthProvider;
  fetch?: FetchLike;
}

function text(server: string, key: string, value: unknown): string {
  if (typeof value === "string" && value !== "") return value;
  throw new McpHostError("CONFIG_INVALID", `server "${server}": auth.${key} must be a non-empty string`, { server });
}

function checkedHeaders(server: string, kind: string, value: unknown): Record<string, string> {
  const ok = typeof value === "object" && value !== null && !Array.isArray(value) && Object.values(value).every((v) => typeof v === "string");
  if (ok) return value as Record<string, string>;
  throw new McpHostError(
    "MCP_AUTH_STRATEGY_INVALID",
    `server "${server}": the auth strategy "${kind}" returned headers that are not an object of strings; fix the extension that contributes it`,
    { server },
  );
}

/** A fetch that adds the strategy's headers, asked for fresh before every request (each value taught to the redactor). */
function strategyFetch(server: string, kind: string, headers: () => unknown, redactor: SecretRedactor): FetchLike {
  return async (url, init) => {
    let extra: Record<string, string>;
    try {
      extra = checkedHeaders(server, kind, await headers());
    } catch (error) {
      if (error instanceof McpHostError) throw error;
      throw new McpHostError("MCP_AUTH_STRATEGY_INVALID", `server "${server}": the auth strategy "${kind}" failed: ${messageOf(error)}`, {
        server,
        cause: error,
      });
    }
    const merged = new Headers(init?.headers);
    redactor.learn(...Object.values(extra));
    for (const [name, value] of Object.entries(extra)) merged.set(name, value);
    return fetch(url, { ...init, headers: merged });
  };
}

/** Every string setting of a contributed kind is a credential (docs/design.md §12), wherever it sits. */
function settingStrings(value: unknown, depth = 0): string[] {
  if (typeof value === "string") return [value];
  if (typeof value !== "object" || value === null || depth > 8) return [];
  return Object.values(value).flatMap((v) => settingStrings(v, depth + 1));
}

function customCredentials(server: string, auth: { kind: string }, deps: CredentialDeps): UpstreamCredentials {
  const { kind: _kind, ...settings } = auth as Record<string, unknown>;
  deps.redactor.learn(...settingStrings(settings));
  const strategies = deps.strategies;
  const strategy = strategies[auth.kind];
  if (strategy === undefined) {
    const known = [...new Set([...BUILT_IN_AUTH_KINDS, ...Object.keys(strategies)])].sort();
    throw new McpHostError(
      "MCP_AUTH_STRATEGY_UNKNOWN",
      `server "${server}": auth kind "${auth.kind}" is not registered; the registered kinds are ${known.join(", ")} (install the extension that contributes it)`,
      { server },
    );
  }
  let made: ReturnType<AuthStrategy>;
  try {
    made = strategy(auth as Readonly<Record<string, unknown>>);
  } catch (error) {
    throw new McpHostError("MCP_AUTH_STRATEGY_INVALID", `server "${server}": the auth strategy "${auth.kind}" rejected its settings: ${messageOf(error)}`, {
      server,
      cause: error,
    });
  }
  if (typeof made?.headers !== "function") {
    throw new McpHostError(
      "MCP_AUTH_STRATEGY_INVALID",
      `server "${server}": the auth strategy "${auth.kind}" must return { headers() { … } }; fix the extension that contributes it`,
      { server },
    );
  }
  return { fetch: strategyFetch(server, auth.kind, () => made.headers(), deps.redactor) };
}

/**
 * The credentials of one http server; throws McpHostError (MCP_AUTH_CONFLICT, MCP_AUTH_STRATEGY_UNKNOWN listing the
 * registered kinds, MCP_AUTH_STRATEGY_INVALID) without ever quoting a secret.
 * @example
 * upstreamCredentials("kb", { url, auth: { kind: "bearer", token } }, { strategies: ctx.authStrategies(), clock: systemClock, redactor }) // { headers: { Authorization: "Bearer …" } }
 */
export function upstreamCredentials(server: string, config: GatewayServerConfig, deps: CredentialDeps): UpstreamCredentials {
  const headers = { ...(config.headers ?? {}) };
  deps.redactor.learn(...Object.values(headers));
  const auth = config.auth;
  if (auth === undefined) return Object.keys(headers).length > 0 ? { headers } : {};
  if (Object.keys(headers).length > 0) {
    throw new McpHostError("MCP_AUTH_CONFLICT", `server "${server}" sets both headers and auth; credentials go in one of them`, { server });
  }
  if (auth.kind === "bearer") {
    const token = text(server, "token", auth.token);
    deps.redactor.learn(token);
    return { headers: { Authorization: `Bearer ${token}` } };
  }
  if (auth.kind === "oauth") {
    const settings = {
      clientId: text(server, "clientId", auth.clientId),
      clientSecret: text(server, "clientSecret", auth.clientSecret),
      ...(auth.scope === undefined ? {} : { scope: text(server, "scope", auth.scope) }),
      ...(auth.tokenUrl === undefined ? {} : { tokenUrl: text(server, "tokenUrl", auth.tokenUrl) }),
      ...(auth.issuer === undefined ? {} : { issuer: text(server, "issuer", auth.issuer) }),
    };
    deps.redactor.learn(settings.clientSecret);
    return { authProvider: clientCredentialsAuth(server, config.url ?? "", settings, deps) };
  }
  return customCredentials(server, auth, deps);
}
