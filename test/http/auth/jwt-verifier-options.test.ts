// jwtVerifier's settings and claim mapping: a misconfiguration (no issuer or audience, `none`, HS256 without a
// secret, private or unparsable keys, plain http off loopback) is refused when the verifier is made; a verified
// token's scopes, client, subject, expiry and resource are read exactly as documented; local keys (PEM, JWK set)
// and HMAC secrets work, and the clock decides expiry.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { exportJWK, exportPKCS8, exportSPKI, generateKeyPair, SignJWT, type CryptoKey } from "jose";
import { jwtVerifier, toAuthInfo, type JwtVerifierOptions } from "../../../src/http/auth/index.js";
import { ManualClock } from "../../helpers/manual-clock.js";

const ISSUER = "https://idp.example.test";
const AUDIENCE = "https://mcp.example.test/mcp";
const now = () => Math.floor(Date.now() / 1000);

function configError(options: unknown, message: string): void {
  assert.throws(
    () => jwtVerifier(options as JwtVerifierOptions),
    (error: Error & { code?: string }) => {
      assert.equal(error.code, "AUTH_CONFIG_INVALID");
      assert.equal(error.message, message);
      return true;
    },
  );
}

async function rsaKeys(): Promise<{ privateKey: CryptoKey; pem: string; jwk: string }> {
  const { privateKey, publicKey } = await generateKeyPair("RS256", { extractable: true });
  return { privateKey, pem: await exportSPKI(publicKey), jwk: JSON.stringify({ ...(await exportJWK(publicKey)), kid: "k1" }) };
}

function sign(claims: Record<string, unknown>, key: CryptoKey | Uint8Array, header: Record<string, unknown> = { alg: "RS256" }): Promise<string> {
  const full: Record<string, unknown> = { iss: ISSUER, aud: AUDIENCE, sub: "alice", exp: now() + 300, ...claims };
  for (const [k, v] of Object.entries(full)) if (v === undefined) delete full[k];
  return new SignJWT(full).setProtectedHeader(header as { alg: string }).sign(key);
}

describe("jwtVerifier settings", () => {
  it("requires issuer and audience", () => {
    configError(
      { audience: AUDIENCE, keys: ["x"] },
      "jwtVerifier: `issuer` is required: the `iss` your identity provider puts in its tokens (e.g. https://idp.example.com)",
    );
    const noAudience =
      "jwtVerifier: `audience` is required: this server's resource identifier (e.g. https://mcp.example.com/mcp) as the identity provider puts it in `aud`";
    configError({ issuer: ISSUER, jwksUri: "https://idp.example.test/jwks" }, noAudience);
    configError({ issuer: ISSUER, audience: [], jwksUri: "https://idp.example.test/jwks" }, noAudience);
    configError({ issuer: ISSUER, audience: [""], jwksUri: "https://idp.example.test/jwks" }, noAudience);
  });

  it("never accepts none, and HMAC only with its own secret", () => {
    const base = { issuer: ISSUER, audience: AUDIENCE, jwksUri: "https://idp.example.test/jwks" };
    configError({ ...base, algorithms: ["RS256", "none"] }, 'jwtVerifier: `algorithms` must not contain "none"; unsigned tokens are never accepted');
    configError(
      { ...base, algorithms: ["HS256"] },
      "jwtVerifier: `algorithms` contains HS256 but no hs256Secret is set; HMAC algorithms need their own secret",
    );
    configError(
      { ...base, algorithms: ["RS1"] },
      'jwtVerifier: `algorithms` contains "RS1"; use RS256, RS384, RS512, PS256, PS384, PS512, ES256, ES384, ES512, EdDSA, Ed25519, HS256, HS384, HS512',
    );
    configError({ ...base, algorithms: [] }, 'jwtVerifier: `algorithms` must be a non-empty list such as ["RS256"]');
    const secret = "s".repeat(32);
    configError(
      { issuer: ISSUER, audience: AUDIENCE, hs256Secret: secret, algorithms: ["HS256", "RS256"] },
      "jwtVerifier: with hs256Secret only HS256, HS384 and HS512 are accepted, not RS256",
    );
    configError({ issuer: ISSUER, audience: AUDIENCE, hs256Secret: "short" }, "jwtVerifier: `hs256Secret` must be at least 32 bytes");
    configError({ ...base, hs256Secret: secret }, "jwtVerifier: give exactly one of `jwksUri`, `keys` or `hs256Secret`");
    configError({ issuer: ISSUER, audience: AUDIENCE }, "jwtVerifier: give exactly one of `jwksUri`, `keys` or `hs256Secret`");
  });

  it("refuses keys that are private, symmetric or not keys at all", async () => {
    const { privateKey, publicKey } = await generateKeyPair("RS256", { extractable: true });
    const base = { issuer: ISSUER, audience: AUDIENCE };
    configError({ ...base, keys: [await exportPKCS8(privateKey)] }, "jwtVerifier: keys[0] is a private key; configure only the public key");
    configError(
      { ...base, keys: [await exportSPKI(publicKey), JSON.stringify(await exportJWK(privateKey))] },
      "jwtVerifier: keys[1] is a private key; configure only the public key",
    );
    configError(
      { ...base, keys: [JSON.stringify({ kty: "oct", k: "c2VjcmV0" })] },
      "jwtVerifier: keys[0] is a symmetric key; give HMAC secrets as hs256Secret",
    );
    configError({ ...base, keys: ["not a key"] }, "jwtVerifier: keys[0] is neither JWK JSON nor PEM text");
    configError(
      { ...base, keys: ["-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----"] },
      "jwtVerifier: keys[0] is not a PEM public key or certificate",
    );
    configError({ ...base, keys: [JSON.stringify({ keys: [{ kty: "RSA", n: "AQAB" }] })] }, "jwtVerifier: keys[0].keys[0] is not a valid public JWK");
    configError({ ...base, keys: [] }, "jwtVerifier: `keys` is empty; give at least one public key (JWK JSON or PEM)");
  });

  it("wants https for the JWKS, except on loopback or when allowed", () => {
    const base = { issuer: ISSUER, audience: AUDIENCE };
    const https = "jwtVerifier: `jwksUri` must use https (plain http is accepted only on loopback, or with allowInsecureHttp: true on a network you trust)";
    configError({ ...base, jwksUri: "http://idp.internal/jwks" }, https);
    configError(
      { ...base, jwksUri: "https://user:pass@idp.example.test/jwks" },
      "jwtVerifier: `jwksUri` must not carry credentials in the URL; pass them as options instead",
    );
    configError({ ...base, jwksUri: "jwks.json" }, "jwtVerifier: `jwksUri` must be an absolute URL (https://…)");
    assert.equal(jwtVerifier({ ...base, jwksUri: "http://idp.internal/jwks", allowInsecureHttp: true }).kind, "jwt");
    assert.equal(jwtVerifier({ ...base, jwksUri: "http://127.0.0.1:9/jwks" }).kind, "jwt");
    assert.deepEqual(jwtVerifier({ ...base, jwksUri: "https://idp.example.test/jwks", requiredScopes: ["mcp"] }).requiredScopes, ["mcp"]);
  });
});

