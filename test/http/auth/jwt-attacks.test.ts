// The JWT verifier against a real JWKS endpoint on 127.0.0.1:0 (the fixture authorization server, keys made with
// jose): every classic attack is refused with AUTH_TOKEN_INVALID and a fixed, detail-free message, headers that
// point at an attacker's key are never followed, and a key rotation is picked up without a restart.
import { afterEach, beforeEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { base64url, generateKeyPair, exportJWK, SignJWT, UnsecuredJWT } from "jose";
import { jwtVerifier } from "../../../src/http/auth/index.js";
import { startAuthorizationServer, type AuthorizationServer } from "../../fixtures/auth/authorization-server.js";
import { REFUSAL_REASONS } from "../../helpers/auth-host.js";

const AUDIENCE = "https://mcp.example.test/mcp";
const now = () => Math.floor(Date.now() / 1000);

async function assertRefused(attempt: Promise<unknown>, message: string, token: string): Promise<void> {
  await assert.rejects(attempt, (error: Error & { code?: string }) => {
    assert.equal(error.code, "AUTH_TOKEN_INVALID");
    assert.equal(error.message, message);
    for (const part of token.split(".").filter((p) => p.length > 8)) assert.equal(error.message.includes(part), false);
    assert.doesNotMatch(error.message, /jose|ERR_|\n|\bat\b.*\(/);
    return true;
  });
}

let as: AuthorizationServer;
let attacker: AuthorizationServer;
beforeEach(async () => {
  as = await startAuthorizationServer({ audience: AUDIENCE });
  attacker = await startAuthorizationServer({ audience: AUDIENCE });
});
afterEach(async () => {
  await as.close();
  await attacker.close();
});

const verifierFor = (extra: Partial<Parameters<typeof jwtVerifier>[0]> = {}) =>
  jwtVerifier({ issuer: as.issuer, audience: AUDIENCE, jwksUri: as.jwksUri, ...extra });

describe("JWT verification against a real JWKS endpoint", () => {
  it("accepts a genuine token and reports exactly who it speaks for", async () => {
    const token = await as.mint({ sub: "alice", scope: "mcp:read mcp:write", client_id: "cli" });
    const caller = await verifierFor().verify(token);
    assert.deepEqual(
      { ...caller, claims: undefined },
      {
        subject: "alice",
        clientId: "cli",
        scopes: ["mcp:read", "mcp:write"],
        expiresAt: caller.claims.exp,
        claims: undefined,
        resource: new URL(AUDIENCE),
      },
    );
    assert.equal(Object.isFrozen(caller.claims), true);
    assert.equal(JSON.stringify(caller).includes(token), false);
    assert.equal(as.calls.jwks, 1);
  });

  for (const alg of ["none", "None", "NONE"]) {
    it(`refuses an unsigned token (alg: ${alg})`, async () => {
      const valid = await as.mint();
      const payload = valid.split(".")[1]!;
      const token =
        alg === "none"
          ? new UnsecuredJWT({ iss: as.issuer, aud: AUDIENCE, sub: "alice", exp: now() + 300 }).encode()
          : `${base64url.encode(JSON.stringify({ alg }))}.${payload}.`;
      await assertRefused(verifierFor().verify(token), REFUSAL_REASONS.algorithm, token);
    });
  }

  it("refuses HS256 signed with the issuer's RSA public key (key confusion), from a JWKS and from a local PEM key", async () => {
    const pem = await as.publicKeyPem();
    const token = await new SignJWT({ iss: as.issuer, aud: AUDIENCE, sub: "alice", scope: "mcp:admin", exp: now() + 300 })
      .setProtectedHeader({ alg: "HS256", kid: as.kid })
      .sign(new TextEncoder().encode(pem));
    await assertRefused(verifierFor().verify(token), REFUSAL_REASONS.algorithm, token);
    await assertRefused(jwtVerifier({ issuer: as.issuer, audience: AUDIENCE, keys: [pem] }).verify(token), REFUSAL_REASONS.algorithm, token);
    assert.equal(as.calls.jwks, 0, "an algorithm outside the allow-list is refused before any key is fetched");
  });

  it("refuses an expired token, and accepts one expired within the 30 s clock tolerance", async () => {
    const expired = await as.mint({ exp: now() - 3600, iat: now() - 7200 });
    await assertRefused(verifierFor().verify(expired), REFUSAL_REASONS.expired, expired);
    const justExpired = await as.mint({ exp: now() - 10 });
    assert.equal((await verifierFor().verify(justExpired)).subject, "user-1");
  });

  it("refuses a token whose nbf is in the future", async () => {
    const token = await as.mint({ nbf: now() + 3600 });
    await assertRefused(verifierFor().verify(token), REFUSAL_REASONS.notYetValid, token);
  });

  it("refuses a token from another issuer", async () => {
    const token = await as.mint({ iss: "https://idp.attacker.test" });
    await assertRefused(verifierFor().verify(token), REFUSAL_REASONS.issuer, token);
  });

  it("refuses a token minted for another resource (the confused deputy)", async () => {
    const token = await as.mint({ aud: "https://other-resource.example.test/mcp" });
    await assertRefused(verifierFor().verify(token), REFUSAL_REASONS.audience, token);
  });

  it("refuses a token whose kid the issuer does not publish, without re-fetching during the cooldown", async () => {
    await verifierFor().verify(await as.mint());
    const { privateKey } = await generateKeyPair("RS256");
    const token = await new SignJWT({ iss: as.issuer, aud: AUDIENCE, sub: "alice", exp: now() + 300 })
      .setProtectedHeader({ alg: "RS256", kid: "unknown-kid" })
      .sign(privateKey);
    const verifier = verifierFor({ jwksCooldownMs: 3_600_000 });
    await verifier.verify(await as.mint());
    const fetchesBefore = as.calls.jwks;
    for (let i = 0; i < 5; i += 1) await assertRefused(verifier.verify(token), REFUSAL_REASONS.unknownKey, token);
    assert.equal(as.calls.jwks, fetchesBefore, "a flood of unknown kids does not hammer the JWKS endpoint");
  });

  it("refuses a token whose payload was tampered with", async () => {
    const genuine = await as.mint({ scope: "mcp:read" });
    const [header, payload, signature] = genuine.split(".") as [string, string, string];
    const claims = JSON.parse(new TextDecoder().decode(base64url.decode(payload)));
    const token = `${header}.${base64url.encode(JSON.stringify({ ...claims, scope: "mcp:read mcp:admin", sub: "root" }))}.${signature}`;
    await assertRefused(verifierFor().verify(token), REFUSAL_REASONS.signature, token);
  });

  for (const pointer of ["jku", "x5u", "jwk"] as const) {
    it(`never follows a ${pointer} header to the attacker's own key`, async () => {
      const ownKid = await attacker.mint({ iss: as.issuer }, { header: { [pointer]: pointer === "jwk" ? attacker.publicJwk() : attacker.jwksUri } });
      await assertRefused(verifierFor().verify(ownKid), REFUSAL_REASONS.unknownKey, ownKid);
      const victimKid = await attacker.mint(
        { iss: as.issuer },
        { header: { kid: as.kid, [pointer]: pointer === "jwk" ? attacker.publicJwk() : attacker.jwksUri } },
      );
      await assertRefused(verifierFor().verify(victimKid), REFUSAL_REASONS.signature, victimKid);
      assert.equal(attacker.calls.jwks, 0, "the attacker's key server was never asked");
    });
  }

  it("refuses a token with an unknown critical header", async () => {
    const token = await as.mint(
      {},
      { header: { crit: ["urn:example:must-understand"], "urn:example:must-understand": true }, crit: { "urn:example:must-understand": true } },
    );
    await assertRefused(verifierFor().verify(token), REFUSAL_REASONS.criticalHeader, token);
  });

  it("picks up a rotated key without a restart, and then refuses the retired key", async () => {
    const verifier = verifierFor({ jwksCooldownMs: 0 });
    assert.equal((await verifier.verify(await as.mint({ sub: "before" }))).subject, "before");
    const { retiredKid, kid } = await as.rotate();
    assert.notEqual(retiredKid, kid);
    const rotated = await as.mint({ sub: "after" });
    assert.equal((await verifier.verify(rotated)).subject, "after");
    assert.equal(as.calls.jwks, 2, "the new kid made the verifier fetch the key set again");
    const retired = await as.mint({ sub: "retired" }, { key: "retired" });
    await assertRefused(verifier.verify(retired), REFUSAL_REASONS.unknownKey, retired);
  });

  it("verifies ES256 and EdDSA tokens from a JWKS", async () => {
    const es = await startAuthorizationServer({ algorithm: "ES256", audience: AUDIENCE });
    try {
      const token = await es.mint({ sub: "ec-user" });
      assert.equal((await jwtVerifier({ issuer: es.issuer, audience: AUDIENCE, jwksUri: es.jwksUri }).verify(token)).subject, "ec-user");
    } finally {
      await es.close();
    }
    const { privateKey, publicKey } = await generateKeyPair("EdDSA", { extractable: true });
    const jwk = JSON.stringify({ ...(await exportJWK(publicKey)), kid: "ed" });
    const token = await new SignJWT({ iss: "https://ed.example.test", aud: AUDIENCE, sub: "ed-user", exp: now() + 60 })
      .setProtectedHeader({ alg: "EdDSA", kid: "ed" })
      .sign(privateKey);
    assert.equal((await jwtVerifier({ issuer: "https://ed.example.test", audience: AUDIENCE, keys: [jwk] }).verify(token)).subject, "ed-user");
  });
});
