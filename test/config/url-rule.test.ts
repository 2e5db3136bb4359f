// URLs mcp-host dials or publishes must be https (plain http only to loopback), carry no user name or password
// and no fragment; server URLs, issuers and authorization servers also no query string. The problem says what is
// wrong and never repeats the URL, nor the secret it may carry.
import assert from "node:assert/strict";
import { afterEach, describe, it } from "node:test";
import { loadYaml, messageAt, refused, removeProjects } from "./config-kit.js";

afterEach(removeProjects);

const HTTP = "the URL uses http:// for a non-loopback host; use https:// (plain http is allowed only for localhost, 127.0.0.0/8 and [::1])";

function server(url: string, extra = ""): string {
  return `servers:\n  kb: { url: "${url}"${extra} }\n`;
}

describe("the URL rule for upstream servers", () => {
  it("refuses plain http to a non-loopback host", async () => {
    const r = await refused(loadYaml(server("http://kb.internal.example.com/mcp")), [["MCP_URL_INVALID", "servers.kb.url"]], ["kb.internal.example.com"]);
    assert.equal(messageAt(r, "servers.kb.url"), HTTP);
  });

  it("refuses a user name or password, and a query string, without repeating them", async () => {
    const userinfo = await refused(
      loadYaml(server("https://admin:pw-USERINFO@kb.example.com/mcp")),
      [["MCP_URL_INVALID", "servers.kb.url"]],
      ["pw-USERINFO", "admin", "kb.example.com"],
    );
    assert.equal(messageAt(userinfo, "servers.kb.url"), "the URL contains a user name or password; put credentials in headers or auth");
    const query = await refused(
      loadYaml(server("https://kb.example.com/mcp?api_key=sk-QUERY")),
      [["MCP_URL_INVALID", "servers.kb.url"]],
      ["sk-QUERY", "kb.example.com"],
    );
    assert.equal(messageAt(query, "servers.kb.url"), "the URL has a query string; put credentials in headers or auth");
  });

  it("refuses a fragment, another scheme and something that is not a URL", async () => {
    const hash = await refused(loadYaml(server("https://kb.example.com/mcp#frag-SECRET")), [["MCP_URL_INVALID", "servers.kb.url"]], ["frag-SECRET"]);
    assert.equal(messageAt(hash, "servers.kb.url"), "the URL has a fragment (#…); remove it");
    const ws = await refused(loadYaml(server("wss://kb.example.com/mcp")), [["MCP_URL_INVALID", "servers.kb.url"]], ["kb.example.com"]);
    assert.equal(messageAt(ws, "servers.kb.url"), "the URL uses a scheme other than https://");
    const junk = await refused(loadYaml(server("kb.example.com/mcp sk-JUNK")), [["MCP_URL_INVALID", "servers.kb.url"]], ["sk-JUNK"]);
    assert.equal(messageAt(junk, "servers.kb.url"), "the URL is not a valid absolute URL (write https://host/path)");
  });

  it("accepts https anywhere and plain http on localhost, 127.0.0.0/8 and [::1]", async () => {
    const urls = ["https://kb.example.com/mcp", "http://localhost:3000/mcp", "http://127.0.0.1:1/mcp", "http://127.9.9.9/mcp", "http://[::1]:8080/mcp"];
    const yaml = `servers:\n${urls.map((u, i) => `  s${i}: { url: "${u}" }`).join("\n")}\n`;
    const loaded = await loadYaml(yaml);
    assert.deepEqual(
      Object.values(loaded.config.servers).map((s) => s.transport === "http" && s.url),
      urls,
    );
  });

  it("refuses a URL that arrives through a reference, without repeating it", async () => {
    const r = await refused(
      loadYaml(server("${env:KB_URL}"), { env: { KB_URL: "http://kb.example.com/mcp?key=sk-ENV" } }),
      [["MCP_URL_INVALID", "servers.kb.url"]],
      ["sk-ENV", "kb.example.com"],
    );
    assert.equal(messageAt(r, "servers.kb.url"), HTTP);
  });

  it("checks an oauth tokenUrl (a query string is allowed there)", async () => {
    const auth = (url: string) => `, auth: { kind: oauth, clientId: c, clientSecret: '\${env:S}', tokenUrl: '${url}' }`;
    const r = await refused(
      loadYaml(server("https://kb.example.com/mcp", auth("http://id.example.com/token")), { env: { S: "s-S3CRET" } }),
      [["MCP_URL_INVALID", "servers.kb.auth.tokenUrl"]],
      ["id.example.com"],
    );
    assert.equal(messageAt(r, "servers.kb.auth.tokenUrl"), HTTP);
    const ok = await loadYaml(server("https://kb.example.com/mcp", auth("https://id.example.com/token?tenant=acme")), { env: { S: "s-S3CRET" } });
    const kb = ok.config.servers.kb!;
    assert.equal(kb.transport === "http" && kb.auth?.kind, "oauth");
  });
});

describe("the URL rule for auth", () => {
  const base = "  audience: mcp\n  algorithms: [RS256]\n";

  it("checks issuer, jwksUri, introspection endpoint, resource and authorization servers", async () => {
    const yaml = [
      "auth:",
      "  issuer: http://id.example.com/",
      "  audience: mcp",
      "  jwksUri: https://u:p-JWKS@id.example.com/jwks",
      "  resource: http://mcp.example.com/mcp",
      "  authorizationServers: [https://id.example.com/, 'https://as.example.com/?tenant=t-AS']",
      "  introspection: { endpoint: 'https://id.example.com/introspect#x-FRAG', clientId: c, clientSecret: '${env:S}' }",
    ].join("\n");
    const r = await refused(
      loadYaml(yaml, { env: { S: "s-S3CRET" } }),
      [
        ["MCP_URL_INVALID", "auth.authorizationServers[1]"],
        ["MCP_URL_INVALID", "auth.introspection.endpoint"],
        ["MCP_URL_INVALID", "auth.issuer"],
        ["MCP_URL_INVALID", "auth.jwksUri"],
        ["MCP_URL_INVALID", "auth.resource"],
      ],
      ["id.example.com", "p-JWKS", "t-AS", "x-FRAG", "mcp.example.com"],
    );
    assert.equal(messageAt(r, "auth.issuer"), HTTP);
    assert.equal(messageAt(r, "auth.jwksUri"), "the URL contains a user name or password; remove it");
    assert.equal(messageAt(r, "auth.authorizationServers[1]"), "the URL has a query string; remove it");
    assert.equal(messageAt(r, "auth.introspection.endpoint"), "the URL has a fragment (#…); remove it");
  });

  it("refuses a query string in the issuer but allows one in jwksUri", async () => {
    await refused(
      loadYaml(`auth:\n  issuer: 'https://id.example.com/?x=1'\n  jwksUri: https://id.example.com/jwks\n${base}`),
      [["MCP_URL_INVALID", "auth.issuer"]],
      ["id.example.com"],
    );
    const loaded = await loadYaml(`auth:\n  issuer: https://id.example.com/\n  jwksUri: 'https://id.example.com/jwks?tenant=acme'\n${base}`);
    assert.equal(loaded.config.auth?.jwksUri, "https://id.example.com/jwks?tenant=acme");
  });
});
