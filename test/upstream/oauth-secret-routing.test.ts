// Attack test, issue 17 class 6: credentials go only where the config says. An upstream's protected-resource metadata
// (RFC 9728) is the upstream's word, and a malicious upstream points it at an attacker: the gateway's OAuth client
// secret must never reach an endpoint the config did not name. The family: the attacker on another origin (another
// host name for this machine) with neither tokenUrl nor issuer set; on the same host at another port while an issuer is set;
// an issuer whose metadata names another issuer, or a token endpoint on the attacker's port, or redirects to the
// attacker; a tokenUrl that redirects there. Every attacker records what it gets; none may see the secret.
import assert from "node:assert/strict";
import { afterEach, describe, it } from "node:test";
import { startAuthorizationServer, type AuthorizationServer } from "../fixtures/auth/authorization-server.js";
import { startScriptedServer, type ScriptedServer } from "../fixtures/auth/scripted-server.js";
import { ProtectedUpstream } from "../fixtures/upstream/protected-upstream.js";
import { Cleanup, connectV2 } from "../helpers/http-host.js";
import { serveGateway, textOf } from "./gateway-kit.js";

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

const SECRET = "gateway-client-S3CRET-7d41";

/** Metadata of an authorization server as `issuer` would publish it. */
function metadata(issuer: string, tokenEndpoint = `${issuer}/token`): Record<string, unknown> {
  return {
    issuer,
    authorization_endpoint: `${issuer}/authorize`,
    token_endpoint: tokenEndpoint,
    response_types_supported: ["code"],
    grant_types_supported: ["client_credentials"],
    token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post"],
  };
}

/** An attacker's authorization server: honest-looking metadata for itself, and a token endpoint that records. */
async function attacker(hostName = "127.0.0.1"): Promise<ScriptedServer> {
  const server = await startScriptedServer(
    (path, origin) => (path.startsWith("/.well-known/") ? { status: 200, body: metadata(origin) } : { status: 401, body: { error: "invalid_client" } }),
    hostName,
  );
  cleanup.add(() => server.close());
  return server;
}

async function scripted(answer: Parameters<typeof startScriptedServer>[0]): Promise<ScriptedServer> {
  const server = await startScriptedServer(answer);
  cleanup.add(() => server.close());
  return server;
}

/** True when any request `server` got carries the secret: in its body, or in an Authorization header (Basic decoded). */
function sawSecret(server: ScriptedServer): boolean {
  return server.requests.some((r) => {
    const auth = String(r.headers.authorization ?? "");
    const basic = auth.startsWith("Basic ") ? decodeURIComponent(Buffer.from(auth.slice(6), "base64").toString("utf8")) : "";
    return `${r.body} ${auth} ${basic} ${decodeURIComponent(r.body.replace(/\+/g, " "))}`.includes(SECRET);
  });
}

async function legitimate(): Promise<AuthorizationServer> {
  const as = await startAuthorizationServer({ clients: { gateway: { secret: SECRET, scopes: ["mcp:read"] } } });
  cleanup.add(() => as.close());
  return as;
}

/** A malicious upstream: its metadata names `authorizationServers`; it serves only tokens the legitimate server issued. */
async function upstream(as: AuthorizationServer, authorizationServers: string[]): Promise<ProtectedUpstream> {
  const server = await new ProtectedUpstream({ authorizationServers: () => authorizationServers, accepts: (t) => as.issuedTokens().includes(t) }).start();
  cleanup.add(() => server.stop());
  return server;
}

/** Serves the gateway with one oauth upstream; what stopped it, if anything. */
async function gatewayWith(url: string, auth: Record<string, unknown>) {
  return serveGateway(cleanup, {
    servers: { secured: { url, auth: { kind: "oauth", clientId: "gateway", clientSecret: SECRET, scope: "mcp:read", ...auth } } },
  });
}

