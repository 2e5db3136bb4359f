// The RFC 7662 introspection verifier against a real introspection endpoint on loopback: the request it sends,
// how it reads the answer, and its cache — hits do not call the endpoint again, answers never outlive the token's
// exp or cacheMaxSeconds, refusals are kept briefly, concurrent checks of one token share one call. Time is a
// ManualClock shared by the verifier and the fixture.
import { afterEach, beforeEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { introspectionVerifier, type IntrospectionVerifierOptions } from "../../../src/http/auth/index.js";
import { startAuthorizationServer, type AuthorizationServer } from "../../fixtures/auth/authorization-server.js";
import { ManualClock } from "../../helpers/manual-clock.js";

const RS = { clientId: "mcp host/1", clientSecret: "s3cret:with&odd=chars" };

let clock: ManualClock;
let as: AuthorizationServer;
beforeEach(async () => {
  clock = new ManualClock();
  as = await startAuthorizationServer({ clock, resourceServers: { [RS.clientId]: RS.clientSecret }, tokenTtlSeconds: 60 });
});
afterEach(() => as.close());

const verifierWith = (extra: Partial<IntrospectionVerifierOptions> = {}) =>
  introspectionVerifier({ endpoint: as.introspectionEndpoint, ...RS, clock, audience: "urn:test:mcp", ...extra });
const nowSec = () => Math.floor(clock.now() / 1000);

describe("introspection verifier", () => {
  it("POSTs the token form-encoded with HTTP Basic client credentials (RFC 6749 §2.3.1 encoding)", async () => {
    const token = as.issueOpaque({ sub: "alice" });
    await verifierWith().verify(token);
    const request = as.requests.find((r) => r.endpoint === "introspect")!;
    assert.equal(request.method, "POST");
    assert.equal(request.headers["content-type"], "application/x-www-form-urlencoded");
    assert.equal(request.headers.accept, "application/json");
    assert.equal(request.headers.authorization, `Basic ${Buffer.from("mcp+host%2F1:s3cret%3Awith%26odd%3Dchars").toString("base64")}`);
    assert.deepEqual(Object.fromEntries(new URLSearchParams(request.body)), { token, token_type_hint: "access_token" });
  });

  it("maps an active answer to the caller and refuses active: false", async () => {
    const token = as.issueOpaque({ sub: "alice", client_id: "cli", scope: "mcp:read mcp:write", aud: ["https://mcp.example.test/mcp"] });
    const caller = await verifierWith({ audience: "https://mcp.example.test/mcp" }).verify(token);
    assert.deepEqual(
      { ...caller, claims: undefined },
      {
        subject: "alice",
        clientId: "cli",
        scopes: ["mcp:read", "mcp:write"],
        expiresAt: nowSec() + 60,
        claims: undefined,
        resource: new URL("https://mcp.example.test/mcp"),
      },
    );
    assert.equal(caller.claims.active, true);
    assert.equal(Object.isFrozen(caller.claims), true);
    await assert.rejects(verifierWith().verify("never-issued"), {
      code: "AUTH_TOKEN_INVALID",
      message: "the access token is not active (the authorization server says it is revoked, expired or unknown)",
    });
  });

  it("refuses an answer without a subject or for another audience, and names missing scopes", async () => {
    await assert.rejects(verifierWith().verify(as.issueOpaque({ sub: undefined })), {
      code: "AUTH_TOKEN_INVALID",
      message: "the access token has no subject (sub)",
    });
    await assert.rejects(verifierWith({ audience: ["https://mcp.example.test/mcp"] }).verify(as.issueOpaque({ aud: "https://other.example.test" })), {
      code: "AUTH_TOKEN_INVALID",
      message: "the access token was issued for another resource (its audience does not name this server)",
    });
    await assert.rejects(verifierWith({ requiredScopes: ["mcp:read", "mcp:admin"] }).verify(as.issueOpaque({ scope: "mcp:read" })), {
      code: "AUTH_INSUFFICIENT_SCOPE",
      message: "the access token lacks the required scope(s): mcp:admin",
    });
  });

  it("answers a cached token without calling the endpoint again", async () => {
    const verifier = verifierWith();
    const token = as.issueOpaque({ sub: "alice" });
    for (let i = 0; i < 5; i += 1) assert.equal((await verifier.verify(token)).subject, "alice");
    assert.equal(as.calls.introspect, 1);
    await verifier.verify(as.issueOpaque({ sub: "bob" }));
    assert.equal(as.calls.introspect, 2, "another token is another entry");
  });

  it("shares one call among concurrent checks of the same token", async () => {
    const verifier = verifierWith();
    const token = as.issueOpaque({ sub: "alice" });
    const callers = await Promise.all([verifier.verify(token), verifier.verify(token), verifier.verify(token)]);
    assert.deepEqual(
      callers.map((c) => c.subject),
      ["alice", "alice", "alice"],
    );
    assert.equal(as.calls.introspect, 1);
  });

  it("never keeps an answer past the token's exp", async () => {
    const verifier = verifierWith({ cacheMaxSeconds: 300 });
    const token = as.issueOpaque({ sub: "alice" }); // exp = now + 60 s
    await verifier.verify(token);
    await clock.advance(59_000);
    await verifier.verify(token);
    assert.equal(as.calls.introspect, 1);
    await clock.advance(2_000);
    await assert.rejects(verifier.verify(token), {
      code: "AUTH_TOKEN_INVALID",
      message: "the access token is not active (the authorization server says it is revoked, expired or unknown)",
    });
    assert.equal(as.calls.introspect, 2, "the expired entry was dropped and the endpoint asked again");
  });

  it("never keeps an answer longer than cacheMaxSeconds, so a revocation is seen within it", async () => {
    const verifier = verifierWith({ cacheMaxSeconds: 30 });
    const token = as.issueOpaque({ sub: "alice", exp: nowSec() + 3600 });
    await verifier.verify(token);
    as.revoke(token);
    await clock.advance(29_000);
    assert.equal((await verifier.verify(token)).subject, "alice", "still cached: revocation takes up to cacheMaxSeconds");
    await clock.advance(2_000);
    await assert.rejects(verifier.verify(token), { code: "AUTH_TOKEN_INVALID" });
    assert.equal(as.calls.introspect, 2);
  });

  it("keeps a refusal for inactiveCacheSeconds (default 10 s), so a flood of one bad token costs one call", async () => {
    const verifier = verifierWith();
    for (let i = 0; i < 4; i += 1) await assert.rejects(verifier.verify("bad-token"), { code: "AUTH_TOKEN_INVALID" });
    assert.equal(as.calls.introspect, 1);
    await clock.advance(10_001);
    await assert.rejects(verifier.verify("bad-token"), { code: "AUTH_TOKEN_INVALID" });
    assert.equal(as.calls.introspect, 2);
  });

  it("caches nothing with cacheMaxSeconds: 0", async () => {
    const verifier = verifierWith({ cacheMaxSeconds: 0 });
    const token = as.issueOpaque({ sub: "alice" });
    await verifier.verify(token);
    await verifier.verify(token);
    await assert.rejects(verifier.verify("bad"), { code: "AUTH_TOKEN_INVALID" });
    await assert.rejects(verifier.verify("bad"), { code: "AUTH_TOKEN_INVALID" });
    assert.equal(as.calls.introspect, 4);
  });

  it("keeps at most maxCacheEntries answers, the oldest leaving first", async () => {
    const verifier = verifierWith({ maxCacheEntries: 2 });
    const [a, b, c] = [as.issueOpaque({ sub: "a" }), as.issueOpaque({ sub: "b" }), as.issueOpaque({ sub: "c" })];
    for (const token of [a, b, c]) await verifier.verify(token);
    assert.equal(as.calls.introspect, 3);
    await verifier.verify(c);
    await verifier.verify(b);
    assert.equal(as.calls.introspect, 3);
    await verifier.verify(a);
    assert.equal(as.calls.introspect, 4, "a was evicted when c arrived");
  });

  it("refuses bad settings when made", () => {
    const made = (options: unknown) => () => introspectionVerifier(options as IntrospectionVerifierOptions);
    assert.throws(made({ endpoint: "http://idp.internal/introspect", ...RS }), {
      code: "AUTH_CONFIG_INVALID",
      message:
        "introspectionVerifier: `endpoint` must use https (plain http is accepted only on loopback, or with allowInsecureHttp: true on a network you trust)",
    });
    assert.throws(made({ endpoint: as.introspectionEndpoint, clientSecret: "x" }), {
      code: "AUTH_CONFIG_INVALID",
      message: "introspectionVerifier: `clientId` is required: this server's client id at the authorization server",
    });
    assert.throws(made({ endpoint: as.introspectionEndpoint, clientId: "x" }), {
      code: "AUTH_CONFIG_INVALID",
      message: "introspectionVerifier: `clientSecret` is required (give it as a secret reference)",
    });
    assert.throws(made({ endpoint: as.introspectionEndpoint, ...RS }), {
      code: "AUTH_CONFIG_INVALID",
      message:
        "introspectionVerifier: `audience` is required: this server's resource identifier, which an introspected token's `aud` must name (else a token issued for another resource is accepted)",
    });
    assert.throws(made({ endpoint: as.introspectionEndpoint, ...RS, audience: "urn:test:mcp", cacheMaxSeconds: -1 }), {
      code: "AUTH_CONFIG_INVALID",
      message: "introspectionVerifier: `cacheMaxSeconds` must be a number ≥ 0",
    });
    assert.throws(made({ endpoint: as.introspectionEndpoint, ...RS, audience: [] }), {
      code: "AUTH_CONFIG_INVALID",
      message: "introspectionVerifier: `audience` must be a non-empty string or list of strings",
    });
  });
});
