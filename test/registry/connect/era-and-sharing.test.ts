// §10.15: over HTTP the protocol era is negotiated with a bounded probe and the verdict cached (a reconnect sends no
// second probe); one connection per server is shared by every caller and concurrent calls are multiplexed on it.
// Over stdio the registry keeps the 2025 handshake unless the spec says the server is modern.
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, it } from "node:test";
import { ServerSpec, toText } from "../../../src/registry/index.js";
import { LegacyHttpFixture, ModernHttpFixture } from "../../fixtures/upstream/http-fixtures.js";
import { ManualClock } from "../../helpers/manual-clock.js";
import { legacyStdio, modernStdio, registryHarness } from "../../helpers/registry/harness.js";

describe("protocol era and the shared connection", () => {
  const h = registryHarness();

  it("speaks 2026-07-28 to a v2 server and the 2025 protocol to a v1 server, probing each once", async () => {
    const modern = await new ModernHttpFixture({ name: "modern" }).start();
    const legacy = await new LegacyHttpFixture({ name: "legacy", tools: ["echo"] }).start();
    try {
      const registry = h.make([ServerSpec.http("modern", modern.url), ServerSpec.http("legacy", legacy.url)]);
      await registry.connect();
      assert.deepEqual(
        registry.status().map((s) => [s.server, s.era]),
        [
          ["modern", "modern"],
          ["legacy", "legacy"],
        ],
      );
      assert.equal(toText(await registry.callTool("modern__echo", { text: "new" })), "new");
      assert.equal(toText(await registry.callTool("legacy__echo", { text: "old" })), "old");
      assert.equal(modern.counts.methods["server/discover"], 1);
      assert.equal(legacy.counts.methods["server/discover"], 1);
      assert.equal(modern.counts.methods.initialize, undefined);
    } finally {
      await modern.stop();
      await legacy.stop();
    }
  });

  it("reuses the cached verdict on reconnect: no second probe", async () => {
    const modern = await new ModernHttpFixture({ name: "modern" }).start();
    const legacy = await new LegacyHttpFixture({ name: "legacy", tools: ["count"] }).start();
    try {
      const registry = h.make([ServerSpec.http("modern", modern.url), ServerSpec.http("legacy", legacy.url)]);
      await registry.connect();
      legacy.expireSessions();
      assert.equal(toText(await registry.callTool("legacy__count")), "ran");
      assert.equal(legacy.counts.methods.initialize, 2, "it did reconnect");
      assert.equal(legacy.counts.methods["server/discover"], 1);

      modern.forceAnswer = { status: 404, body: () => "gone", times: 1 }; // a lost connection: reconnect, then retry
      assert.equal(toText(await registry.callTool("modern__count")), "run 1");
      assert.equal(modern.counts.forced, 1);
      assert.equal(modern.counts.methods["server/discover"], 1);
    } finally {
      await modern.stop();
      await legacy.stop();
    }
  });

  it("bounds the probe: a server that never answers is reported without waiting for the start-up deadline", async () => {
    const sockets = new Set<import("node:net").Socket>();
    const silent: Server = createServer(() => undefined); // accepts, never answers
    silent.on("connection", (s) => sockets.add(s));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/mcp`;
      // The start-up deadline is on a clock nobody moves: only the probe's own bound can end this connect.
      const registry = h.make([ServerSpec.http("silent", url, { probeTimeoutMs: 300 })], { clock: new ManualClock() });
      await registry.connect();
      assert.deepEqual(registry.unavailable, [
        { server: "silent", phase: "connect", code: "MCP_SERVER_UNREACHABLE", message: 'server "silent" could not be connected: timed out' },
      ]);
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it("shares one connection between concurrent callers and multiplexes their calls", async () => {
    const legacy = await new LegacyHttpFixture({ name: "legacy", tools: ["barrier"] }).start();
    try {
      const registry = h.make([ServerSpec.http("legacy", legacy.url), legacyStdio("local", { tools: [{ name: "local_barrier", behaviour: "barrier" }] })]);
      // Every call waits until all four are in flight on the server: they can only finish if they run concurrently.
      const http = await Promise.all(Array.from({ length: 4 }, () => registry.callTool("barrier", { n: 4, key: "h" })));
      const stdio = await Promise.all(Array.from({ length: 4 }, () => registry.callTool("local_barrier", { n: 4, key: "s" })));
      assert.deepEqual([...http, ...stdio].map(toText), [
        "released h",
        "released h",
        "released h",
        "released h",
        "released s",
        "released s",
        "released s",
        "released s",
      ]);
      assert.equal(legacy.counts.methods.initialize, 1);
    } finally {
      await legacy.stop();
    }
  });

  it("keeps the 2025 handshake over stdio unless the spec says the server is modern", async () => {
    const registry = h.make([modernStdio("dual"), modernStdio("pinned", {}, { era: "modern" })]);
    await registry.connect();
    assert.deepEqual(
      registry.status().map((s) => [s.server, s.era]),
      [
        ["dual", "legacy"],
        ["pinned", "modern"],
      ],
    );
    assert.equal(toText(await registry.callTool("pinned__echo", { text: "2026" })), "2026");
    assert.equal(toText(await registry.callTool("dual__echo", { text: "2025" })), "2025");
  });
});
