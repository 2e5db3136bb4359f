// Attack test, issue 17 class 7: introspection checks the audience. RFC 7662 says a token is active, not for whom: an
// authorization server that serves several resources answers `active: true` for a token issued to any of them. So a
// token whose `aud` does not name this server — another resource's, several others', none at all, an empty list, a
// number, a longer URL, another case — is refused, and only one naming this server is served. A verifier or a config
// without an audience (or `resource` standing in for it) cannot be made, and the docs' own example names one.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, afterEach, describe, it } from "node:test";
import { loadConfig } from "../../../src/config/index.js";
import { introspectionVerifier, type IntrospectionVerifierOptions } from "../../../src/http/auth/index.js";
import { tokenVerifierFrom } from "../../../src/http/auth/host-auth-options.js";
import type { AuthorizationServer } from "../../fixtures/auth/authorization-server.js";
import { authorizationServerFor, bearer, LeakWatch, REFUSAL_REASONS, serveAuthHost } from "../../helpers/auth-host.js";
import { REPO } from "../../helpers/cli-process.js";
import { Cleanup, LEGACY_POST_HEADERS, legacyInitialize, raw } from "../../helpers/http-host.js";
import { loadYaml, project, removeProjects } from "../../config/config-kit.js";

const cleanup = new Cleanup();
const watch = new LeakWatch();
const servers: AuthorizationServer[] = [];
afterEach(async () => {
  await cleanup.run();
  await removeProjects();
});
after(() => watch.assertClean(servers.flatMap((s) => s.issuedTokens())));

const US = "https://mcp.example.test/mcp";
const OTHER = "https://other-resource.example.test/mcp";

async function authorizationServer(): Promise<AuthorizationServer> {
  const as = await authorizationServerFor(cleanup);
  servers.push(as);
  return as;
}

const introspection = (as: AuthorizationServer) => ({
  endpoint: as.introspectionEndpoint,
  clientId: "mcp-host",
  clientSecret: "mcp-host-introspection-secret",
});

/** The `aud` of tokens that were not issued for this server; `undefined` leaves the claim out. */
const NOT_FOR_US: Record<string, unknown> = {
  "another resource": OTHER,
  "several others": [OTHER, "urn:another"],
  "no aud at all": undefined,
  "an empty list": [],
  "a number": 42,
  "an object": { aud: US },
  "a longer URL": `${US}/more`,
  "another case": US.toUpperCase(),
};

describe("introspection checks the audience (issue 17, class 7)", { timeout: 60_000 }, () => {
  it("serves only a token whose aud names this server (`resource` standing in for the audience), whatever else the answer says", async () => {
    const as = await authorizationServer();
    const served = await serveAuthHost(cleanup, watch, as, {
      auth: { issuer: undefined, jwksUri: undefined, audience: undefined, resource: US, authorizationServers: [as.issuer], introspection: introspection(as) },
    });
    const statuses: Record<string, number> = {};
    const call = async (aud: unknown) => {
      const token = watch.track(as.issueOpaque({ sub: "mallory", scope: "mcp:read", aud }));
      const response = await raw({
        url: served.at("only=notes"),
        method: "POST",
        headers: { ...LEGACY_POST_HEADERS, ...bearer(token) },
        body: legacyInitialize(),
      });
      return response;
    };
    for (const [label, aud] of Object.entries(NOT_FOR_US)) {
      const response = await call(aud);
      statuses[label] = response.status;
      if (response.status === 401) assert.match(String(response.headers["www-authenticate"]), /error="invalid_token"/);
    }
    statuses["a list naming us"] = (await call(["urn:another", US])).status;
    assert.deepEqual(statuses, { ...Object.fromEntries(Object.keys(NOT_FOR_US).map((k) => [k, 401])), "a list naming us": 200 });
    assert.ok(
      served.records.some((r) => JSON.stringify(r).includes(REFUSAL_REASONS.audience)),
      "the refusal is logged with its reason",
    );
  });

  it("accepts any audience of a configured list, and refuses a token for another resource", async () => {
    const as = await authorizationServer();
    const verifier = tokenVerifierFrom({ audience: ["urn:first", US], introspection: introspection(as) });
    assert.equal((await verifier.verify(watch.track(as.issueOpaque({ sub: "alice", aud: US })))).subject, "alice");
    assert.equal((await verifier.verify(watch.track(as.issueOpaque({ sub: "bob", aud: ["urn:first"] })))).subject, "bob");
    for (const aud of Object.values(NOT_FOR_US)) {
      await assert.rejects(verifier.verify(watch.track(as.issueOpaque({ sub: "mallory", aud }))), {
        code: "AUTH_TOKEN_INVALID",
        message: REFUSAL_REASONS.audience,
      });
    }
  });

  it("cannot be made without an audience or resource: neither the verifier, nor the auth option, nor the config", async () => {
    const as = await authorizationServer();
    assert.throws(() => introspectionVerifier(introspection(as) as IntrospectionVerifierOptions), {
      code: "AUTH_CONFIG_INVALID",
      message: /`audience` is required/,
    });
    assert.throws(() => tokenVerifierFrom({ introspection: introspection(as) }), { code: "AUTH_CONFIG_INVALID", message: /`audience` is required/ });
    await assert.rejects(
      loadYaml("auth:\n  introspection: { endpoint: https://id.example.com/introspect, clientId: mcp-host, clientSecret: '${env:S}' }\n", {
        env: { S: "introspection-S3CRET" },
      }),
      (error: { code?: string; problems?: Array<{ code: string; path: string }> }) => {
        assert.equal(error.code, "CONFIG_INVALID");
        assert.deepEqual(
          error.problems?.map((p) => [p.code, p.path]),
          [["CONFIG_INVALID", "auth.audience"]],
        );
        return true;
      },
    );
  });

  it("the docs' introspection example loads, and names the audience its tokens must carry", async () => {
    const doc = readFileSync(join(REPO, "docs", "auth.md"), "utf8");
    const section = doc.slice(doc.indexOf("### Opaque tokens (introspection)"));
    const yaml = /```yaml\n([\s\S]*?)```/.exec(section)?.[1];
    assert.ok(yaml, "docs/auth.md has an introspection example");
    const secretFile = /\$\{file:\.\/([^}]+)\}/.exec(yaml)?.[1];
    const cwd = await project({ "mcp-host.config.yaml": yaml, ...(secretFile ? { [secretFile]: "introspection-secret-value" } : {}) });
    const { config } = await loadConfig({ cwd, env: {} });
    assert.ok(config.auth?.introspection, "the example configures introspection");
    assert.ok((config.auth?.audience?.length ?? 0) > 0 || config.auth?.resource !== undefined, "the example names an audience (or resource)");
  });
});
