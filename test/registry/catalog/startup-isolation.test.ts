// §10.2: every server starts in parallel under one deadline (on the registry's clock, which these tests move by
// hand); a server that fails to connect or list goes into `unavailable` (phase, code, a message with no URL and no
// secret) and is never thrown; refresh() retries it.
import assert from "node:assert/strict";
import { join } from "node:path";
import { writeFileSync } from "node:fs";
import { describe, it } from "node:test";
import { ServerSpec } from "../../../src/registry/index.js";
import { HttpFixture } from "../../fixtures/upstream/http-fixtures.js";
import { ManualClock } from "../../helpers/manual-clock.js";
import { freePort, legacyStdio, registryHarness, serverLog, stateDir, stderrLine } from "../../helpers/registry/harness.js";

const SECRET_PATH = "sk-live-PATHSECRET-123456";
const SECRET_HEADER = "Bearer HEADERSECRET-abcdef";

function assertClean(text: string, url: string): void {
  for (const secret of [url, SECRET_PATH, "PATHSECRET", "HEADERSECRET", "127.0.0.1"]) {
    assert.ok(!text.includes(secret), `"${text}" leaks ${secret}`);
  }
}

describe("parallel start and unavailable servers", () => {
  const h = registryHarness();

  it("starts every server in parallel: two servers that each wait for the other both come up", async () => {
    const dir = stateDir();
    const a = join(dir, "a.started");
    const b = join(dir, "b.started");
    const registry = h.make([legacyStdio("a", { tools: ["echo"], touch: a, waitFor: [b] }), legacyStdio("b", { tools: ["count"], touch: b, waitFor: [a] })], {
      clock: new ManualClock(), // the deadline never passes: only starting both at once lets this connect
    });
    await registry.connect();
    assert.deepEqual(registry.unavailable, []);
    assert.deepEqual((await registry.listTools()).map((t) => t.name).sort(), ["count", "echo"]);
  });

  it("reports servers that exit, hang, refuse or fail to list — and keeps serving the healthy one", async () => {
    const port = await freePort();
    const clock = new ManualClock();
    const registry = h.make(
      [
        legacyStdio("healthy", { tools: ["echo"] }),
        legacyStdio("exits", { exitAtStart: 3 }),
        legacyStdio("hangs", { silent: true }),
        legacyStdio("nolist", { failList: true }),
        ServerSpec.http("refused", `http://127.0.0.1:${port}/mcp`),
        ServerSpec.stdio("missing", "/nonexistent/mcp-server-binary"),
      ],
      { clock },
    );
    const connecting = registry.connect(); // never throws for a server's failure
    // Once every other server is listed or reported (and the silent one has started), the deadline passes.
    await Promise.all([
      h.logged(serverLog("healthy", "listed 1 tool(s), 0 resource(s), 0 template(s), 0 prompt(s)"), "the healthy server to be listed"),
      ...["exits", "nolist", "refused", "missing"].map((name) =>
        h.logged(
          serverLog(name, (m) => m.startsWith("unavailable")),
          `${name} to be reported`,
        ),
      ),
      h.logged(stderrLine("hangs", "fixture hangs starting"), "the silent server to start"),
    ]);
    assert.equal(registry.unavailable.length, 4);
    await clock.advance(10_000); // the default start-up deadline
    await connecting;
    const byServer = Object.fromEntries(registry.unavailable.map((u) => [u.server, u]));
    assert.deepEqual(Object.keys(byServer).sort(), ["exits", "hangs", "missing", "nolist", "refused"]);
    for (const u of registry.unavailable) assert.equal(u.code, "MCP_SERVER_UNREACHABLE");
    assert.deepEqual(byServer.exits, {
      server: "exits",
      phase: "connect",
      code: "MCP_SERVER_UNREACHABLE",
      message:
        'server "exits" could not be connected: the server process exited during start-up (exit code 3); its last stderr lines: "fixture: exiting at start as asked"',
    });
    assert.deepEqual(byServer.hangs, {
      server: "hangs",
      phase: "connect",
      code: "MCP_SERVER_UNREACHABLE",
      message: 'server "hangs" did not connect within 10000 ms',
    });
    assert.deepEqual(byServer.nolist, {
      server: "nolist",
      phase: "list",
      code: "MCP_SERVER_UNREACHABLE",
      message: 'server "nolist" could not be listed: JSON-RPC error -32603: listing is broken on purpose',
    });
    assert.equal(byServer.refused!.message, 'server "refused" could not be connected: connection refused');
    assert.equal(byServer.missing!.message, 'server "missing" could not be connected: the command "/nonexistent/mcp-server-binary" was not found');
    // The log names each server once, by its prefix.
    assert.deepEqual(
      h.records
        .filter((r) => r.level === "warn")
        .map((r) => [r.prefix.join("/"), r.message, r.data])
        .sort(),
      [
        [
          "exits",
          'unavailable (connect): could not be connected: the server process exited during start-up (exit code 3); its last stderr lines: "fixture: exiting at start as asked"',
          { code: "MCP_SERVER_UNREACHABLE" },
        ],
        ["hangs", "unavailable (connect): did not connect within 10000 ms", { code: "MCP_SERVER_UNREACHABLE" }],
        [
          "missing",
          'unavailable (connect): could not be connected: the command "/nonexistent/mcp-server-binary" was not found',
          { code: "MCP_SERVER_UNREACHABLE" },
        ],
        ["nolist", "unavailable (list): could not be listed: JSON-RPC error -32603: listing is broken on purpose", { code: "MCP_SERVER_UNREACHABLE" }],
        ["refused", "unavailable (connect): could not be connected: connection refused", { code: "MCP_SERVER_UNREACHABLE" }],
      ],
    );

    const tools = await registry.listTools();
    assert.deepEqual(
      tools.map((t) => t.name),
      ["echo"],
    );
    const result = await registry.callTool("echo", { text: "still here" });
    assert.deepEqual(result.content, [{ type: "text", text: "still here" }]);
  });

  it("never puts a URL, its secret path or a header value in the message or the log", async () => {
    const port = await freePort();
    const refusedUrl = `http://127.0.0.1:${port}/mcp/${SECRET_PATH}/`;
    // A server that answers with an error page echoing the URL and every header it got.
    const echoing = await new HttpFixture(() => undefined).start();
    echoing.forceAnswer = { status: 500, body: (req) => `bad request to http://127.0.0.1${req.url} with ${JSON.stringify(req.headers)}` };
    const echoUrl = echoing.url.replace("/mcp", `/mcp/${SECRET_PATH}`);
    try {
      const registry = h.make([
        ServerSpec.http("refused", refusedUrl, { headers: { Authorization: SECRET_HEADER } }),
        ServerSpec.http("echoing", echoUrl, { headers: { Authorization: SECRET_HEADER }, era: "legacy" }),
        ServerSpec.http("probing", echoUrl, { headers: { Authorization: SECRET_HEADER } }),
      ]);
      await registry.connect();
      assert.deepEqual(
        registry.unavailable.map((u) => [u.server, u.phase, u.code]),
        [
          ["refused", "connect", "MCP_SERVER_UNREACHABLE"],
          ["echoing", "connect", "MCP_SERVER_UNREACHABLE"],
          ["probing", "connect", "MCP_SERVER_UNREACHABLE"],
        ],
      );
      // Each was really asked: the legacy one its initialize, the probing one its discover probe.
      assert.deepEqual([echoing.counts.forced, echoing.counts.methods], [2, { initialize: 1, "server/discover": 1 }]);
      assert.deepEqual(
        registry.unavailable.map((u) => u.message),
        [
          'server "refused" could not be connected: connection refused',
          'server "echoing" could not be connected: the server answered HTTP 500',
          'server "probing" could not be connected: the server answered HTTP 500',
        ],
      );
      for (const u of registry.unavailable) {
        assertClean(u.message, refusedUrl);
        assertClean(u.message, echoUrl);
      }
      for (const r of h.records) {
        const line = `${r.message} ${JSON.stringify(r.data ?? {})}`;
        assertClean(line, refusedUrl);
        assertClean(line, echoUrl);
      }
      const result = await registry.callTool("anything");
      assertClean(JSON.stringify(result), refusedUrl);
    } finally {
      await echoing.stop();
    }
  });

  it("refresh() retries an unavailable server and brings its tools in", async () => {
    const dir = stateDir();
    const gate = join(dir, "ready");
    const registry = h.make([legacyStdio("healthy", { tools: ["echo"] }), legacyStdio("late", { tools: ["count"], exitUnless: gate })]);
    await registry.connect();
    assert.deepEqual(
      registry.unavailable.map((u) => [u.server, u.phase]),
      [["late", "connect"]],
    );
    assert.deepEqual(
      (await registry.listTools()).map((t) => t.name),
      ["echo"],
    );

    writeFileSync(gate, "ok");
    await registry.refresh();
    assert.deepEqual(registry.unavailable, []);
    assert.deepEqual(
      (await registry.listTools()).map((t) => t.name),
      ["echo", "count"],
    );
    assert.deepEqual((await registry.callTool("count")).content, [{ type: "text", text: "ran" }]);
  });
});
