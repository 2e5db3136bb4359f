// The `auth` option (docs/design.md §9, config `auth:`): a loaded config's `auth` section can be passed to the app as it
// is (a type-level check plus a real load), it turns into the verifier it describes, and settings that cannot
// work are refused when the app is made, with AUTH_CONFIG_INVALID naming the option — before anything is served.
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { AuthConfig } from "../../src/config/schema-auth.js";
import { authSchema } from "../../src/config/schema-auth.js";
import { buildHost } from "../../src/host/build-host.js";
import { customVerifier } from "../../src/http/auth/index.js";
import { createHostApp } from "../../src/http/app.js";
import { type HostAuthOptions, tokenVerifierFrom } from "../../src/http/auth/host-auth-options.js";
import { type AuthorizationServer, startAuthorizationServer } from "../fixtures/auth/authorization-server.js";
import { Cleanup } from "../helpers/http-host.js";

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

// A loaded config's auth section is an `auth` option, with nothing to map.
const fromConfig: (config: AuthConfig) => HostAuthOptions = (config) => config;

async function authorizationServer(): Promise<AuthorizationServer> {
  const as = await startAuthorizationServer();
  cleanup.add(() => as.close());
  return as;
}

describe("the auth option", () => {
  it("takes the config file's auth section as it is and verifies tokens with it", async () => {
    const as = await authorizationServer();
    const config = authSchema.parse({ issuer: as.issuer, audience: "urn:test:mcp", jwksUri: as.jwksUri, toolsetScopes: { admin: ["mcp:admin"] } });
    const verifier = tokenVerifierFrom(fromConfig(config));
    assert.equal(verifier.kind, "jwt");
    assert.equal((await verifier.verify(await as.mint({ sub: "cfg" }))).subject, "cfg");
  });

  it("makes an introspection verifier from `introspection`, and keeps a given verifier, adding the required scopes", async () => {
    const as = await authorizationServer();
    const introspecting = tokenVerifierFrom({
      audience: "urn:test:mcp",
      introspection: { endpoint: as.introspectionEndpoint, clientId: "mcp-host", clientSecret: "mcp-host-introspection-secret" },
    });
    assert.equal(introspecting.kind, "introspection");
    assert.equal((await introspecting.verify(as.issueOpaque({ sub: "opaque" }))).subject, "opaque");

    const own = customVerifier(async () => ({ subject: "c", clientId: "", scopes: ["mcp:read"], claims: {} }));
    assert.equal(tokenVerifierFrom({ verifier: own }), own);
    const stricter = tokenVerifierFrom({ verifier: own, requiredScopes: ["mcp:write"] });
    assert.deepEqual(stricter.requiredScopes, ["mcp:write"]);
    await assert.rejects(stricter.verify("anything"), { code: "AUTH_INSUFFICIENT_SCOPE", message: "the access token lacks the required scope(s): mcp:write" });
  });

  it("refuses settings that cannot work when the app is made, naming the option", async () => {
    const host = buildHost([], { name: "t" });
    const cases: Array<[string, HostAuthOptions, RegExp]> = [
      ["nothing to verify with", {}, /^jwtVerifier: `issuer` is required/],
      [
        "verifier and jwksUri",
        { verifier: customVerifier(async () => ({ subject: "x", clientId: "", scopes: [], claims: {} })), jwksUri: "https://id.example.com/jwks" },
        /^auth: `verifier` is given together with `jwksUri`/,
      ],
      [
        "introspection and keys",
        { introspection: { endpoint: "https://id.example.com/introspect", clientId: "a", clientSecret: "b" }, keys: ["{}"] },
        /^auth: `introspection` is given together with `keys`/,
      ],
      [
        "a bad mode",
        { issuer: "https://id.example.com/", audience: "a", jwksUri: "https://id.example.com/jwks", onInsufficientScope: "ask" as never },
        /^auth.onInsufficientScope must be "refuse" or "omit"/,
      ],
      [
        "bad toolset scopes",
        { issuer: "https://id.example.com/", audience: "a", jwksUri: "https://id.example.com/jwks", toolsetScopes: { admin: [] } },
        /^auth.toolsetScopes.admin must be/,
      ],
      [
        "a bad resource",
        { issuer: "https://id.example.com/", audience: "a", jwksUri: "https://id.example.com/jwks", resource: "not a url" },
        /^auth.resource must be the absolute public URL/,
      ],
    ];
    for (const [label, auth, message] of cases) {
      assert.throws(
        () => createHostApp(host, { auth }),
        (error: Error & { code?: string }) => {
          assert.equal(error.code, "AUTH_CONFIG_INVALID", label);
          assert.match(error.message, message, label);
          return true;
        },
      );
    }
  });
});
