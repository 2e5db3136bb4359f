// docs/design.md §11 upstream credentials: static headers, `auth: bearer`, OAuth client credentials against a real token
// endpoint on loopback (renewed when the upstream answers 401), a custom kind another extension contributes through
// `authStrategies` (asked afresh for every request), an unknown kind failing start-up with the registered kinds —
// and the downstream caller's token never reaching an upstream, with bearerAuth in front of every selection.
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { NodeHandler, ServerFactory } from "../../src/host/built-server.js";
import { bearerAuth, jwtVerifier } from "../../src/http/auth/index.js";
import { silentLogger } from "../../src/logger.js";
import type { McpExtension } from "../../src/extension/types.js";
import { startAuthorizationServer } from "../fixtures/auth/authorization-server.js";
import { RecordingUpstream } from "../fixtures/upstream/recording-upstream.js";
import { Cleanup, connectV1, connectV2 } from "../helpers/http-host.js";
import { serveGateway, textOf } from "./gateway-kit.js";

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

async function upstream(name = "recorded"): Promise<RecordingUpstream> {
  const server = await new RecordingUpstream(name).start();
  cleanup.add(() => server.stop());
  return server;
}

async function echoThrough(url: URL, text: string): Promise<void> {
  const { client } = await connectV2(cleanup, url, "modern");
  assert.equal(textOf(await client.callTool({ name: "echo", arguments: { text } })), text);
}