describe("jwtVerifier claims", () => {
  it("reads scopes from scope, else scp (array or string), without duplicates", async () => {
    const { privateKey, pem } = await rsaKeys();
    const verifier = jwtVerifier({ issuer: ISSUER, audience: AUDIENCE, keys: [pem] });
    const scopes = async (claims: Record<string, unknown>) => (await verifier.verify(await sign(claims, privateKey))).scopes;
    assert.deepEqual(await scopes({ scope: "a b  a c" }), ["a", "b", "c"]);
    assert.deepEqual(await scopes({ scp: ["x", "y", 3, "x"] }), ["x", "y"]);
    assert.deepEqual(await scopes({ scp: "p q" }), ["p", "q"]);
    assert.deepEqual(await scopes({ scope: "wins", scp: ["loses"] }), ["wins"]);
    assert.deepEqual(await scopes({}), []);
  });

  it("reads the client from client_id, azp or cid, and the resource from the accepted audience", async () => {
    const { privateKey, jwk } = await rsaKeys();
    const verifier = jwtVerifier({ issuer: ISSUER, audience: ["urn:mcp:test", AUDIENCE], keys: [jwk] });
    const header = { alg: "RS256", kid: "k1" };
    const verify = async (claims: Record<string, unknown>) => verifier.verify(await sign(claims, privateKey, header));
    assert.equal((await verify({ client_id: "a", azp: "b", cid: "c" })).clientId, "a");
    assert.equal((await verify({ azp: "b", cid: "c" })).clientId, "b");
    assert.equal((await verify({ cid: "c" })).clientId, "c");
    assert.equal((await verify({})).clientId, "");
    assert.equal((await verify({ aud: ["elsewhere", AUDIENCE] })).resource?.href, AUDIENCE);
    assert.equal((await verify({ aud: "urn:mcp:test" })).resource, undefined);
  });

  it("needs a subject and an expiry", async () => {
    const { privateKey, pem } = await rsaKeys();
    const verifier = jwtVerifier({ issuer: ISSUER, audience: AUDIENCE, keys: [pem] });
    await assert.rejects(verifier.verify(await sign({ sub: undefined }, privateKey)), {
      code: "AUTH_TOKEN_INVALID",
      message: "the access token has no subject (sub)",
    });
    await assert.rejects(verifier.verify(await sign({ sub: "" }, privateKey)), {
      code: "AUTH_TOKEN_INVALID",
      message: "the access token has no subject (sub)",
    });
    await assert.rejects(verifier.verify(await sign({ exp: undefined }, privateKey)), {
      code: "AUTH_TOKEN_INVALID",
      message: "the access token has no expiry (exp)",
    });
    await assert.rejects(verifier.verify("not-a-jwt"), { code: "AUTH_TOKEN_INVALID", message: "the access token is malformed" });
    await assert.rejects(verifier.verify(""), { code: "AUTH_TOKEN_INVALID", message: "the access token is malformed" });
  });

  it("names the missing required scopes, not the ones the token has", async () => {
    const { privateKey, pem } = await rsaKeys();
    const verifier = jwtVerifier({ issuer: ISSUER, audience: AUDIENCE, keys: [pem], requiredScopes: ["mcp:read", "mcp:admin", "mcp:audit"] });
    await assert.rejects(verifier.verify(await sign({ scope: "mcp:read secret:scope" }, privateKey)), {
      code: "AUTH_INSUFFICIENT_SCOPE",
      message: "the access token lacks the required scope(s): mcp:admin mcp:audit",
    });
    assert.deepEqual((await verifier.verify(await sign({ scope: "mcp:audit mcp:admin mcp:read" }, privateKey))).scopes, ["mcp:audit", "mcp:admin", "mcp:read"]);
  });

  it("tries each local key when a token has no kid", async () => {
    const first = await rsaKeys();
    const second = await rsaKeys();
    const verifier = jwtVerifier({ issuer: ISSUER, audience: AUDIENCE, keys: [first.pem, second.pem] });
    assert.equal((await verifier.verify(await sign({ sub: "by-second" }, second.privateKey))).subject, "by-second");
    const stranger = await rsaKeys();
    await assert.rejects(verifier.verify(await sign({}, stranger.privateKey)), {
      code: "AUTH_TOKEN_INVALID",
      message: "the access token's signature does not verify",
    });
  });

  it("verifies HS256 with its secret only", async () => {
    const secret = "a-shared-secret-of-at-least-32-bytes!";
    const verifier = jwtVerifier({ issuer: ISSUER, audience: AUDIENCE, hs256Secret: secret });
    const good = await sign({}, new TextEncoder().encode(secret), { alg: "HS256" });
    assert.equal((await verifier.verify(good)).subject, "alice");
    const other = await sign({}, new TextEncoder().encode("another-secret-that-is-32-bytes-long"), { alg: "HS256" });
    await assert.rejects(verifier.verify(other), { code: "AUTH_TOKEN_INVALID", message: "the access token's signature does not verify" });
    const rsa = await sign({}, (await rsaKeys()).privateKey);
    await assert.rejects(verifier.verify(rsa), {
      code: "AUTH_TOKEN_INVALID",
      message: "the access token is signed with an algorithm this server does not accept",
    });
  });

  it("decides expiry by the clock it is given", async () => {
    const { privateKey, pem } = await rsaKeys();
    const clock = new ManualClock(Date.now());
    const verifier = jwtVerifier({ issuer: ISSUER, audience: AUDIENCE, keys: [pem], clock, clockToleranceSec: 0 });
    const token = await sign({ exp: now() + 60 }, privateKey);
    assert.equal((await verifier.verify(token)).subject, "alice");
    await clock.advance(61_000);
    await assert.rejects(verifier.verify(token), { code: "AUTH_TOKEN_INVALID", message: "the access token has expired" });
  });

  it("gives the SDK an AuthInfo with the token, and keeps the token out of the caller", async () => {
    const { privateKey, pem } = await rsaKeys();
    const token = await sign({ scope: "mcp:read", client_id: "cli", exp: 2_000_000_000 }, privateKey);
    const caller = await jwtVerifier({ issuer: ISSUER, audience: AUDIENCE, keys: [pem] }).verify(token);
    assert.equal(JSON.stringify(caller).includes(token), false);
    assert.deepEqual(toAuthInfo(caller, token, { resourceMetadataUrl: "https://mcp.example.test/.well-known/oauth-protected-resource/mcp" }), {
      token,
      clientId: "cli",
      scopes: ["mcp:read"],
      expiresAt: 2_000_000_000,
      resource: new URL(AUDIENCE),
      resourceMetadataUrl: "https://mcp.example.test/.well-known/oauth-protected-resource/mcp",
      extra: { subject: "alice", claims: caller.claims },
    });
  });
});
