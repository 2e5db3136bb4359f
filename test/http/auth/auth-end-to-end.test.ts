// The building blocks end to end with real clients: an express app on 127.0.0.1:0 with protectedResourceMetadata
// and bearerAuth in front of a real MCP endpoint (the SDK's createMcpHandler), the fixture authorization server
// minting tokens. The SDK v2 client with a static token in both eras, the SDK v1 client with a bearer header, and
// the SDK v2 client's own client-credentials provider doing the whole discovery dance from the 401 to
// /mcp?only=x, the selection's query surviving the round trip.
import { afterEach, beforeEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { Client, ClientCredentialsProvider, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as V1Transport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { introspectionVerifier, jwtVerifier } from "../../../src/http/auth/index.js";
import { startAuthorizationServer, type AuthorizationServer } from "../../fixtures/auth/authorization-server.js";
import { Cleanup, startProtectedApp, type ProtectedApp, type Whoami } from "../../fixtures/auth/protected-app.js";

const cleanup = new Cleanup();
let as: AuthorizationServer;
beforeEach(async () => {
  as = await startAuthorizationServer({
    clients: {
      "test-client": { secret: "test-client-secret", scopes: ["mcp:read", "mcp:write"] },
      "opaque-client": { secret: "opaque-secret", scopes: ["mcp:read"], format: "opaque" },
    },
  });
  cleanup.add(() => as.close());
});
afterEach(() => cleanup.run());

type Era = "legacy" | "modern";
const eraOptions = (era: Era) => (era === "modern" ? { versionNegotiation: { mode: { pin: "2026-07-28" as const } } } : {});

async function jwtApp(): Promise<ProtectedApp> {
  return startProtectedApp(cleanup, {
    verifier: (baseUrl) => jwtVerifier({ issuer: as.issuer, audience: `${baseUrl}/mcp`, jwksUri: as.jwksUri }),
    metadata: { authorizationServers: [as.issuer], scopesSupported: ["mcp:read", "mcp:write"] },
    requiredScopes: ["mcp:read"],
  });
}

async function whoami(client: { callTool(p: { name: string; arguments: Record<string, unknown> }): Promise<unknown> }): Promise<Whoami> {
  const result = (await client.callTool({ name: "whoami", arguments: {} })) as { content: Array<{ type: string; text: string }> };
  return JSON.parse(result.content[0]!.text) as Whoami;
}

async function connectV2(url: URL, era: Era, transportOptions: ConstructorParameters<typeof StreamableHTTPClientTransport>[1]): Promise<Client> {
  const client = new Client({ name: `v2-${era}`, version: "1.0.0" }, eraOptions(era));
  await client.connect(new StreamableHTTPClientTransport(url, transportOptions));
  cleanup.add(() => client.close());
  return client;
}

describe("auth end to end with real MCP clients", { timeout: 60_000 }, () => {
  for (const era of ["legacy", "modern"] as const) {
    it(`lets the SDK v2 client (${era === "modern" ? "pinned 2026-07-28" : "default 2025 handshake"}) in with a static bearer token`, async () => {
      const app = await jwtApp();
      const token = await as.mint({ sub: "alice", client_id: "static-client", scope: "mcp:read", aud: `${app.baseUrl}/mcp` });
      const client = await connectV2(app.mcpUrl("only=x"), era, { requestInit: { headers: { authorization: `Bearer ${token}` } } });
      assert.equal(client.getProtocolEra(), era);
      assert.deepEqual(await whoami(client), { subject: "alice", clientId: "static-client", scopes: ["mcp:read"], query: "?only=x", era });
    });
  }

  it("lets the SDK v1 client in with a bearer header", async () => {
    const app = await jwtApp();
    const token = await as.mint({ sub: "bob", client_id: "v1-client", scope: "mcp:read", aud: `${app.baseUrl}/mcp` });
    const client = new V1Client({ name: "v1", version: "1.32.2" });
    await client.connect(new V1Transport(app.mcpUrl("only=x"), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    cleanup.add(() => client.close());
    assert.deepEqual(await whoami(client as never), { subject: "bob", clientId: "v1-client", scopes: ["mcp:read"], query: "?only=x", era: "legacy" });
  });

  it("keeps out clients without a token, with a token for another resource, or without the required scope", async () => {
    const app = await jwtApp();
    const attempts: Record<string, string | undefined> = {
      "no token": undefined,
      "another resource": await as.mint({ aud: "https://other.example.test/mcp" }),
      "no mcp:read": await as.mint({ aud: `${app.baseUrl}/mcp`, scope: "mcp:write" }),
    };
    const outcomes: Record<string, string> = {};
    for (const [label, token] of Object.entries(attempts)) {
      const headers: Record<string, string> = token === undefined ? {} : { authorization: `Bearer ${token}` };
      const client = new Client({ name: "v2", version: "1.0.0" });
      const failure = await client.connect(new StreamableHTTPClientTransport(app.mcpUrl("only=x"), { requestInit: { headers } })).then(
        () => "connected",
        (error: Error) => error.message,
      );
      outcomes[label] = failure;
      await client.close();
    }
    const discover = "Get a token from the authorization server named in the resource metadata (the resource_metadata URL in WWW-Authenticate) and retry.";
    const posting = (message: string) => `Error POSTing to endpoint: ${JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null })}`;
    assert.deepEqual(outcomes, {
      "no token": posting(`Unauthorized: this endpoint needs an OAuth access token, sent as "Authorization: Bearer <token>". ${discover}`),
      "another resource": posting(`Unauthorized: the access token is invalid. ${discover}`),
      "no mcp:read": 'Insufficient scope: required "mcp:read"',
    });
  });

  for (const era of ["legacy", "modern"] as const) {
    it(`lets the SDK v2 client's client-credentials provider discover everything from the 401 and reach /mcp?only=x (${era})`, async () => {
      const app = await jwtApp();
      const provider = new ClientCredentialsProvider({ clientId: "test-client", clientSecret: "test-client-secret", expectedIssuer: as.issuer });
      const client = await connectV2(app.mcpUrl("only=x"), era, { authProvider: provider });
      assert.deepEqual(await whoami(client), { subject: "test-client", clientId: "test-client", scopes: ["mcp:read"], query: "?only=x", era });

      assert.deepEqual(
        app.metadataRequests,
        ["/.well-known/oauth-protected-resource/mcp?only=x"],
        "the metadata was read at the URL from the challenge, query kept",
      );
      assert.equal(as.calls.metadata, 1);
      assert.equal(as.calls.token, 1);
      const tokenRequest = as.requests.find((r) => r.endpoint === "token")!;
      assert.deepEqual(Object.fromEntries(new URLSearchParams(tokenRequest.body)), {
        grant_type: "client_credentials",
        scope: "mcp:read",
        resource: `${app.baseUrl}/mcp`,
      });
      assert.equal(tokenRequest.headers.authorization, `Basic ${Buffer.from("test-client:test-client-secret").toString("base64")}`);
      assert.deepEqual(await whoami(client), { subject: "test-client", clientId: "test-client", scopes: ["mcp:read"], query: "?only=x", era });
      assert.equal(as.calls.token, 1, "the token is reused");
    });
  }

  it("serves opaque tokens through introspection to a pinned 2026-07-28 client", async () => {
    const app = await startProtectedApp(cleanup, {
      verifier: (baseUrl) =>
        introspectionVerifier({
          endpoint: as.introspectionEndpoint,
          clientId: "mcp-host",
          clientSecret: "mcp-host-introspection-secret",
          audience: `${baseUrl}/mcp`,
        }),
      metadata: { authorizationServers: [as.issuer] },
    });
    const provider = new ClientCredentialsProvider({ clientId: "opaque-client", clientSecret: "opaque-secret", expectedIssuer: as.issuer });
    const client = await connectV2(app.mcpUrl("only=y"), "modern", { authProvider: provider });
    assert.deepEqual(await whoami(client), { subject: "opaque-client", clientId: "opaque-client", scopes: ["mcp:read"], query: "?only=y", era: "modern" });
    assert.equal(as.calls.introspect, 1, "later requests with the same token hit the cache");
  });
});
