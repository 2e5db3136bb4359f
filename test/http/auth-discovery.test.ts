// Challenges and discovery on a served host (docs/design.md §9; issue 9 item 4): a 401 names the RFC 9728 metadata URL
// of the request's own URL, query kept, so the selection survives the OAuth round trip; the metadata answers at
// /.well-known/oauth-protected-resource{path} with and without the query, to anyone (no token, any origin), with
// `resource` = the MCP URL without query; `resource`, `publicBaseUrl` and `path` move both as they should; and
// with no authorization server configured, no metadata is served and challenges do not point at any.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { customVerifier } from "../../src/http/auth/index.js";
import { authTestFile, bearer } from "../helpers/auth-host.js";
import { LEGACY_POST_HEADERS, legacyInitialize, raw, modernBody, modernHeaders } from "../helpers/http-host.js";

const file = authTestFile();
const { watch } = file;

const initialize = { method: "POST", headers: LEGACY_POST_HEADERS, body: legacyInitialize() };

describe("challenges and protected-resource metadata", { timeout: 60_000 }, () => {
  it("points every 401 at the metadata of the request's own URL, query kept", async () => {
    const served = await file.serve({ auth: { scopesSupported: ["mcp:read", "mcp:admin"] } });
    const origin = served.baseUrl.origin;
    const missing = await raw({ url: new URL("/mcp?only=notes&extra", served.baseUrl), ...initialize });
    assert.equal(missing.status, 401);
    assert.equal(
      missing.headers["www-authenticate"],
      `Bearer scope="mcp:read", resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp?only=notes&extra"`,
    );
    const invalid = await raw({
      url: new URL("/mcp?toolsets=extra", served.baseUrl),
      method: "POST",
      headers: { ...modernHeaders("tools/list"), ...bearer(await served.token({ iss: "https://impostor.example" })) },
      body: modernBody("tools/list"),
    });
    assert.equal(invalid.status, 401);
    assert.equal(
      invalid.headers["www-authenticate"],
      `Bearer error="invalid_token", error_description="The access token is invalid", scope="mcp:read", resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp?toolsets=extra"`,
    );

    const expected = {
      resource: `${origin}/mcp`,
      authorization_servers: [file.as.issuer],
      scopes_supported: ["mcp:read", "mcp:admin"],
      bearer_methods_supported: ["header"],
    };
    for (const path of ["/.well-known/oauth-protected-resource/mcp?only=notes&extra", "/.well-known/oauth-protected-resource/mcp"]) {
      const metadata = await raw({ url: new URL(path, served.baseUrl), headers: { origin: "https://any.example.org" } });
      assert.equal(metadata.status, 200, path);
      assert.deepEqual(metadata.json, expected, path);
      assert.equal(metadata.headers["access-control-allow-origin"], "*", "any origin may read it");
    }
    assert.deepEqual(served.runs, []);
  });

  it("advertises the configured resource, and derives the public base URL of challenges from it", async () => {
    const served = await file.serve({
      auth: { resource: "https://mcp.example.com/tools/mcp" },
      http: { allowedHosts: ["mcp.example.com"] },
    });
    const missing = await raw({ url: new URL("/mcp?only=admin", served.baseUrl), ...initialize });
    assert.equal(
      missing.headers["www-authenticate"],
      'Bearer scope="mcp:read", resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/tools/mcp?only=admin"',
    );
    // The proxy forwards the public metadata path to the app's own; the document names the public resource.
    const metadata = await raw({ url: new URL("/.well-known/oauth-protected-resource/mcp?only=admin", served.baseUrl) });
    assert.deepEqual(metadata.json, {
      resource: "https://mcp.example.com/tools/mcp",
      authorization_servers: [file.as.issuer],
      bearer_methods_supported: ["header"],
    });
  });

  it("serves the metadata of a custom MCP path, and a publicBaseUrl moves the challenge's origin", async () => {
    const served = await file.serve({ http: { path: "/api/mcp" }, auth: { publicBaseUrl: "https://gw.example.net" } });
    const missing = await raw({ url: new URL("/api/mcp?extra", served.baseUrl), ...initialize });
    assert.equal(missing.status, 401);
    assert.equal(
      missing.headers["www-authenticate"],
      'Bearer scope="mcp:read", resource_metadata="https://gw.example.net/.well-known/oauth-protected-resource/api/mcp?extra"',
    );
    const metadata = await raw({ url: new URL("/.well-known/oauth-protected-resource/api/mcp", served.baseUrl) });
    assert.equal(metadata.json.resource, "https://gw.example.net/api/mcp");
    assert.equal((await raw({ url: new URL("/.well-known/oauth-protected-resource/mcp", served.baseUrl) })).status, 404);
  });

  it("serves no metadata and points at none when no authorization server is configured", async () => {
    const verifier = customVerifier(async (token) => ({ subject: token === "good-token-value" ? "sam" : "", clientId: "", scopes: ["mcp:read"], claims: {} }));
    const served = await file.serve({
      auth: { verifier, issuer: undefined, audience: undefined, jwksUri: undefined, toolsetScopes: {} },
    });
    const missing = await raw({ url: new URL("/mcp?only=notes", served.baseUrl), ...initialize });
    assert.equal(missing.status, 401);
    assert.equal(missing.headers["www-authenticate"], 'Bearer scope="mcp:read"');
    assert.equal((await raw({ url: new URL("/.well-known/oauth-protected-resource/mcp", served.baseUrl) })).status, 404);
    const ok = await raw({
      url: new URL("/mcp?only=notes", served.baseUrl),
      ...initialize,
      headers: { ...LEGACY_POST_HEADERS, ...bearer("good-token-value") },
    });
    assert.equal(ok.status, 200, ok.text);
    watch.track("good-token-value");
  });
});
