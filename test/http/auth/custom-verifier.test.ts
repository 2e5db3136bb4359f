// A deployment's own verify(token): its results (a VerifiedCaller or an SDK-style AuthInfo) are normalised, its
// throws become a plain invalid-token refusal (their messages, which may quote the token, stay out), our coded
// errors pass through, and a nonsense result is a configuration error. Also: our verifiers behind the SDK's own
// verifyBearerToken through asOAuthTokenVerifier.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { verifyBearerToken } from "@modelcontextprotocol/server";
import { McpHostError } from "../../../src/errors.js";
import { asOAuthTokenVerifier, customVerifier, verifierUnavailable } from "../../../src/http/auth/index.js";
import { ManualClock } from "../../helpers/manual-clock.js";

describe("customVerifier", () => {
  it("takes a VerifiedCaller as it is, with claims frozen", async () => {
    const caller = await customVerifier(async () => ({ subject: "svc", clientId: "app", scopes: ["a", "a", "b"], claims: { tenant: { id: 7 } } })).verify("t");
    assert.deepEqual(caller, { subject: "svc", clientId: "app", scopes: ["a", "b"], claims: { tenant: { id: 7 } } });
    assert.equal(Object.isFrozen(caller.claims.tenant), true);
  });

  it("takes an SDK-style AuthInfo and drops its token", async () => {
    const caller = await customVerifier(async (token) => ({
      token,
      clientId: "app",
      scopes: ["mcp"],
      expiresAt: 4_000_000_000,
      extra: { subject: "bob", claims: { org: "x" } },
    })).verify("secret-token");
    assert.deepEqual(caller, { subject: "bob", clientId: "app", scopes: ["mcp"], expiresAt: 4_000_000_000, claims: { org: "x" } });
    const bare = await customVerifier(async () => ({ clientId: "app", scopes: [] })).verify("t");
    assert.equal(bare.subject, "app", "without extra.subject the client is the subject");
  });

  it("turns whatever the function throws into an invalid token, keeping the message out", async () => {
    const verifier = customVerifier(async (token) => {
      throw new Error(`unknown token ${token}`);
    });
    await assert.rejects(verifier.verify("tok-123456789"), (error: Error & { code?: string }) => {
      assert.equal(error.code, "AUTH_TOKEN_INVALID");
      assert.equal(error.message, "the access token was rejected by the deployment's verifier");
      return true;
    });
  });

  it("passes our coded auth errors through, and re-codes the others", async () => {
    const throwing = (error: unknown) => customVerifier(async () => Promise.reject(error));
    await assert.rejects(throwing(verifierUnavailable("our IdP is down")).verify("t"), {
      code: "AUTH_UNAVAILABLE",
      message: "tokens cannot be verified right now: our IdP is down",
    });
    await assert.rejects(throwing(new McpHostError("AUTH_INSUFFICIENT_SCOPE", "needs x")).verify("t"), { code: "AUTH_INSUFFICIENT_SCOPE", message: "needs x" });
    await assert.rejects(throwing(new McpHostError("TOOL_TIMEOUT", "x")).verify("t"), { code: "AUTH_TOKEN_INVALID" });
  });

  it("checks expiry and required scopes itself", async () => {
    const clock = new ManualClock();
    const expiresAt = clock.now() / 1000 + 10;
    const verifier = customVerifier(async () => ({ subject: "s", clientId: "c", scopes: ["read"], expiresAt, claims: {} }), {
      clock,
      requiredScopes: ["read"],
    });
    assert.equal((await verifier.verify("t")).subject, "s");
    await clock.advance(10_000);
    await assert.rejects(verifier.verify("t"), { code: "AUTH_TOKEN_INVALID", message: "the access token has expired" });
    const needsWrite = customVerifier(async () => ({ subject: "s", clientId: "c", scopes: ["read"], claims: {} }), { requiredScopes: ["read", "write"] });
    await assert.rejects(needsWrite.verify("t"), { code: "AUTH_INSUFFICIENT_SCOPE", message: "the access token lacks the required scope(s): write" });
  });

  it("calls a result it cannot use a configuration error", async () => {
    const returning = (value: unknown) => customVerifier(async () => value as never).verify("t");
    const message = (what: string) => `customVerifier: the verify function returned ${what}; return { subject, clientId, scopes, claims } or an AuthInfo`;
    await assert.rejects(returning(undefined), { code: "AUTH_CONFIG_INVALID", message: message("no object") });
    await assert.rejects(returning({ subject: "s", scopes: "a b" }), { code: "AUTH_CONFIG_INVALID", message: message("no `scopes` list of strings") });
    await assert.rejects(returning({ subject: "s", scopes: [], expiresAt: "soon" }), {
      code: "AUTH_CONFIG_INVALID",
      message: message("an `expiresAt` that is not a number of seconds"),
    });
    await assert.rejects(returning({ scopes: [] }), { code: "AUTH_CONFIG_INVALID", message: message("no `subject` (nor an AuthInfo with a clientId)") });
    assert.throws(() => customVerifier("nope" as never), { code: "AUTH_CONFIG_INVALID", message: "customVerifier: pass an async function (token) => caller" });
  });
});

describe("asOAuthTokenVerifier", () => {
  it("lets the SDK's own verifyBearerToken use our verifiers, with SDK error codes", async () => {
    const verifier = asOAuthTokenVerifier(
      customVerifier(async (token) => {
        if (token === "good") return { subject: "alice", clientId: "cli", scopes: ["mcp"], expiresAt: 4_000_000_000, claims: {} };
        if (token === "down") throw verifierUnavailable("idp down");
        throw new Error("no");
      }),
    );
    const info = await verifyBearerToken("Bearer good", { verifier, requiredScopes: ["mcp"] });
    assert.deepEqual(info, { token: "good", clientId: "cli", scopes: ["mcp"], expiresAt: 4_000_000_000, extra: { subject: "alice", claims: {} } });
    await assert.rejects(verifyBearerToken("Bearer bad", { verifier }), { code: "invalid_token", message: "The access token is invalid" });
    await assert.rejects(verifyBearerToken("Bearer down", { verifier }), { code: "server_error", message: "Access tokens cannot be verified right now" });
    await assert.rejects(verifyBearerToken("Bearer good", { verifier, requiredScopes: ["admin"] }), { code: "insufficient_scope" });
  });
});
