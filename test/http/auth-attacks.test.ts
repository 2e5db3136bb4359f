// The JWT attacks against a real host (docs/design.md §9; issue 9 item 9): mcp-host served on 127.0.0.1:0 with `auth`
// as the config file gives it, verifying against the fixture's real JWKS endpoint on loopback, keys made with jose.
// Each attack — alg none, HS256 with the RSA public key, expired, nbf in the future, wrong issuer, wrong audience,
// unknown kid, tampered payload, jku/x5u/jwk pointing at the attacker's key, unknown crit, a retired key — is
// sent in both eras and gets 401 with nothing internal in the answer, the precise reason only in the log, and no
// tool runs; a rotated key is picked up without a restart.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { base64url, generateKeyPair, SignJWT, UnsecuredJWT } from "jose";
import { jwtVerifier } from "../../src/http/auth/index.js";
import { AUDIENCE, type AuthHost, authTestFile, bearer, REFUSAL_REASONS } from "../helpers/auth-host.js";
import { LEGACY_POST_HEADERS, legacyInitialize, raw, modernBody, modernHeaders } from "../helpers/http-host.js";

const file = authTestFile({ attacker: true });
const { watch } = file;

const now = () => Math.floor(Date.now() / 1000);
const ESCALATED = { sub: "root", scope: "mcp:read mcp:admin" };

const DISCOVER = "Get a token from the authorization server named in the resource metadata (the resource_metadata URL in WWW-Authenticate) and retry.";

/** The attacks, each a token and the reason the log must give. */
async function attacks(): Promise<Array<{ name: string; token: string; reason: keyof typeof REFUSAL_REASONS }>> {
  const pem = await file.as.publicKeyPem();
  const genuine = await file.as.mint({ scope: "mcp:read" });
  const [header, payload, signature] = genuine.split(".") as [string, string, string];
  const claims = JSON.parse(new TextDecoder().decode(base64url.decode(payload)));
  const { privateKey: strangerKey } = await generateKeyPair("RS256");
  const base = { iss: file.as.issuer, aud: AUDIENCE, ...ESCALATED, exp: now() + 300 };
  const list = [
    { name: "alg none", token: new UnsecuredJWT(base).encode(), reason: "algorithm" as const },
    { name: "alg None", token: `${base64url.encode(JSON.stringify({ alg: "None" }))}.${payload}.`, reason: "algorithm" as const },
    {
      name: "HS256 signed with the RSA public key (key confusion)",
      token: await new SignJWT(base).setProtectedHeader({ alg: "HS256", kid: file.as.kid }).sign(new TextEncoder().encode(pem)),
      reason: "algorithm" as const,
    },
    { name: "expired", token: await file.as.mint({ ...ESCALATED, exp: now() - 3600, iat: now() - 7200 }), reason: "expired" as const },
    { name: "nbf in the future", token: await file.as.mint({ ...ESCALATED, nbf: now() + 3600 }), reason: "notYetValid" as const },
    { name: "wrong issuer", token: await file.as.mint({ ...ESCALATED, iss: "https://idp.attacker.test" }), reason: "issuer" as const },
    {
      name: "wrong audience (confused deputy)",
      token: await file.as.mint({ ...ESCALATED, aud: "https://other-resource.example/mcp" }),
      reason: "audience" as const,
    },
    {
      name: "unknown kid",
      token: await new SignJWT(base).setProtectedHeader({ alg: "RS256", kid: "unknown-kid" }).sign(strangerKey),
      reason: "unknownKey" as const,
    },
    {
      name: "tampered payload",
      token: `${header}.${base64url.encode(JSON.stringify({ ...claims, ...ESCALATED }))}.${signature}`,
      reason: "signature" as const,
    },
    {
      name: "unknown crit header",
      token: await file.as.mint(ESCALATED, {
        header: { crit: ["urn:x:must-understand"], "urn:x:must-understand": true },
        crit: { "urn:x:must-understand": true },
      }),
      reason: "criticalHeader" as const,
    },
  ];
  for (const pointer of ["jku", "x5u", "jwk"] as const) {
    const value = pointer === "jwk" ? file.attacker.publicJwk() : file.attacker.jwksUri;
    list.push({
      name: `${pointer} to the attacker's key, the attacker's kid`,
      token: await file.attacker.mint({ iss: file.as.issuer, aud: AUDIENCE, ...ESCALATED }, { header: { [pointer]: value } }),
      reason: "unknownKey",
    });
    list.push({
      name: `${pointer} to the attacker's key, the victim's kid`,
      token: await file.attacker.mint({ iss: file.as.issuer, aud: AUDIENCE, ...ESCALATED }, { header: { kid: file.as.kid, [pointer]: value } }),
      reason: "signature",
    });
  }
  for (const attack of list) watch.track(attack.token);
  return list;
}

