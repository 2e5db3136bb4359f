// A guarded host end to end with real MCP clients (docs/design.md §9; issue 9 item 10): the SDK v2 client with a
// bearer token in both eras, the SDK v1 client, and the whole discovery dance with the SDK v2 client's own OAuth
// provider (client credentials) against the fixture authorization server — from the 401, through the
// protected-resource metadata (read at the challenge's URL, query kept) and the token endpoint (resource = the
// MCP URL), to a guarded `?only=` selection; and a step-up from 403 insufficient_scope to a guarded toolset.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Client, ClientCredentialsProvider, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { buildHost } from "../../src/host/build-host.js";
import { createHostApp } from "../../src/http/app.js";
import type { HostAuthOptions } from "../../src/http/auth/host-auth-options.js";
import { createLogger } from "../../src/logger.js";
import { authExtensions, authTestFile, bearer, type Runs } from "../helpers/auth-host.js";
import { callText, connectV1, connectV2, eraOptions, listedTools, type ToolClient } from "../helpers/http-host.js";

const file = authTestFile({
  server: {
    clients: {
      "reader-app": { secret: "reader-secret", scopes: ["mcp:read"] },
      "admin-app": { secret: "admin-secret", scopes: ["mcp:read", "mcp:admin"] },
    },
  },
});
const { cleanup, watch } = file;

async function whoami(client: ToolClient): Promise<{ subject: unknown; clientId: unknown; scopes: unknown; active: unknown }> {
  const seen = JSON.parse(await callText(client, "whoami")) as {
    auth: { clientId: string; scopes: string[]; extra: { subject: string } };
    selection: { active: string[] };
  };
  return { subject: seen.auth.extra.subject, clientId: seen.auth.clientId, scopes: seen.auth.scopes, active: seen.selection.active };
}

interface OriginHost {
  origin: string;
  runs: Runs;
  metadataRequests: string[];
  url(query: string): URL;
}

/**
 * A host whose JWT audience is its own MCP URL (what an RFC 8707 client asks the authorization server for): the
 * port is bound first, then the app is made with the origin it now knows.
 */
async function serveAtOwnOrigin(auth: Partial<HostAuthOptions> = {}): Promise<OriginHost> {
  const runs: Runs = [];
  const logger = createLogger({ level: "debug", sink: (record) => watch.records.push(record) });
  const host = buildHost(authExtensions(runs), { name: "guarded", logger });
  await host.start();
  cleanup.add(() => host.stop());
  const http = createServer();
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const hostApp = createHostApp(host, {
    auth: {
      issuer: file.as.issuer,
      audience: `${origin}/mcp`,
      jwksUri: file.as.jwksUri,
      requiredScopes: ["mcp:read"],
      toolsetScopes: { admin: ["mcp:admin"] },
      ...auth,
    },
  });
  const metadataRequests: string[] = [];
  http.on("request", (req, res) => {
    if (req.url?.startsWith("/.well-known/")) metadataRequests.push(req.url);
    hostApp.app(req, res);
  });
  cleanup.add(
    () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  );
  cleanup.add(() => hostApp.close());
  return { origin, runs, metadataRequests, url: (query) => new URL(`${origin}/mcp${query ? `?${query}` : ""}`) };
}

async function connectWithProvider(url: URL, era: "legacy" | "modern", clientId: string, clientSecret: string): Promise<Client> {
  const client = new Client({ name: `oauth-${era}`, version: "1.0.0" }, eraOptions(era));
  const transport = new StreamableHTTPClientTransport(url, {
    authProvider: new ClientCredentialsProvider({ clientId, clientSecret, expectedIssuer: file.as.issuer }),
  });
  await client.connect(transport);
  cleanup.add(async () => {
    if (transport.sessionId !== undefined) await transport.terminateSession().catch(() => {});
    await client.close();
  });
  return client;
}

describe("a guarded host with real clients", { timeout: 90_000 }, () => {
  for (const era of ["legacy", "modern"] as const) {
    it(`lets the SDK v2 client in with a bearer token (${era})`, async () => {
      const served = await file.serve();
      const token = await served.token({ sub: "alice", client_id: "static-app", scope: "mcp:read" });
      const { client } = await connectV2(cleanup, served.at("only=notes"), era, { headers: bearer(token) });
      assert.equal(client.getProtocolEra(), era);
      assert.deepEqual(await listedTools(client), ["list_server_toolsets", "read_note", "whoami"]);
      assert.deepEqual(await whoami(client), { subject: "alice", clientId: "static-app", scopes: ["mcp:read"], active: ["notes"] });
    });
  }

  it("lets the SDK v1 client in with a bearer token", async () => {
    const served = await file.serve();
    const token = await served.token({ sub: "bob", client_id: "v1-app", scope: "mcp:read mcp:admin" });
    const { client } = await connectV1(cleanup, served.at("only=admin,notes"), { headers: bearer(token) });
    assert.deepEqual(await listedTools(client as unknown as ToolClient), ["list_server_toolsets", "read_note", "whoami", "wipe"]);
    assert.equal(await callText(client as unknown as ToolClient, "wipe"), "wiped");
    assert.deepEqual(served.runs, ["admin/wipe bob"]);
  });

  for (const era of ["legacy", "modern"] as const) {
    it(`lets the SDK v2 client's own OAuth provider find its way from the 401 to a guarded ?only= selection (${era})`, async () => {
      const served = await serveAtOwnOrigin();
      const client = await connectWithProvider(served.url("only=notes"), era, "reader-app", "reader-secret");
      assert.deepEqual(await whoami(client), { subject: "reader-app", clientId: "reader-app", scopes: ["mcp:read"], active: ["notes"] });
      assert.deepEqual(served.metadataRequests, ["/.well-known/oauth-protected-resource/mcp?only=notes"], "the metadata was read at the challenge's URL");
      const tokenRequests = file.as.requests.filter((r) => r.endpoint === "token");
      assert.deepEqual(Object.fromEntries(new URLSearchParams(tokenRequests.at(-1)!.body)), {
        grant_type: "client_credentials",
        scope: "mcp:read",
        resource: `${served.origin}/mcp`,
      });
      assert.deepEqual(await listedTools(client), ["list_server_toolsets", "read_note", "whoami"]);
      assert.deepEqual(served.runs, ["notes/whoami reader-app"]);
    });
  }

  for (const era of ["legacy", "modern"] as const) {
    it(`steps up from 403 insufficient_scope to a guarded toolset with the provider (${era})`, async () => {
      const served = await serveAtOwnOrigin();
      const tokensBefore = file.as.calls.token;
      const client = await connectWithProvider(served.url("only=admin"), era, "admin-app", "admin-secret");
      assert.equal(await callText(client, "wipe"), "wiped");
      assert.deepEqual(served.runs, ["admin/wipe admin-app"]);
      const scopes = file.as.requests
        .filter((r) => r.endpoint === "token")
        .slice(-(file.as.calls.token - tokensBefore))
        .map((r) => new URLSearchParams(r.body).get("scope"));
      assert.deepEqual(scopes, ["mcp:read", "mcp:read mcp:admin"], "a token for the required scope first, then the union the 403 asked for");
    });
  }

  it("keeps a provider whose client may not get the scope out of the guarded toolset", async () => {
    const served = await serveAtOwnOrigin();
    await assert.rejects(connectWithProvider(served.url("only=admin"), "modern", "reader-app", "reader-secret").then((c) => c.listTools()));
    assert.deepEqual(served.runs, []);
  });
});
