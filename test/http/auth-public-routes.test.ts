// What is public once auth is on (docs/design.md §9; issue 9 item 6): /healthz without a valid token says only
// {status, service} — extension errors and upstream names need a token; /toolsets needs the same token as MCP
// (its challenge names the MCP endpoint's metadata), unless publicToolsets, which serves the catalogue without
// errors, sources or upstream names to callers without a token (a token, when sent, must be valid).
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import type { McpExtension } from "../../src/extension/types.js";
import { authTestFile, authExtensions, bearer, type Runs } from "../helpers/auth-host.js";
import { raw } from "../helpers/http-host.js";

const file = authTestFile();
const { watch } = file;

/** authExtensions, one that fails its setup, and a gateway-like one whose upstream is down. */
function degraded(runs: Runs): McpExtension[] {
  return [
    ...authExtensions(runs),
    {
      name: "broken",
      toolsets: [{ name: "broken" }],
      setup: () => {
        throw new Error("the database password was rejected");
      },
    },
    {
      name: "gateway",
      toolsets: [{ name: "runbooks" }],
      setup: (ctx) => ctx.reportUnavailable([{ server: "runbooks-internal", phase: "connect", code: "MCP_SERVER_UNREACHABLE" }]),
    },
  ];
}

describe("public routes with auth on", { timeout: 60_000 }, () => {
  it("says only whether the service is up at /healthz without a valid token, and everything with one", async () => {
    const runs: Runs = [];
    const served = await file.serve({ extensions: degraded(runs), runs });
    const health = new URL("/healthz", served.baseUrl);
    for (const headers of [{}, bearer(watch.track("nope")), bearer(await served.token({ aud: "urn:other" }))]) {
      const answer = await raw({ url: health, headers });
      assert.equal(answer.status, 200);
      assert.deepEqual(answer.json, { status: "degraded", service: "test-host" });
    }
    const full = await raw({ url: health, headers: bearer(await served.token()) });
    assert.deepEqual(full.json, {
      status: "degraded",
      service: "test-host",
      extensions: { failed: [{ name: "broken", code: "EXTENSION_SETUP_FAILED", error: full.json.extensions.failed[0].error }] },
      upstreams: { unavailable: [{ server: "runbooks-internal", phase: "connect", code: "MCP_SERVER_UNREACHABLE" }] },
    });
    assert.match(full.json.extensions.failed[0].error, /the database password was rejected/);
  });

  it("asks for the token at /toolsets, with a challenge naming the MCP endpoint's metadata", async () => {
    const served = await file.serve({ extensions: degraded([]) });
    const missing = await raw({ url: new URL("/toolsets?only=notes", served.baseUrl) });
    assert.equal(missing.status, 401);
    assert.equal(
      missing.headers["www-authenticate"],
      `Bearer scope="mcp:read", resource_metadata="${served.baseUrl.origin}/.well-known/oauth-protected-resource/mcp?only=notes"`,
    );
    assert.equal(missing.text.includes("runbooks-internal") || missing.text.includes("database"), false);
    const described = await raw({ url: new URL("/toolsets", served.baseUrl), headers: bearer(await served.token()) });
    assert.equal(described.status, 200);
    assert.deepEqual(described.json.unavailable, [{ server: "runbooks-internal", phase: "connect", code: "MCP_SERVER_UNREACHABLE" }]);
    assert.match(JSON.stringify(described.json.extensions), /the database password was rejected/);
  });

  it("serves a public /toolsets with publicToolsets: the catalogue without errors, sources or upstream names", async () => {
    const served = await file.serve({ extensions: degraded([]), auth: { publicToolsets: true } });
    const open = await raw({ url: new URL("/toolsets", served.baseUrl) });
    assert.equal(open.status, 200, open.text);
    assert.deepEqual(
      open.json.toolsets.map((t: { name: string }) => t.name),
      ["admin", "broken", "extra", "notes", "runbooks"],
    );
    assert.deepEqual(open.json.unavailable, []);
    assert.deepEqual(
      open.json.extensions.find((e: { name: string }) => e.name === "broken"),
      { name: "broken", status: "failed", code: "EXTENSION_SETUP_FAILED" },
    );
    assert.equal(open.text.includes("database") || open.text.includes("runbooks-internal"), false);
    const badToken = await raw({ url: new URL("/toolsets", served.baseUrl), headers: bearer(watch.track("bad.token.here")) });
    assert.equal(badToken.status, 401, "a token that is sent must be valid");
    const queryToken = await raw({ url: new URL("/toolsets?access_token=abc", served.baseUrl) });
    assert.equal(queryToken.status, 400);
    const reader = await raw({ url: new URL("/toolsets", served.baseUrl), headers: bearer(await served.token({ scope: "mcp:read" })) });
    assert.deepEqual(
      reader.json.toolsets.map((t: { name: string }) => t.name),
      ["broken", "extra", "notes", "runbooks"],
      "with a token, the caller's view",
    );
  });
});
