/**
 * An upstream's credentials, turned into what its connection sends (docs/design.md §11): static `headers`, a bearer
 * token, OAuth client credentials, or a kind another extension contributes (`authStrategies`, whose `headers()`
 * runs before every request). These are always the deployment's credentials: nothing here sees the downstream
 * caller's request, so a caller's token can never reach an upstream (the MCP spec forbids passing it through).
 */
import type { AuthProvider, FetchLike } from "@modelcontextprotocol/client";
import type { Clock } from "../../clock.js";
import { McpHostError, messageOf } from "../../errors.js";
import type { AuthStrategy } from "../../extension/types.js";
import type { GatewayServerConfig } from "../gateway-options.js";
import { clientCredentialsAuth } from "./client-credentials.js";

/** The auth kinds built into the gateway; any other kind names a strategy an extension contributes. */
export const BUILT_IN_AUTH_KINDS: readonly string[] = ["bearer", "oauth"];

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

/** A fetch that adds the strategy's headers, asked for fresh before every request. */
function strategyFetch(server: string, kind: string, headers: () => unknown): FetchLike {
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
    for (const [name, value] of Object.entries(extra)) merged.set(name, value);
    return fetch(url, { ...init, headers: merged });
  };
}

function customCredentials(server: string, auth: { kind: string }, strategies: Readonly<Record<string, AuthStrategy>>): UpstreamCredentials {
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
  return { fetch: strategyFetch(server, auth.kind, () => made.headers()) };
}

/**
 * The credentials of one http server; throws McpHostError (MCP_AUTH_CONFLICT, MCP_AUTH_STRATEGY_UNKNOWN listing the
 * registered kinds, MCP_AUTH_STRATEGY_INVALID) without ever quoting a secret.
 * @example
 * upstreamCredentials("kb", { url, auth: { kind: "bearer", token } }, ctx.authStrategies(), systemClock) // { headers: { Authorization: "Bearer …" } }
 */
export function upstreamCredentials(
  server: string,
  config: GatewayServerConfig,
  strategies: Readonly<Record<string, AuthStrategy>>,
  clock: Clock,
): UpstreamCredentials {
  const headers = { ...(config.headers ?? {}) };
  const auth = config.auth;
  if (auth === undefined) return Object.keys(headers).length > 0 ? { headers } : {};
  if (Object.keys(headers).length > 0) {
    throw new McpHostError("MCP_AUTH_CONFLICT", `server "${server}" sets both headers and auth; credentials go in one of them`, { server });
  }
  if (auth.kind === "bearer") return { headers: { Authorization: `Bearer ${text(server, "token", auth.token)}` } };
  if (auth.kind === "oauth") {
    const settings = {
      clientId: text(server, "clientId", auth.clientId),
      clientSecret: text(server, "clientSecret", auth.clientSecret),
      ...(auth.scope === undefined ? {} : { scope: text(server, "scope", auth.scope) }),
      ...(auth.tokenUrl === undefined ? {} : { tokenUrl: text(server, "tokenUrl", auth.tokenUrl) }),
    };
    return { authProvider: clientCredentialsAuth(server, config.url ?? "", settings, clock) };
  }
  return customCredentials(server, auth, strategies);
}
