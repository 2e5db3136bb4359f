// Credentials must be secret references: a literal header value, upstream token or client secret, custom auth
// setting, HMAC secret, introspection secret or key is refused with MCP_CREDENTIALS_INLINE naming the key — and
// the value appears nowhere in what is reported. Settings that are not credentials may be literal.
import assert from "node:assert/strict";
import { afterEach, describe, it } from "node:test";
import { loadYaml, messageAt, refused, removeProjects } from "./config-kit.js";

afterEach(removeProjects);

const INLINE = 'is a credential and must be a secret reference such as "${env:NAME}" or "${file:./path}", not a literal value (the value is not shown)';

describe("the credential rule", () => {
  it("refuses a literal header value, naming the header and never the value", async () => {
    const r = await refused(
      loadYaml("servers:\n  kb: { url: https://kb.example.com/mcp, headers: { X-API-Key: sk-HEADER-LITERAL } }\n"),
      [["MCP_CREDENTIALS_INLINE", "servers.kb.headers.X-API-Key"]],
      ["sk-HEADER-LITERAL"],
    );
    assert.equal(messageAt(r, "servers.kb.headers.X-API-Key"), INLINE);
  });

  it("refuses every literal header, also one that is not obviously secret, and accepts embedded references", async () => {
    const yaml = "servers:\n  kb:\n    url: https://kb.example.com/mcp\n    headers: { X-Tenant-Id: acme-LITERAL, Authorization: 'Bearer ${env:KB_TOKEN}' }\n";
    await refused(
      loadYaml(yaml, { env: { KB_TOKEN: "t0k-S3CRET" } }),
      [["MCP_CREDENTIALS_INLINE", "servers.kb.headers.X-Tenant-Id"]],
      ["acme-LITERAL", "t0k-S3CRET"],
    );
  });

  it("refuses a literal bearer token and oauth client secret, but not a literal clientId, scope or tokenUrl", async () => {
    const yaml = [
      "servers:",
      "  hosted: { url: https://h.example.com/mcp, auth: { kind: bearer, token: tok-BEARER-LITERAL } }",
      "  corp: { url: https://c.example.com/mcp, auth: { kind: oauth, clientId: mcp-host, clientSecret: cs-OAUTH-LITERAL, scope: 'tools:read', tokenUrl: https://id.example.com/token } }",
    ].join("\n");
    await refused(
      loadYaml(yaml),
      [
        ["MCP_CREDENTIALS_INLINE", "servers.corp.auth.clientSecret"],
        ["MCP_CREDENTIALS_INLINE", "servers.hosted.auth.token"],
      ],
      ["tok-BEARER-LITERAL", "cs-OAUTH-LITERAL"],
    );
  });

  it("treats every string setting of a contributed auth kind as a credential, nested ones too, except kind", async () => {
    const yaml =
      "servers:\n  v: { url: https://v.example.com/mcp, auth: { kind: vault, role: ROLE-LITERAL, ttl: 30, paths: [PATH-LITERAL, '${env:P}'], nested: { key: NESTED-LITERAL } } }\n";
    await refused(
      loadYaml(yaml, { env: { P: "p-S3CRET" }, authKinds: ["vault"] }),
      [
        ["MCP_CREDENTIALS_INLINE", "servers.v.auth.nested.key"],
        ["MCP_CREDENTIALS_INLINE", "servers.v.auth.paths[0]"],
        ["MCP_CREDENTIALS_INLINE", "servers.v.auth.role"],
      ],
      ["ROLE-LITERAL", "PATH-LITERAL", "NESTED-LITERAL"],
    );
  });

  it("refuses a literal hs256Secret, introspection client secret and key", async () => {
    const yaml = [
      "auth:",
      "  issuer: https://id.example.com/",
      "  audience: mcp",
      "  keys: ['-----BEGIN PUBLIC KEY----- KEY-LITERAL', '${env:KEY}']",
      "  algorithms: [RS256, HS256]",
      "  hs256Secret: HMAC-LITERAL",
      "  introspection: { endpoint: https://id.example.com/introspect, clientId: mcp-host, clientSecret: INTROSPECT-LITERAL }",
    ].join("\n");
    await refused(
      loadYaml(yaml, { env: { KEY: '{"kty":"OKP"}' } }),
      [
        ["MCP_CREDENTIALS_INLINE", "auth.hs256Secret"],
        ["MCP_CREDENTIALS_INLINE", "auth.introspection.clientSecret"],
        ["MCP_CREDENTIALS_INLINE", "auth.keys[0]"],
      ],
      ["KEY-LITERAL", "HMAC-LITERAL", "INTROSPECT-LITERAL"],
    );
  });

  it("accepts every credential written as a reference, and resolves them", async () => {
    const yaml = [
      "auth: { issuer: https://id.example.com/, audience: mcp, algorithms: [HS256], hs256Secret: '${env:HMAC}' }",
      "servers:",
      "  kb: { url: https://kb.example.com/mcp, headers: { X-API-Key: '${env:KB}' } }",
      "  corp: { url: https://c.example.com/mcp, auth: { kind: oauth, clientId: mcp-host, clientSecret: '${env:CS}', issuer: https://id.example.com } }",
    ].join("\n");
    const loaded = await loadYaml(yaml, { env: { HMAC: "hmac-secret", KB: "kb-secret", CS: "cs-secret" } });
    assert.equal(loaded.config.auth?.hs256Secret, "hmac-secret");
    const corp = loaded.config.servers.corp!;
    assert.deepEqual(corp.transport === "http" && corp.auth, {
      kind: "oauth",
      clientId: "mcp-host",
      clientSecret: "cs-secret",
      issuer: "https://id.example.com",
    });
    assert.deepEqual(loaded.secrets, ["cs-secret", "hmac-secret", "kb-secret"]);
  });
});
