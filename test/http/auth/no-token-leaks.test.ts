// No token ever leaks: every log line of a run through the auth building blocks (one memoryLogger at debug level
// for the whole run) and every response status line, header and body are captured while good, bad, expired,
// forged, misplaced and unverifiable tokens go through JWT, introspection and custom verifiers, the discovery
// dance included — and none of them contains any of those tokens (nor a JWT's payload or signature part), nor
// the resource server's own introspection secret.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { base64url, SignJWT, UnsecuredJWT } from "jose";
import { Client, ClientCredentialsProvider, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { McpHostError } from "../../../src/errors.js";
import { formatLogRecord, memoryLogger } from "../../../src/logger.js";
import { customVerifier, introspectionVerifier, jwtVerifier } from "../../../src/http/auth/index.js";
import { startAuthorizationServer, type AuthorizationServer } from "../../fixtures/auth/authorization-server.js";
import { Cleanup, startProtectedApp, type ProtectedApp } from "../../fixtures/auth/protected-app.js";

const INTROSPECTION_SECRET = "mcp-host-introspection-secret";
const cleanup = new Cleanup();
const { logger, records } = memoryLogger("debug");
const seen: string[] = [];
const crafted: string[] = [];
let as: AuthorizationServer;
let jwtApp: ProtectedApp;
let opaqueApp: ProtectedApp;
let customApp: ProtectedApp;

async function exchange(url: URL | string, token: string | undefined, extraHeaders: Record<string, string> = {}): Promise<number> {
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
      ...extraHeaders,
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    }),
  });
  seen.push(`${response.status} ${[...response.headers].map(([k, v]) => `${k}: ${v}`).join("\n")}\n${await response.text()}`);
  return response.status;
}

before(async () => {
  as = await startAuthorizationServer();
  cleanup.add(() => as.close());
  jwtApp = await startProtectedApp(cleanup, {
    verifier: (baseUrl) => jwtVerifier({ issuer: as.issuer, audience: `${baseUrl}/mcp`, jwksUri: as.jwksUri, jwksCooldownMs: 0 }),
    metadata: { authorizationServers: [as.issuer], scopesSupported: ["mcp:read"] },
    requiredScopes: ["mcp:read"],
    logger,
  });
  opaqueApp = await startProtectedApp(cleanup, {
    verifier: introspectionVerifier({ endpoint: as.introspectionEndpoint, clientId: "mcp-host", clientSecret: INTROSPECTION_SECRET, audience: "urn:test:mcp" }),
    metadata: { authorizationServers: [as.issuer] },
    logger,
  });
  customApp = await startProtectedApp(cleanup, {
    verifier: customVerifier(async (token) => {
      if (token.startsWith("quoted")) throw new Error(`bad token ${token}`);
      throw new McpHostError("AUTH_UNAVAILABLE", `our token service is down (while checking ${token})`);
    }),
    metadata: { authorizationServers: [as.issuer] },
    logger,
  });
});
after(() => cleanup.run());

