// Refusals and outages at the host level (docs/design.md §9; issue 9 item 8): a token in the query string is 400; an
// Authorization header without "Bearer " is 401, a malformed or oversized one 400 (beyond Node's own header
// limit, Node answers 431); a JWKS or introspection endpoint that is down, failing or hanging is 503 with
// Retry-After — the caller did nothing wrong — never a 500 and never a pass. Nothing runs in any of them.
import { after, afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { jwtVerifier } from "../../src/http/auth/index.js";
import type { AuthorizationServer } from "../fixtures/auth/authorization-server.js";
import { AUDIENCE, authorizationServerFor, bearer, LeakWatch, serveAuthHost } from "../helpers/auth-host.js";
import { Cleanup, LEGACY_POST_HEADERS, legacyInitialize, raw, legacyBody } from "../helpers/http-host.js";

const cleanup = new Cleanup();
const watch = new LeakWatch();
const servers: AuthorizationServer[] = [];
async function authorizationServer(): Promise<AuthorizationServer> {
  const as = await authorizationServerFor(cleanup, {
    clients: { "test-client": { secret: "test-client-secret", scopes: ["mcp:read"], format: "opaque" } },
  });
  servers.push(as);
  return as;
}
afterEach(() => cleanup.run());
after(() => watch.assertClean(servers.flatMap((s) => s.issuedTokens())));

const initialize = { method: "POST", headers: LEGACY_POST_HEADERS, body: legacyInitialize() };
const UNAVAILABLE = {
  jsonrpc: "2.0",
  error: {
    code: -32000,
    message: "Service Unavailable: the server cannot verify access tokens right now (its identity provider is not answering). Retry after 10 seconds.",
  },
  id: null,
};

describe("refusals", { timeout: 60_000 }, () => {
  it("refuses a token in the query string with 400, even beside a good header", async () => {
    const as = await authorizationServer();
    const served = await serveAuthHost(cleanup, watch, as);
    const token = await served.token();
    for (const query of [`access_token=${token}`, `only=notes&token=${token}`, "access%5Ftoken=abc"]) {
      for (const headers of [LEGACY_POST_HEADERS, { ...LEGACY_POST_HEADERS, ...bearer(token) }]) {
        const response = await raw({ url: served.at(query), method: "POST", headers, body: legacyInitialize() });
        assert.equal(response.status, 400, query);
        assert.equal(response.headers["www-authenticate"], 'Bearer error="invalid_request", error_description="The request carries its credentials wrongly"');
        assert.equal(response.json.error.code, -32600);
        assert.match(response.json.error.message, /^Bad Request: a token was sent in the URL query \((access_token|token)=\)/);
      }
    }
    const bare = await raw({ url: served.at("token"), ...initialize, headers: { ...LEGACY_POST_HEADERS, ...bearer(token) } });
    assert.equal(bare.status, 200, "a bare ?token is a toolset name, not a credential");
    assert.deepEqual(served.runs, []);
  });

  it("answers an Authorization header without Bearer with 401, and a malformed or oversized one with 400", async () => {
    const as = await authorizationServer();
    const served = await serveAuthHost(cleanup, watch, as);
    const statuses: Record<string, number> = {};
    const headers: Record<string, string> = {
      Basic: "Basic dXNlcjpwYXNz",
      "another scheme": "Token abcdef",
      "Bearer and nothing": "Bearer",
      "Bearer with two tokens": "Bearer abc def",
      "Bearer with a bad character": 'Bearer abc"def',
      "9 KiB": `Bearer ${"a".repeat(9 * 1024)}`,
    };
    for (const [label, authorization] of Object.entries(headers)) {
      statuses[label] = (await raw({ url: served.url, ...initialize, headers: { ...LEGACY_POST_HEADERS, authorization } })).status;
    }
    assert.deepEqual(statuses, {
      Basic: 401,
      "another scheme": 401,
      "Bearer and nothing": 400,
      "Bearer with two tokens": 400,
      "Bearer with a bad character": 400,
      "9 KiB": 400,
    });
    const absurd = await raw({ url: served.url, ...initialize, headers: { ...LEGACY_POST_HEADERS, authorization: `Bearer ${"a".repeat(64 * 1024)}` } });
    assert.equal(absurd.status, 431, "beyond Node's header limit, Node itself refuses the request");
    assert.deepEqual(served.runs, []);
  });
});

describe("outages", { timeout: 60_000 }, () => {
  it("answers 503 with Retry-After while the JWKS endpoint is down or failing, and serves again when it is back", async () => {
    const as = await authorizationServer();
    const served = await serveAuthHost(cleanup, watch, as);
    const token = await served.token();
    as.respondWith("jwks", "error");
    const failing = await raw({ url: served.url, ...initialize, headers: { ...LEGACY_POST_HEADERS, ...bearer(token) } });
    assert.equal(failing.status, 503);
    assert.equal(failing.headers["retry-after"], "10");
    assert.equal(failing.headers["www-authenticate"], undefined);
    assert.deepEqual(failing.json, UNAVAILABLE);
    as.respondWith("jwks", "normal");
    const back = await raw({ url: served.url, ...initialize, headers: { ...LEGACY_POST_HEADERS, ...bearer(token) } });
    assert.equal(back.status, 200, back.text);
    const warn = served.records.find((r) => r.message === "bearer token refused" && r.data?.code === "AUTH_UNAVAILABLE");
    assert.equal(warn?.level, "warn");
    assert.equal((await raw({ url: new URL("/healthz", served.baseUrl) })).status, 200, "health is not an auth outage");
  });

  it("answers 503 when the JWKS endpoint cannot be reached at all, or hangs, with the configured Retry-After", async () => {
    const down = await authorizationServer();
    const token = watch.track(await down.mint({ aud: AUDIENCE }));
    const served = await serveAuthHost(cleanup, watch, down, { auth: { retryAfterSeconds: 30 } });
    await down.goDown();
    const refused = await raw({ url: served.url, ...initialize, headers: { ...LEGACY_POST_HEADERS, ...bearer(token) } });
    assert.equal(refused.status, 503);
    assert.equal(refused.headers["retry-after"], "30");

    const hanging = await authorizationServer();
    hanging.respondWith("jwks", "hang");
    const slow = await serveAuthHost(cleanup, watch, hanging, {
      auth: {
        verifier: jwtVerifier({ issuer: hanging.issuer, audience: AUDIENCE, jwksUri: hanging.jwksUri, fetchTimeoutMs: 200 }),
        issuer: undefined,
        audience: undefined,
        jwksUri: undefined,
        authorizationServers: [hanging.issuer],
      },
    });
    const timedOut = await raw({
      url: slow.url,
      ...initialize,
      headers: { ...LEGACY_POST_HEADERS, ...bearer(watch.track(await hanging.mint({ aud: AUDIENCE }))) },
    });
    assert.equal(timedOut.status, 503);
    assert.equal(timedOut.headers["retry-after"], "10");
    assert.deepEqual([...served.runs, ...slow.runs], []);
  });

  it("answers 503 when the introspection endpoint is down or failing, never a pass", async () => {
    const as = await authorizationServer();
    const served = await serveAuthHost(cleanup, watch, as, {
      auth: {
        issuer: undefined,
        jwksUri: undefined,
        audience: "urn:test:mcp",
        authorizationServers: [as.issuer],
        introspection: { endpoint: as.introspectionEndpoint, clientId: "mcp-host", clientSecret: "mcp-host-introspection-secret", cacheMaxSeconds: 0 },
      },
    });
    const token = watch.track(as.issueOpaque({ sub: "olga", scope: "mcp:read" }));
    const call = { method: "POST", headers: { ...LEGACY_POST_HEADERS, ...bearer(token) }, body: legacyInitialize() };
    const ok = await raw({ url: served.at("only=notes"), ...call });
    assert.equal(ok.status, 200, ok.text);
    as.respondWith("introspect", "error");
    const failing = await raw({ url: served.at("only=notes"), ...call });
    assert.equal(failing.status, 503);
    assert.equal(failing.headers["retry-after"], "10");
    assert.deepEqual(failing.json, UNAVAILABLE);
    await as.goDown();
    const session = String(ok.headers["mcp-session-id"]);
    const onSession = await raw({
      url: served.at("only=notes"),
      method: "POST",
      headers: { ...LEGACY_POST_HEADERS, "mcp-session-id": session, "mcp-protocol-version": "2025-11-25", ...bearer(token) },
      body: legacyBody("tools/call", { name: "read_note", arguments: {} }),
    });
    assert.equal(onSession.status, 503, "an open session does not let a request past an unverifiable token");
    assert.deepEqual(served.runs, []);
  });
});
