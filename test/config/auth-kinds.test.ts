// Upstream auth kinds: bearer and oauth are built in; any other kind must be registered by an extension. The
// config is read before extensions load, so the check runs either at load (when the kinds are known) or later
// through checkAuthKinds — both report MCP_AUTH_STRATEGY_UNKNOWN listing the registered kinds.
import assert from "node:assert/strict";
import { afterEach, describe, it } from "node:test";
import { BUILT_IN_AUTH_KINDS, checkAuthKinds, ConfigError, formatConfigProblems } from "../../src/config/index.js";
import { loadYaml, refused, removeProjects } from "./config-kit.js";

afterEach(removeProjects);

const yaml =
  "servers:\n  v: { url: https://v.example.com/mcp, auth: { kind: vault, role: '${env:ROLE}' } }\n  h: { url: https://h.example.com/mcp, auth: { kind: bearer, token: '${env:T}' } }\n";
const env = { ROLE: "role-S3CRET", T: "t-S3CRET" };

describe("auth kinds", () => {
  it("builds in bearer and oauth", () => {
    assert.deepEqual(BUILT_IN_AUTH_KINDS, ["bearer", "oauth"]);
  });

  it("loads a contributed kind when no kinds are given, keeping its settings, for checkAuthKinds to judge later", async () => {
    const { config } = await loadYaml(yaml, { env });
    const v = config.servers.v!;
    assert.deepEqual(v.transport === "http" && v.auth, { kind: "vault", role: "role-S3CRET" });
    assert.deepEqual(checkAuthKinds(config, ["vault"]), []);
    const problems = checkAuthKinds(config, ["aws-sigv4"]);
    assert.deepEqual(problems, [
      {
        code: "MCP_AUTH_STRATEGY_UNKNOWN",
        path: "servers.v.auth.kind",
        message: 'auth kind "vault" is not registered; the registered kinds are aws-sigv4, bearer, oauth (install the extension that contributes it)',
      },
    ]);
    const error = new ConfigError(problems);
    assert.equal(error.code, "CONFIG_INVALID");
    assert.equal(error.message, `the configuration has 1 problem:\n${formatConfigProblems(problems)}`);
    assert.ok(!JSON.stringify(error).includes("role-S3CRET"));
  });

  it("fails the load on an unknown kind when the registered kinds are given", async () => {
    const r = await refused(
      loadYaml(yaml, { env, authKinds: [] }),
      [["MCP_AUTH_STRATEGY_UNKNOWN", "servers.v.auth.kind"]],
      ["role-S3CRET", "t-S3CRET", "v.example.com"],
    );
    assert.equal(
      r.problems[0]!.message,
      'auth kind "vault" is not registered; the registered kinds are bearer, oauth (install the extension that contributes it)',
    );
    const loaded = await loadYaml(yaml, { env, authKinds: ["vault"] });
    assert.equal(Object.keys(loaded.config.servers).length, 2);
  });

  it("checks a built-in kind's settings exactly", async () => {
    await refused(
      loadYaml(
        "servers:\n  h: { url: https://h.example.com/mcp, auth: { kind: bearer, tokn: '${env:T}' } }\n  o: { url: https://o.example.com/mcp, auth: { kind: oauth } }\n  k: { url: https://k.example.com/mcp, auth: { token: '${env:T}' } }\n",
        { env },
      ),
      [
        ["CONFIG_INVALID", "servers.h.auth.token"],
        ["CONFIG_INVALID", "servers.h.auth.tokn"],
        ["CONFIG_INVALID", "servers.k.auth.kind"],
        ["MCP_OAUTH_ENDPOINT_REQUIRED", "servers.o.auth"],
        ["CONFIG_INVALID", "servers.o.auth.clientId"],
        ["CONFIG_INVALID", "servers.o.auth.clientSecret"],
      ],
      ["t-S3CRET"],
    );
  });
});
