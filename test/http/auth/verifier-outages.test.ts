// When the identity provider fails — the JWKS or introspection endpoint down, timing out, answering 5xx or
// something that is not an answer — verification is "unavailable" (AUTH_UNAVAILABLE): never a pass, never an
// invalid token, never cached, and it recovers by itself when the endpoint comes back.
import { afterEach, beforeEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { introspectionVerifier, jwtVerifier } from "../../../src/http/auth/index.js";
import { startAuthorizationServer, type AuthorizationServer } from "../../fixtures/auth/authorization-server.js";

const AUDIENCE = "https://mcp.example.test/mcp";

async function assertUnavailable(attempt: Promise<unknown>, message: string): Promise<void> {
  await assert.rejects(attempt, (error: Error & { code?: string }) => {
    assert.equal(error.code, "AUTH_UNAVAILABLE");
    assert.equal(error.message, message);
    return true;
  });
}

let as: AuthorizationServer;
beforeEach(async () => {
  as = await startAuthorizationServer({ audience: AUDIENCE });
});
afterEach(() => as.close());

describe("JWKS outages", () => {
  // A generous fetch budget, so a loaded machine never turns an answer into a timeout; only the hang test uses a short one.
  const jwt = (extra = {}) => jwtVerifier({ issuer: as.issuer, audience: AUDIENCE, jwksUri: as.jwksUri, fetchTimeoutMs: 10_000, ...extra });

  it("answers 'unavailable' while the JWKS endpoint fails with 500, then recovers", async () => {
    const verifier = jwt();
    const token = await as.mint();
    as.respondWith("jwks", "error");
    await assertUnavailable(
      verifier.verify(token),
      "tokens cannot be verified right now: the JWKS endpoint (jwksUri) did not answer 200 OK with a JSON key set",
    );
    as.respondWith("jwks", "normal");
    assert.equal((await verifier.verify(token)).subject, "user-1");
  });

  it("answers 'unavailable' when the JWKS endpoint hangs past the fetch timeout", async () => {
    as.respondWith("jwks", "hang");
    await assertUnavailable(
      jwt({ fetchTimeoutMs: 300 }).verify(await as.mint()),
      "tokens cannot be verified right now: the JWKS endpoint (jwksUri) did not answer within 300 ms",
    );
  });

  it("answers 'unavailable' when the JWKS endpoint is unreachable", async () => {
    const token = await as.mint();
    const verifier = jwt();
    await as.goDown();
    await assertUnavailable(verifier.verify(token), "tokens cannot be verified right now: the JWKS endpoint (jwksUri) could not be reached");
  });

  it("keeps verifying with the cached key set while the endpoint is down, until the cache ages out", async () => {
    const verifier = jwt();
    assert.equal((await verifier.verify(await as.mint({ sub: "cached" }))).subject, "cached");
    const later = await as.mint({ sub: "later" });
    await as.goDown();
    assert.equal((await verifier.verify(later)).subject, "later");
    const expiring = jwt({ jwksCacheMaxAgeMs: 0 });
    await assertUnavailable(expiring.verify(later), "tokens cannot be verified right now: the JWKS endpoint (jwksUri) could not be reached");
  });

  it("answers 'unavailable' for an unknown kid it cannot look up, rather than calling the token invalid", async () => {
    const verifier = jwt({ jwksCooldownMs: 0 });
    await verifier.verify(await as.mint());
    await as.rotate();
    const fromNewKey = await as.mint();
    as.respondWith("jwks", "error");
    await assertUnavailable(
      verifier.verify(fromNewKey),
      "tokens cannot be verified right now: the JWKS endpoint (jwksUri) did not answer 200 OK with a JSON key set",
    );
  });
});

describe("introspection outages", () => {
  const introspection = (fetchTimeoutMs = 10_000) =>
    introspectionVerifier({
      endpoint: as.introspectionEndpoint,
      clientId: "mcp-host",
      clientSecret: "mcp-host-introspection-secret",
      audience: AUDIENCE,
      fetchTimeoutMs,
    });

  it("answers 'unavailable' on HTTP 500, does not cache it, and recovers", async () => {
    const verifier = introspection();
    const token = as.issueOpaque({ sub: "alice" });
    as.respondWith("introspect", "error");
    await assertUnavailable(verifier.verify(token), "tokens cannot be verified right now: the introspection endpoint answered HTTP 500");
    await assertUnavailable(verifier.verify(token), "tokens cannot be verified right now: the introspection endpoint answered HTTP 500");
    assert.equal(as.calls.introspect, 2, "an outage is never cached");
    as.respondWith("introspect", "normal");
    assert.equal((await verifier.verify(token)).subject, "alice");
    assert.equal(as.calls.introspect, 3);
  });

  it("answers 'unavailable' when the endpoint hangs past the timeout", async () => {
    as.respondWith("introspect", "hang");
    await assertUnavailable(
      introspection(300).verify(as.issueOpaque()),
      "tokens cannot be verified right now: the introspection endpoint did not answer within 300 ms",
    );
  });

  it("answers 'unavailable' when the endpoint is unreachable", async () => {
    const token = as.issueOpaque();
    await as.goDown();
    await assertUnavailable(introspection().verify(token), "tokens cannot be verified right now: the introspection endpoint could not be reached");
  });

  it("answers 'unavailable' when the endpoint refuses this server's own credentials", async () => {
    const verifier = introspectionVerifier({ endpoint: as.introspectionEndpoint, clientId: "mcp-host", clientSecret: "wrong-secret", audience: AUDIENCE });
    await assertUnavailable(
      verifier.verify(as.issueOpaque()),
      "tokens cannot be verified right now: the introspection endpoint refused this server's client credentials (HTTP 401); check clientId and clientSecret",
    );
  });

  it("answers 'unavailable' when the answer is not RFC 7662 (no boolean active)", async () => {
    const verifier = introspectionVerifier({
      endpoint: as.jwksUri.replace("/jwks", "/.well-known/oauth-authorization-server"),
      clientId: "mcp-host",
      clientSecret: "x",
      audience: AUDIENCE,
    });
    await assertUnavailable(
      verifier.verify("tok"),
      "tokens cannot be verified right now: the introspection endpoint did not return an RFC 7662 answer (no boolean `active`)",
    );
  });
});
