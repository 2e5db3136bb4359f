/**
 * OAuth client credentials for one upstream (`auth: { kind: oauth, clientId, clientSecret, scope, tokenUrl }`): an
 * SDK `AuthProvider` that gets a token from the token endpoint (given, or discovered from the upstream's protected
 * resource metadata), keeps it until shortly before it expires, and drops it when the upstream answers 401 — the
 * transport then asks again and retries once. The token request itself is the SDK's (`fetchToken` with its
 * `ClientCredentialsProvider`), so client authentication and error parsing follow the SDK.
 */
import {
  ClientCredentialsProvider,
  discoverOAuthServerInfo,
  fetchToken,
  type AuthorizationServerMetadata,
  type AuthProvider,
} from "@modelcontextprotocol/client";
import type { Clock } from "../../clock.js";
import { McpHostError, messageOf } from "../../errors.js";
import type { SecretRedactor } from "../../secret-redactor.js";

/** The settings of an `oauth` auth entry. */
export interface ClientCredentialsSettings {
  clientId: string;
  clientSecret: string;
  scope?: string;
  /** The token endpoint; default: discovered from the upstream's authorization metadata. */
  tokenUrl?: string;
}

/** A token is renewed this long before the expiry its endpoint announced. */
const RENEW_EARLY_MS = 30_000;

/**
 * @example
 * const provider = clientCredentialsAuth("runbooks", "https://runbooks.example.com/mcp", { clientId, clientSecret, tokenUrl }, { clock: systemClock, redactor });
 * new StreamableHTTPClientTransport(url, { authProvider: provider });
 */
export function clientCredentialsAuth(
  server: string,
  serverUrl: string,
  settings: ClientCredentialsSettings,
  deps: { clock: Clock; redactor: SecretRedactor },
): AuthProvider {
  const { clock, redactor } = deps;
  let current: { token: string; renewAt: number } | undefined;
  let fetching: Promise<string> | undefined;
  const provider = new ClientCredentialsProvider({
    clientId: settings.clientId,
    clientSecret: settings.clientSecret,
    ...(settings.scope === undefined ? {} : { scope: settings.scope }),
  });

  const endpoint = async (): Promise<{ url: URL; metadata: AuthorizationServerMetadata }> => {
    if (settings.tokenUrl !== undefined) {
      const url = new URL(settings.tokenUrl);
      return { url: new URL(url.origin), metadata: { issuer: url.origin, token_endpoint: url.href } as AuthorizationServerMetadata };
    }
    const info = await discoverOAuthServerInfo(serverUrl);
    if (!info.authorizationServerMetadata) throw new Error("the server's authorization metadata names no token endpoint; set auth.tokenUrl");
    return { url: new URL(info.authorizationServerUrl), metadata: info.authorizationServerMetadata };
  };

  const fetchNew = async (): Promise<string> => {
    try {
      const { url, metadata } = await endpoint();
      const tokens = await fetchToken(provider, url, { metadata, resource: new URL(serverUrl), ...(settings.scope ? { scope: settings.scope } : {}) });
      // Taught before it is used: nothing that echoes it (the upstream, a log line, an error) may repeat it.
      redactor.learn(tokens.access_token, ...(typeof tokens.refresh_token === "string" ? [tokens.refresh_token] : []));
      const lifetimeMs = typeof tokens.expires_in === "number" ? tokens.expires_in * 1000 : Number.POSITIVE_INFINITY;
      current = { token: tokens.access_token, renewAt: clock.now() + Math.max(0, lifetimeMs - RENEW_EARLY_MS) };
      return tokens.access_token;
    } catch (error) {
      // The endpoint's answer is quoted (it names the OAuth error), never the secret or a URL.
      throw new McpHostError(
        "MCP_CALL_FAILED",
        `server "${server}": getting an OAuth token (client credentials) failed: ${redactor.redact(messageOf(error))}`,
        {
          server,
          cause: error,
        },
      );
    }
  };

  return {
    token: async () => {
      if (current && clock.now() < current.renewAt) return current.token;
      fetching ??= fetchNew().finally(() => (fetching = undefined));
      return fetching;
    },
    onUnauthorized: async () => {
      current = undefined; // the upstream refused the token: the transport's retry gets a new one
    },
  };
}