describe("no token in logs, headers or bodies", { timeout: 60_000 }, () => {
  it("runs every kind of token through the building blocks", async () => {
    const aud = `${jwtApp.baseUrl}/mcp`;
    const statuses: Record<string, number> = {};
    statuses.good = await exchange(jwtApp.mcpUrl("only=x"), await as.mint({ aud }));
    statuses.expired = await exchange(jwtApp.mcpUrl(), await as.mint({ aud, exp: Math.floor(Date.now() / 1000) - 3600 }));
    statuses["another resource"] = await exchange(jwtApp.mcpUrl(), await as.mint({ aud: "https://other.example.test/mcp" }));
    statuses["no scope"] = await exchange(jwtApp.mcpUrl(), await as.mint({ aud, scope: "other" }));
    const genuine = await as.mint({ aud });
    const [h, , sig] = genuine.split(".");
    const tampered = `${h}.${base64url.encode(JSON.stringify({ sub: "root", aud, iss: as.issuer, exp: 4_000_000_000, scope: "mcp:read" }))}.${sig}`;
    const unsigned = new UnsecuredJWT({ sub: "root", aud, iss: as.issuer, exp: 4_000_000_000 }).encode();
    const confused = await new SignJWT({ sub: "root", aud, iss: as.issuer, exp: 4_000_000_000 })
      .setProtectedHeader({ alg: "HS256", kid: as.kid })
      .sign(new TextEncoder().encode(await as.publicKeyPem()));
    crafted.push(tampered, unsigned, confused);
    statuses.tampered = await exchange(jwtApp.mcpUrl(), tampered);
    statuses.unsigned = await exchange(jwtApp.mcpUrl(), unsigned);
    statuses["key confusion"] = await exchange(jwtApp.mcpUrl(), confused);
    const inQuery = await as.mint({ aud });
    statuses["in query"] = await exchange(jwtApp.mcpUrl(`only=x&access_token=${inQuery}`), undefined);
    statuses["in query and header"] = await exchange(jwtApp.mcpUrl(`token=${inQuery}`), inQuery);
    const huge = `${"h".repeat(9000)}`;
    crafted.push(huge);
    statuses.oversized = await exchange(jwtApp.mcpUrl(), huge);
    const malformed = "abc$def";
    crafted.push(malformed);
    statuses.malformed = await exchange(jwtApp.mcpUrl(), undefined, { authorization: `Bearer ${malformed}` });
    await as.rotate();
    statuses.rotated = await exchange(jwtApp.mcpUrl(), await as.mint({ aud }));
    statuses.retired = await exchange(jwtApp.mcpUrl(), await as.mint({ aud }, { key: "retired" }));
    as.respondWith("jwks", "error");
    statuses["jwks down"] = await exchange(jwtApp.mcpUrl(), await as.mint({ aud, sub: "new-key-needed" }, { header: { kid: "not-yet-published" } }));
    as.respondWith("jwks", "normal");

    const opaque = as.issueOpaque({ sub: "olga" });
    statuses["opaque good"] = await exchange(opaqueApp.mcpUrl(), opaque);
    const revoked = as.issueOpaque({ sub: "rita" });
    as.revoke(revoked);
    statuses["opaque revoked"] = await exchange(opaqueApp.mcpUrl(), revoked);
    as.respondWith("introspect", "error");
    statuses["introspection down"] = await exchange(opaqueApp.mcpUrl(), as.issueOpaque({ sub: "ida" }));
    as.respondWith("introspect", "normal");

    crafted.push("quoted-token-123456", "custom-token-abcdef");
    statuses["custom throws quoting the token"] = await exchange(customApp.mcpUrl(), "quoted-token-123456");
    statuses["custom coded error quoting the token"] = await exchange(customApp.mcpUrl(), "custom-token-abcdef");

    const client = new Client({ name: "dance", version: "1.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
    await client.connect(
      new StreamableHTTPClientTransport(jwtApp.mcpUrl("only=x"), {
        authProvider: new ClientCredentialsProvider({ clientId: "test-client", clientSecret: "test-client-secret", expectedIssuer: as.issuer }),
      }),
    );
    seen.push(JSON.stringify(await client.callTool({ name: "whoami", arguments: {} })));
    await client.close();

    assert.deepEqual(statuses, {
      good: 200,
      expired: 401,
      "another resource": 401,
      "no scope": 403,
      tampered: 401,
      unsigned: 401,
      "key confusion": 401,
      "in query": 400,
      "in query and header": 400,
      oversized: 400,
      malformed: 400,
      rotated: 200,
      retired: 401,
      "jwks down": 503,
      "opaque good": 200,
      "opaque revoked": 401,
      "introspection down": 503,
      "custom throws quoting the token": 401,
      "custom coded error quoting the token": 503,
    });
  });

  it("finds none of those tokens in any log line, response header or body", () => {
    const tokens = [...as.issuedTokens(), ...crafted];
    assert.ok(tokens.length >= 20, `tokens checked: ${tokens.length}`);
    const logs = records.map((r) => `${formatLogRecord(r)} ${JSON.stringify(r)}`);
    assert.ok(logs.length >= 18, `log lines captured: ${logs.length}`);
    assert.ok(seen.length >= 20, `responses captured: ${seen.length}`);
    const fragments = tokens.flatMap((t) => [t, ...t.split(".").filter((part) => part.length >= 16)]);
    const leaks = [...logs.map((l) => ["log", l] as const), ...seen.map((s) => ["response", s] as const)]
      .filter(([, text]) => fragments.some((f) => text.includes(f)) || text.includes(INTROSPECTION_SECRET))
      .map(([where, text]) => `${where}: ${text.slice(0, 200)}`);
    assert.deepEqual(leaks, []);
    assert.ok(
      logs.some((l) => l.includes("[token]")),
      "a verifier's message quoting the token was redacted, not dropped",
    );
  });
});
