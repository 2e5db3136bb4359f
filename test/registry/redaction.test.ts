// src/registry/redact.ts: only what a server or its transport says is redacted — its error messages, its stderr —
// never the registry's own framing. A server named like one of its own env or header values is still named in
// `unavailable`, in error results and in the log, while the values themselves (env values, header values, the URL)
// appear nowhere.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ServerSpec, registryErrorCode, toText } from "../../src/registry/index.js";
import { createRedactor, redactorOf } from "../../src/registry/redact.js";
import { HttpFixture, LegacyHttpFixture } from "../fixtures/upstream/http-fixtures.js";
import type { FixtureConfig } from "../fixtures/upstream/legacy-behaviours.mjs";
import { legacyStdio, registryHarness, stderrLine } from "../helpers/registry/harness.js";

const TOKEN = "sk-live-TOKEN-0123456789";
const HEADER = "Bearer HEADER-SECRET-abcdef";
/** A stdio server whose name is also the value of one of its env variables. */
const ENV = { GITHUB_TOOL: "github", TOKEN };

describe("redaction", () => {
  const h = registryHarness();

  /** Asserts that no secret value appears in anything the registry said. */
  function assertNoSecrets(...texts: string[]): void {
    for (const text of [...texts, JSON.stringify(h.records)]) {
      for (const secret of [TOKEN, "HEADER-SECRET", "127.0.0.1", '"github"}', '"GITHUB_TOOL":"github"']) {
        assert.ok(!text.includes(secret), `${secret} leaked in: ${text.slice(0, 300)}`);
      }
    }
  }

  it("names a stdio server that fails at start although its name is one of its env values, and hides the values", async () => {
    const registry = h.make([legacyStdio("github", { failList: true, leakEnv: true, printEnv: "TOKEN" }, { env: ENV })]);
    await registry.connect();
    const [entry] = registry.unavailable;
    assert.deepEqual({ ...entry, message: undefined }, { server: "github", phase: "list", code: "MCP_SERVER_UNREACHABLE", message: undefined });
    assert.match(entry!.message, /^server "github" could not be listed: JSON-RPC error -32603: listing is broken on purpose; env: \{.*\}$/);
    assert.ok(entry!.message.includes('"GITHUB_TOOL":"<redacted>","TOKEN":"<redacted>"'), entry!.message);
    const warning = h.records.find((r) => r.level === "warn")!;
    assert.deepEqual(warning.prefix, ["github"]);
    assert.equal(warning.message, `unavailable (list): ${entry!.message.slice('server "github" '.length)}`);
    assert.equal(
      (
        await h.logged(
          stderrLine("github", (l) => l.startsWith("env TOKEN=")),
          "the env line",
        )
      ).message,
      "env TOKEN=<redacted>",
    );
    assertNoSecrets(entry!.message);
  });

  it("names the server and the tool when a call fails, although both are named like an env value", async () => {
    const registry = h.make([legacyStdio("github", { tools: [{ name: "github", behaviour: "reject" }], leakEnv: true }, { env: ENV })]);
    const result = await registry.callTool("github");
    assert.equal(registryErrorCode(result), "MCP_CALL_FAILED");
    const text = toText(result);
    assert.match(text, /^tool "github" on server "github" failed: JSON-RPC error -32602: the upstream rejects these arguments; env: \{.*\}$/);
    assert.ok(text.includes('"GITHUB_TOOL":"<redacted>","TOKEN":"<redacted>"'), text);
    assert.deepEqual(result._meta, { "mcp-host/error": { code: "MCP_CALL_FAILED", server: "github", tool: "github" } });
    assertNoSecrets(text);
  });

  it("names an HTTP server whose name is one of its header values, never the URL or the header values", async () => {
    const down = await new HttpFixture(() => undefined).start();
    down.forceAnswer = { status: 500, body: (req) => `no: ${JSON.stringify(req.headers)} at ${req.url}` };
    const config: FixtureConfig = { name: "tenant-one", tools: ["reject"] };
    const up = await new LegacyHttpFixture(config).start();
    config.leak = `seen ${up.url} with ${HEADER} for tenant tenant-one`; // read when its session starts, after this
    try {
      const headers = { "X-Tenant": "tenant-one", Authorization: HEADER };
      const failing = h.make([ServerSpec.http("tenant-one", down.url, { headers, era: "legacy" })]);
      await failing.connect();
      assert.deepEqual(
        failing.unavailable.map((u) => u.message),
        ['server "tenant-one" could not be connected: the server answered HTTP 500'],
      );

      const registry = h.make([ServerSpec.http("tenant-one", up.url, { headers, era: "legacy" })]);
      const text = toText(await registry.callTool("reject"));
      assert.equal(
        text,
        'tool "reject" on server "tenant-one" failed: JSON-RPC error -32602: the upstream rejects these arguments; seen <redacted> with <redacted> for tenant <redacted>',
      );
      assertNoSecrets(text, JSON.stringify(failing.unavailable));
    } finally {
      await down.stop();
      await up.stop();
    }
  });
});

describe("redactors", () => {
  it("hide a URL's pieces, header values and env values, longest first, and anything URL-shaped", () => {
    const redact = createRedactor(["https://h.example/mcp/sk-123/", "Bearer abc123"]);
    assert.equal(redact("POST https://h.example/mcp/sk-123/ with Bearer abc123 at h.example/mcp/sk-123/"), "POST <redacted> with <redacted> at <redacted>");
    assert.equal(redact("path /mcp/sk-123 on h.example"), "path <redacted> on <redacted>");
    assert.equal(redact("see ftp://other.example/x"), "see <url>");
    assert.equal(redactorOf(ServerSpec.stdio("git", "uvx", [], { env: { TOKEN: "sk-123456", SHORT: "abc" } }))("sk-123456 abc"), "<redacted> abc");
    assert.equal(redactorOf(ServerSpec.custom("c", () => ({}) as never))("nothing to hide"), "nothing to hide");
  });
});