/** Sends `token` in both eras to a selection that names admin; returns both answers. */
async function attempt(served: AuthHost, token: string) {
  const url = served.at("only=admin,notes");
  const legacy = await raw({ url, method: "POST", headers: { ...LEGACY_POST_HEADERS, ...bearer(token) }, body: legacyInitialize() });
  const modern = await raw({
    url,
    method: "POST",
    headers: { ...modernHeaders("tools/call", "wipe"), ...bearer(token) },
    body: modernBody("tools/call", { name: "wipe", arguments: {} }),
  });
  return { legacy, modern };
}

function assertRefused(response: Awaited<ReturnType<typeof attempt>>["legacy"], label: string, expired: boolean): void {
  assert.equal(response.status, 401, label);
  const description = expired ? "The access token has expired" : "The access token is invalid";
  assert.match(
    String(response.headers["www-authenticate"]),
    new RegExp(`^Bearer error="invalid_token", error_description="${description}", scope="mcp:read", resource_metadata="`),
    label,
  );
  assert.deepEqual(
    response.json,
    { jsonrpc: "2.0", error: { code: -32000, message: `Unauthorized: the access token ${expired ? "has expired" : "is invalid"}. ${DISCOVER}` }, id: null },
    label,
  );
}

describe("JWT attacks against a served host", { timeout: 90_000 }, () => {
  it("refuses every attack in both eras with a detail-free 401; the log has the reason; nothing runs", async () => {
    const served = await file.serve();
    const list = await attacks();
    const outcomes: Record<string, string> = {};
    for (const { name, token, reason } of list) {
      const mark = served.records.length;
      const { legacy, modern } = await attempt(served, token);
      assertRefused(legacy, `${name} (legacy)`, reason === "expired");
      assertRefused(modern, `${name} (modern)`, reason === "expired");
      const logged = served.records.slice(mark).filter((r) => r.message === "bearer token refused");
      assert.equal(logged.length, 2, name);
      for (const record of logged) {
        assert.equal(record.level, "info", name);
        assert.deepEqual({ code: record.data?.code, reason: record.data?.reason }, { code: "AUTH_TOKEN_INVALID", reason: REFUSAL_REASONS[reason] }, name);
      }
      outcomes[name] = `${legacy.status}/${modern.status} ${reason}`;
    }
    assert.deepEqual(outcomes, {
      "alg none": "401/401 algorithm",
      "alg None": "401/401 algorithm",
      "HS256 signed with the RSA public key (key confusion)": "401/401 algorithm",
      expired: "401/401 expired",
      "nbf in the future": "401/401 notYetValid",
      "wrong issuer": "401/401 issuer",
      "wrong audience (confused deputy)": "401/401 audience",
      "unknown kid": "401/401 unknownKey",
      "tampered payload": "401/401 signature",
      "unknown crit header": "401/401 criticalHeader",
      "jku to the attacker's key, the attacker's kid": "401/401 unknownKey",
      "jku to the attacker's key, the victim's kid": "401/401 signature",
      "x5u to the attacker's key, the attacker's kid": "401/401 unknownKey",
      "x5u to the attacker's key, the victim's kid": "401/401 signature",
      "jwk to the attacker's key, the attacker's kid": "401/401 unknownKey",
      "jwk to the attacker's key, the victim's kid": "401/401 signature",
    });
    assert.deepEqual(served.runs, [], "no tool ran");
    assert.equal(file.attacker.calls.jwks, 0, "the attacker's key server was never asked");
    assert.equal(served.served.hostApp.endpoints.sessions.size, 0);
    // The same host still serves a genuine caller.
    const genuine = await attempt(served, await served.token(ESCALATED));
    assert.equal(genuine.modern.status, 200, genuine.modern.text);
    assert.deepEqual(served.runs, ["admin/wipe root"]);
  });

  it("picks up a rotated key without a restart, and refuses the retired key", async () => {
    // The JWKS cooldown (30 s by default, which stops a flood of made-up kids from hammering the issuer) is what
    // delays a rotation; a deployment sets it in code through `verifier`.
    const served = await file.serve({
      auth: {
        verifier: jwtVerifier({ issuer: file.as.issuer, audience: AUDIENCE, jwksUri: file.as.jwksUri, jwksCooldownMs: 0 }),
        issuer: undefined,
        audience: undefined,
        jwksUri: undefined,
        authorizationServers: [file.as.issuer],
      },
    });
    const first = await attempt(served, await served.token({ ...ESCALATED, sub: "before" }));
    assert.equal(first.modern.status, 200, first.modern.text);
    await file.as.rotate();
    const rotated = await attempt(served, await served.token({ ...ESCALATED, sub: "after" }));
    assert.equal(rotated.modern.status, 200, rotated.modern.text);
    const retired = watch.track(await file.as.mint({ ...ESCALATED, sub: "retired" }, { key: "retired" }));
    const refused = await attempt(served, retired);
    assertRefused(refused.legacy, "retired key (legacy)", false);
    assertRefused(refused.modern, "retired key (modern)", false);
    assert.equal(served.records.filter((r) => r.data?.reason === REFUSAL_REASONS.unknownKey).length, 2);
    assert.deepEqual(served.runs, ["admin/wipe before", "admin/wipe after"]);
  });
});
