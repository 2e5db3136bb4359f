/**
 * OAuth client credentials for one upstream (`auth: { kind: oauth, clientId, clientSecret, scope, tokenUrl, issuer }`):
 * an SDK `AuthProvider` that gets a token from the token endpoint, keeps it until shortly before it expires, and
 * drops it when the upstream answers 401 — the transport then asks again and retries once. The token request itself
 * is the SDK's (`fetchToken` with its `ClientCredentialsProvider`), so client authentication and error parsing follow
 * the SDK. The client secret goes only where the deployment said (docs/design.md §11): to `tokenUrl`, or to the token
 * endpoint that the configured `issuer`'s own metadata names on the issuer's origin — never to one the upstream
 * server picks (its protected-resource metadata is not read).
 */
import {
  ClientCredentialsProvider,
  discoverAuthorizationServerMetadata,
  fetchToken,
  type AuthorizationServerMetadata,
  type AuthProvider,
} from "@modelcontextprotocol/client";
import type { Clock } from "../../clock.js";
import { McpHostError, messageOf } from "../../errors.js";
import type { SecretRedactor } from "../../secret-redactor.js";
import { defined } from "../../defined.js";

/** The settings of an `oauth` auth entry: `tokenUrl`, `issuer`, or both. */
export interface ClientCredentialsSettings {
  clientId: string;
  clientSecret: string;
  scope?: string;
  /** The token endpoint. */
  tokenUrl?: string;
  /**
   * The authorization server's issuer: without `tokenUrl`, its RFC 8414 metadata (which must name this issuer) gives
   * the token endpoint, which must be on the issuer's origin. Also the issuer the SDK binds the credentials to.
   */
  issuer?: string;
}

/** Where the secret may go, from the settings alone (tokenUrl) or from the issuer's own metadata. */
async function tokenEndpointOf(settings: ClientCredentialsSettings): Promise<{ url: URL; metadata: AuthorizationServerMetadata }> {
  if (settings.tokenUrl !== undefined) {
    const url = new URL(settings.tokenUrl);
    const issuer = settings.issuer ?? url.origin;
    return { url: new URL(issuer), metadata: { issuer, token_endpoint: url.href } as AuthorizationServerMetadata };
  }
  if (settings.issuer === undefined) throw new Error("neither auth.tokenUrl nor auth.issuer is set");
  const issuer = new URL(settings.issuer);
  // The SDK checks that the metadata names this very issuer (RFC 8414 §3.3) and follows no redirect off its origin.
  const metadata = await discoverAuthorizationServerMetadata(settings.issuer).catch((error: unknown) => {
    if ((error as { name?: unknown }).name === "ZodError") throw new Error("the issuer's metadata is not RFC 8414 authorization server metadata");
    throw error;
  });
  if (metadata === undefined) throw new Error("the issuer publishes no authorization server metadata; set auth.tokenUrl");
  if (typeof metadata.token_endpoint !== "string" || !URL.canParse(metadata.token_endpoint)) {
    throw new Error("the issuer's metadata names no token endpoint; set auth.tokenUrl");
  }
  if (new URL(metadata.token_endpoint).origin !== issuer.origin) {
    throw new Error(
      "the issuer's metadata names a token endpoint on another origin; the client secret is not sent there (set auth.tokenUrl to it if it is the right one)",
    );
  }
  return { url: issuer, metadata };
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
  if (settings.tokenUrl === undefined && settings.issuer === undefined) {
    throw new McpHostError(
      "MCP_OAUTH_ENDPOINT_REQUIRED",
      `server "${server}": auth (oauth) needs tokenUrl or issuer; without them the upstream server would choose where the client secret is sent`,
      { server },
    );
  }
  const provider = new ClientCredentialsProvider({
    clientId: settings.clientId,
    clientSecret: settings.clientSecret,
    // The SDK binds the credentials to this issuer: a token request whose metadata names another is refused.
    expectedIssuer: settings.issuer ?? new URL(settings.tokenUrl as string).origin,
    ...defined({ scope: settings.scope }),
  });

  const fetchNew = async (): Promise<string> => {
    try {
      const { url, metadata } = await tokenEndpointOf(settings);
      const tokens = await fetchToken(provider, url, { metadata, resource: new URL(serverUrl), ...(settings.scope ? { scope: settings.scope } : {}) });
      // Taught before it is used: nothing that echoes it (the upstream, a log line, an error) may repeat it.
      redactor.learn(tokens.access_token, ...(typeof tokens.refresh_token === "string" ? [tokens.refresh_token] : []));
      const lifetimeMs = typeof tokens.expires_in === "number" ? tokens.expires_in * 1000 : Number.POSITIVE_INFINITY;
      current = { token: tokens.access_token, renewAt: clock.now() + Math.max(0, lifetimeMs - RENEW_EARLY_MS) };
      return tokens.access_token;
    } catch (error) {
      // The endpoint's answer is quoted (it names the OAuth error), never the secret or a URL. A redirect is not
      // followed off the endpoint's origin (the SDK's rule): say so rather than quote the parse error it leads to.
      if (/^HTTP 30[12378]\b/.test(messageOf(error))) {
        throw new McpHostError(
          "MCP_CALL_FAILED",
          `server "${server}": getting an OAuth token (client credentials) failed: the token endpoint answered with a redirect, which is not followed; set auth.tokenUrl to the endpoint itself`,
          { server, cause: error },
        );
      }
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