describe("upstream credentials", { timeout: 60_000 }, () => {
  it("sends static headers and a bearer token on every request to the upstream", async () => {
    const [keyed, bearer] = [await upstream("keyed"), await upstream("bearer")];
    const { at } = await serveGateway(cleanup, {
      servers: { keyed: { url: keyed.url, headers: { "X-API-Key": "key-123" } }, bearer: { url: bearer.url, auth: { kind: "bearer", token: "tok-abc" } } },
    });
    await echoThrough(at("only=keyed"), "one");
    await echoThrough(at("only=bearer"), "two");
    assert.ok(keyed.seen.length >= 2);
    assert.deepEqual(new Set(keyed.values("x-api-key")), new Set(["key-123"]));
    assert.equal(keyed.values("x-api-key").length, keyed.seen.length, "on every request");
    assert.deepEqual(new Set(bearer.values("authorization")), new Set(["Bearer tok-abc"]));
    assert.equal(bearer.values("authorization").length, bearer.seen.length);
  });

  it("gets an OAuth token by client credentials, and a new one when the upstream answers 401", async () => {
    const as = await startAuthorizationServer({ clients: { gateway: { secret: "gateway-secret", scopes: ["mcp:read"] } } });
    cleanup.add(() => as.close());
    const server = await upstream();
    const accepted = new Set<string>();
    server.gate = (headers) => {
      const token = String(headers.authorization ?? "").replace(/^Bearer /, "");
      if (accepted.size === 0 && as.issuedTokens().includes(token)) accepted.add(token);
      return accepted.has(token) ? undefined : 401;
    };
    const { at } = await serveGateway(cleanup, {
      servers: {
        secured: {
          url: server.url,
          auth: { kind: "oauth", clientId: "gateway", clientSecret: "gateway-secret", scope: "mcp:read", tokenUrl: as.tokenEndpoint },
        },
      },
    });
    await echoThrough(at("only=secured"), "first");
    assert.equal(as.calls.token, 1, "one token for start-up and the first call");
    const tokenRequest = as.requests.find((r) => r.endpoint === "token")!;
    assert.match(tokenRequest.body, /grant_type=client_credentials/);
    assert.match(tokenRequest.body, /scope=mcp%3Aread/);
    assert.match(String(tokenRequest.headers.authorization), /^Basic /, "client_secret_basic, as the SDK's provider does it");

    accepted.clear(); // the upstream stops accepting the first token (it expired, or was revoked)
    const renewed = as.issuedTokens().length;
    server.gate = (headers) => {
      const token = String(headers.authorization ?? "").replace(/^Bearer /, "");
      return as.issuedTokens().indexOf(token) >= renewed ? undefined : 401;
    };
    await echoThrough(at("only=secured"), "second");
    assert.equal(as.calls.token, 2, "the 401 made the gateway get one new token");
    const tokens = server.values("authorization");
    assert.equal(tokens.at(-1), `Bearer ${as.issuedTokens()[1]}`);
  });

  it("uses an auth kind another extension contributes, asking it for headers before every request", async () => {
    const server = await upstream();
    let issued = 0;
    const vault: McpExtension = {
      name: "vault",
      toolsets: [{ name: "vault", default: false }],
      authStrategies: { vault: (settings) => ({ headers: async () => ({ "X-Vault-Token": `${String(settings.role)}-${++issued}` }) }) },
    };
    const { at } = await serveGateway(cleanup, { servers: { secured: { url: server.url, auth: { kind: "vault", role: "reader" } } } }, { extensions: [vault] });
    await echoThrough(at("only=secured"), "custom");
    const sent = server.values("x-vault-token");
    assert.equal(sent.length, server.seen.length, "on every request");
    assert.deepEqual(
      sent,
      sent.map((_, i) => `reader-${i + 1}`),
      "fresh for each request",
    );
  });

  it("fails start-up on an auth kind nobody registered, listing the registered kinds", async () => {
    const vault: McpExtension = { name: "vault", toolsets: [{ name: "vault" }], authStrategies: { vault: () => ({ headers: () => ({}) }) } };
    const served = await serveGateway(
      cleanup,
      { servers: { secured: { url: "https://secured.example.com/mcp", auth: { kind: "kerberos", realm: "X" } } } },
      { extensions: [vault] },
    );
    const [problem] = served.gateway.problems();
    assert.equal(problem?.code, "MCP_AUTH_STRATEGY_UNKNOWN");
    assert.equal(
      problem?.message,
      'server "secured": auth kind "kerberos" is not registered; the registered kinds are bearer, oauth, vault (install the extension that contributes it)',
    );
    assert.equal(served.host.extensionStatuses().find((e) => e.name === "gateway")?.status, "failed");
  });

  it("never passes the downstream caller's token to an upstream", async () => {
    const as = await startAuthorizationServer();
    cleanup.add(() => as.close());
    const [plain, bearer] = [await upstream("plain"), await upstream("bearer")];
    let audience = "";
    const serverFactory: ServerFactory = ({ handler }) => {
      const guard = bearerAuth({ verifier: jwtVerifier({ issuer: as.issuer, audience, jwksUri: as.jwksUri }), logger: silentLogger });
      return ((req, res, next) => guard(req as never, res as never, () => handler(req, res, next))) as NodeHandler;
    };
    // The audience is the served URL, known once the host listens; the factory runs per build, after that.
    const served = await serveGateway(
      cleanup,
      { servers: { plain: { url: plain.url }, bearer: { url: bearer.url, auth: { kind: "bearer", token: "deployment-token" } } } },
      { host: { serverFactory } },
    );
    audience = served.url.href;
    const callerToken = await as.mint({ sub: "alice", client_id: "downstream", scope: "mcp:read", aud: audience });
    const headers = { authorization: `Bearer ${callerToken}` };
    const { client } = await connectV2(cleanup, served.at("plain&bearer"), "modern", { headers });
    assert.equal(textOf(await client.callTool({ name: "plain__echo", arguments: { text: "a" } })), "a");
    assert.equal(textOf(await client.callTool({ name: "bearer__echo", arguments: { text: "b" } })), "b");
    const v1 = (await connectV1(cleanup, served.at("plain&bearer"), { headers })).client;
    assert.equal(textOf(await v1.callTool({ name: "plain__echo", arguments: { text: "c" } })), "c");
    const unauthenticated = await connectV2(cleanup, served.at("only=plain"), "modern").catch((e: Error) => e);
    assert.ok(unauthenticated instanceof Error, "the endpoint really is protected");

    for (const server of [plain, bearer]) {
      const everything = JSON.stringify(server.seen);
      assert.ok(!everything.includes(callerToken), "the caller's token never reaches an upstream");
    }
    assert.deepEqual(plain.values("authorization"), [], "an upstream without credentials gets none");
    assert.deepEqual(new Set(bearer.values("authorization")), new Set(["Bearer deployment-token"]), "only the deployment's own");
  });
});