describe("the OAuth client secret goes only where the config says (issue 17, class 6)", { timeout: 60_000 }, () => {
  it("refuses oauth with neither tokenUrl nor issuer, though the upstream's metadata names a server on another origin", async () => {
    const [as, evil] = [await legitimate(), await attacker("localhost")];
    const server = await upstream(as, [evil.origin]);
    const served = await gatewayWith(server.url, {});
    assert.equal(sawSecret(evil), false, "the attacker on another origin got the client secret");
    const [problem] = served.gateway.problems();
    assert.equal(problem?.code, "MCP_OAUTH_ENDPOINT_REQUIRED");
    assert.equal(
      problem?.message,
      'server "secured": auth (oauth) needs tokenUrl or issuer; without them the upstream server would choose where the client secret is sent',
    );
  });

  it("with an issuer, asks the issuer's own token endpoint, whatever the upstream's metadata names (same host, other port)", async () => {
    const [as, evil] = [await legitimate(), await attacker()];
    const server = await upstream(as, [evil.origin]);
    const served = await gatewayWith(server.url, { issuer: as.issuer });
    assert.equal(sawSecret(evil), false, "the attacker the upstream named got the client secret");
    assert.deepEqual(served.gateway.problems(), []);
    const { client } = await connectV2(cleanup, served.at("only=secured"), "modern");
    assert.equal(textOf(await client.callTool({ name: "echo", arguments: { text: "through" } })), "through");
    assert.equal(as.calls.token, 1, "the token came from the issuer's endpoint");
    assert.deepEqual(server.metadataRequests, [], "the upstream's metadata is not even read");
  });

  const refusals: Array<{ name: string; reason: RegExp; make: (evil: ScriptedServer) => Promise<{ issuer?: string; tokenUrl?: string }> }> = [
    {
      name: "an issuer whose metadata names a token endpoint on the attacker's port",
      reason: /the issuer's metadata names a token endpoint on another origin; the client secret is not sent there/,
      make: async (evil) => {
        const issuer = await scripted((_path, origin) => ({ status: 200, body: metadata(origin, `${evil.origin}/token`) }));
        return { issuer: issuer.origin };
      },
    },
    {
      name: "an issuer whose metadata names another issuer (the attacker)",
      reason: /Issuer mismatch in authorization server metadata/,
      make: async (evil) => {
        const issuer = await scripted(() => ({ status: 200, body: metadata(evil.origin) }));
        return { issuer: issuer.origin };
      },
    },
    {
      name: "an issuer whose metadata redirects to the attacker",
      reason: /the issuer publishes no authorization server metadata/,
      make: async (evil) => {
        const issuer = await scripted((path) => ({ status: 307, headers: { location: `${evil.origin}${path}` } }));
        return { issuer: issuer.origin };
      },
    },
    {
      name: "a tokenUrl that redirects to the attacker",
      reason: /getting an OAuth token \(client credentials\) failed: the token endpoint answered with a redirect, which is not followed/,
      make: async (evil) => {
        const endpoint = await scripted(() => ({ status: 307, headers: { location: `${evil.origin}/token` } }));
        return { tokenUrl: `${endpoint.origin}/token` };
      },
    },
  ];
  for (const variant of refusals) {
    it(`refuses ${variant.name}, and the attacker never sees the secret`, async () => {
      const [as, evil] = [await legitimate(), await attacker()];
      const auth = await variant.make(evil);
      // The upstream names the issuer too: only the configured settings may keep the secret home.
      const server = await upstream(as, [auth.issuer ?? evil.origin]);
      const served = await gatewayWith(server.url, auth);
      assert.equal(sawSecret(evil), false, "the attacker got the client secret");
      const [problem] = served.gateway.problems();
      assert.equal(problem?.code, "MCP_SERVER_UNREACHABLE");
      assert.match(problem!.message, /^server "secured" could not be connected: /);
      assert.match(problem!.message, variant.reason);
      assert.equal(as.calls.token, 0);
      assert.ok(!problem!.message.includes(SECRET));
    });
  }
});
