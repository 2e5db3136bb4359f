// The rules of `auth:`: JWT verification needs an issuer, an audience and one key source; introspection replaces
// them; `none` is never an algorithm; HMAC algorithms and hs256Secret come together; toolsetScopes names
// toolsets. Each problem names the key and repeats no secret.
import assert from "node:assert/strict";
import { afterEach, describe, it } from "node:test";
import { loadYaml, messageAt, refused, removeProjects } from "./config-kit.js";

afterEach(removeProjects);

const env = { HMAC: "hmac-S3CRET", IS: "introspect-S3CRET" };
const SECRETS = ["hmac-S3CRET", "introspect-S3CRET"];

describe("auth", () => {
  it("resolves a JWT setup with its defaults: audience as a list, authorization servers from the issuer", async () => {
    const loaded = await loadYaml(
      "auth:\n  issuer: https://id.example.com/\n  audience: https://mcp.example.com/mcp\n  jwksUri: https://id.example.com/jwks\n",
    );
    assert.deepEqual(loaded.config.auth, {
      issuer: "https://id.example.com/",
      audience: ["https://mcp.example.com/mcp"],
      jwksUri: "https://id.example.com/jwks",
      algorithms: ["RS256", "PS256", "ES256", "EdDSA"],
      clockToleranceSec: 30,
      requiredScopes: [],
      scopesSupported: [],
      toolsetScopes: {},
      onInsufficientScope: "refuse",
      publicToolsets: false,
      authorizationServers: ["https://id.example.com/"],
    });
  });

  it("needs issuer, audience and a key source for JWT verification", async () => {
    const r = await refused(loadYaml("auth:\n  requiredScopes: [mcp:use]\n"), [
      ["CONFIG_INVALID", "auth"],
      ["CONFIG_INVALID", "auth.audience"],
      ["CONFIG_INVALID", "auth.issuer"],
    ]);
    assert.equal(messageAt(r, "auth"), "needs a key source: jwksUri, keys or hs256Secret (or introspection for opaque tokens)");
    assert.equal(messageAt(r, "auth.issuer"), "is required for JWT verification (or configure auth.introspection for opaque tokens)");
  });

  it("lets introspection replace issuer and keys, but not the audience (or resource) a token must name", async () => {
    const introspection = "  introspection: { endpoint: https://id.example.com/introspect, clientId: mcp-host, clientSecret: '${env:IS}' }\n";
    const r = await refused(loadYaml(`auth:\n${introspection}`, { env }), [["CONFIG_INVALID", "auth.audience"]], SECRETS);
    assert.equal(
      messageAt(r, "auth.audience"),
      "is required with auth.introspection (or set auth.resource): an introspected token's aud must name this server, else a token issued for another resource is accepted",
    );
    const byResource = await loadYaml(`auth:\n  resource: https://mcp.example.com/mcp\n${introspection}`, { env });
    assert.equal(byResource.config.auth?.resource, "https://mcp.example.com/mcp");
    const loaded = await loadYaml(`auth:\n  audience: https://mcp.example.com/mcp\n${introspection}`, { env });
    assert.deepEqual(loaded.config.auth?.audience, ["https://mcp.example.com/mcp"]);
    assert.deepEqual(loaded.config.auth?.introspection, {
      endpoint: "https://id.example.com/introspect",
      clientId: "mcp-host",
      clientSecret: "introspect-S3CRET",
      cacheMaxSeconds: 300,
    });
    assert.deepEqual(loaded.config.auth?.authorizationServers, []);
    await refused(
      loadYaml("auth:\n  audience: mcp\n  introspection: { clientId: mcp-host, clientSecret: '${env:IS}', cacheMaxSeconds: 7200 }\n", { env }),
      [
        ["CONFIG_INVALID", "auth.introspection.cacheMaxSeconds"],
        ["CONFIG_INVALID", "auth.introspection.endpoint"],
      ],
      SECRETS,
    );
  });

  it("refuses jwksUri together with keys", async () => {
    const r = await refused(
      loadYaml("auth:\n  issuer: https://id.example.com/\n  audience: mcp\n  jwksUri: https://id.example.com/jwks\n  keys: ['${env:HMAC}']\n", { env }),
      [["CONFIG_INVALID", "auth.keys"]],
      SECRETS,
    );
    assert.equal(messageAt(r, "auth.keys"), "is set together with auth.jwksUri; keys come from one of them, so remove one");
  });

  it('never accepts "none", in any case', async () => {
    const r = await refused(
      loadYaml("auth:\n  issuer: https://id.example.com/\n  audience: mcp\n  jwksUri: https://id.example.com/jwks\n  algorithms: [RS256, none, NONE]\n"),
      [
        ["CONFIG_INVALID", "auth.algorithms[1]"],
        ["CONFIG_INVALID", "auth.algorithms[2]"],
      ],
    );
    assert.equal(messageAt(r, "auth.algorithms[1]"), '"none" is never accepted: an unsigned token would let anyone in');
  });

  it("allows HS algorithms only with hs256Secret, and hs256Secret only with an HS algorithm", async () => {
    const jwt = "auth:\n  issuer: https://id.example.com/\n  audience: mcp\n";
    const noSecret = await refused(loadYaml(`${jwt}  jwksUri: https://id.example.com/jwks\n  algorithms: [RS256, HS256, HS512]\n`), [
      ["CONFIG_INVALID", "auth.algorithms[1]"],
      ["CONFIG_INVALID", "auth.algorithms[2]"],
    ]);
    assert.equal(messageAt(noSecret, "auth.algorithms[2]"), "HS512 needs auth.hs256Secret (the shared secret); set it or remove HS512");
    const unused = await refused(loadYaml(`${jwt}  hs256Secret: '\${env:HMAC}'\n`, { env }), [["CONFIG_INVALID", "auth.hs256Secret"]], SECRETS);
    assert.equal(
      messageAt(unused, "auth.hs256Secret"),
      'is set but auth.algorithms lists no HS256, HS384 or HS512, so it would never be used; add "HS256" to auth.algorithms or remove hs256Secret',
    );
    const ok = await loadYaml(`${jwt}  hs256Secret: '\${env:HMAC}'\n  algorithms: [HS256]\n`, { env });
    assert.equal(ok.config.auth?.hs256Secret, "hmac-S3CRET");
  });

  it("refuses an algorithm it does not know", async () => {
    const r = await refused(
      loadYaml("auth:\n  issuer: https://id.example.com/\n  audience: mcp\n  jwksUri: https://id.example.com/jwks\n  algorithms: [RS255]\n"),
      [["CONFIG_INVALID", "auth.algorithms[0]"]],
    );
    assert.match(messageAt(r, "auth.algorithms[0]"), /^must be one of "RS256", "RS384", .*"HS512"$/);
  });

  it("refuses toolsetScopes keys that are not toolset names, and scopes with spaces", async () => {
    const r = await refused(
      loadYaml(
        "auth:\n  issuer: https://id.example.com/\n  audience: mcp\n  jwksUri: https://id.example.com/jwks\n  toolsetScopes: { 'a b': [x], admin: ['mcp admin'], ok: [mcp:admin] }\n  requiredScopes: []\n",
      ),
      [
        ["CONFIG_INVALID", 'auth.toolsetScopes["a b"]'],
        ["CONFIG_INVALID", "auth.toolsetScopes.admin[0]"],
      ],
    );
    assert.equal(messageAt(r, "auth.toolsetScopes.admin[0]"), "must be one scope token (no spaces, quotes or backslashes)");
  });

  it("refuses clockToleranceSec out of range, quoting the range", async () => {
    const r = await refused(
      loadYaml("auth:\n  issuer: https://id.example.com/\n  audience: mcp\n  jwksUri: https://id.example.com/jwks\n  clockToleranceSec: 301\n"),
      [["CONFIG_INVALID", "auth.clockToleranceSec"]],
    );
    assert.equal(messageAt(r, "auth.clockToleranceSec"), "must be a whole number from 0 to 300, got 301");
  });
});
