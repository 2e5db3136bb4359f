// §10.16: close() closes every server even when some fail, in reverse order of opening, gathering the errors into one
// AggregateError; watch() streams end; the registry is also an async disposable (`await using`).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { InMemoryTransport, McpServer } from "@modelcontextprotocol/server";
import type { JSONRPCMessage, Transport } from "@modelcontextprotocol/client";
import { isMcpHostError } from "../../src/errors.js";
import { silentLogger } from "../../src/logger.js";
import { McpRegistry, ServerSpec, toText } from "../../src/registry/index.js";
import { LegacyHttpFixture } from "../fixtures/upstream/http-fixtures.js";
import { deferred } from "../helpers/http-host.js";
import { legacyStdio, registryHarness, serverLog } from "../helpers/registry/harness.js";
import { alive } from "../helpers/processes.js";

/** An in-process server behind a transport whose handshake waits for `gate`, and whose close can be made to fail. */
function inProcess(name: string, gate: Promise<void>, failClose = false): () => Promise<Transport> {
  return async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const server = new McpServer({ name, version: "1.0.0" });
    server.registerTool(`${name}_tool`, { description: name }, async () => ({ content: [{ type: "text", text: name }] }));
    await server.connect(serverSide);
    const wrapper: Transport = {
      start: () => clientSide.start(),
      send: async (message: JSONRPCMessage) => {
        if ("method" in message && message.method === "initialize") await gate;
        return clientSide.send(message);
      },
      close: async () => {
        await clientSide.close();
        if (failClose) throw new Error(`${name} refused to close`);
      },
    };
    clientSide.onmessage = (m) => wrapper.onmessage?.(m);
    clientSide.onclose = () => wrapper.onclose?.();
    clientSide.onerror = (e) => wrapper.onerror?.(e);
    return wrapper;
  };
}

describe("close", () => {
  const h = registryHarness();

  it("closes in reverse order of opening", async () => {
    const [a, b, c] = [deferred(), deferred(), deferred()];
    const registry = h.make([
      ServerSpec.custom("a", inProcess("a", a.promise)),
      ServerSpec.custom("b", inProcess("b", b.promise)),
      ServerSpec.custom("c", inProcess("c", c.promise)),
    ]);
    const connected = registry.connect();
    const waitFor = (name: string) => h.logged(serverLog(name, "connected (legacy era)"), `server ${name} to be connected`);
    b.resolve();
    await waitFor("b");
    c.resolve();
    await waitFor("c");
    a.resolve();
    await connected;
    await registry.close();
    const closed = h.records.filter((r) => r.message === "closed").map((r) => r.prefix);
    assert.deepEqual(closed, [["a"], ["c"], ["b"]]);
  });

  it("closes every server even when some fail, and gathers their errors into one AggregateError", async () => {
    const open = Promise.resolve();
    const registry = h.make([
      ServerSpec.custom("bad1", inProcess("bad1", open, true)),
      legacyStdio("child", { tools: ["echo"] }),
      ServerSpec.custom("bad2", inProcess("bad2", open, true)),
      ServerSpec.custom("good", inProcess("good", open)),
    ]);
    await registry.connect();
    assert.deepEqual(registry.unavailable, []);
    const pid = registry.status().find((s) => s.server === "child")!.pid!;
    h.tracker.snapshot([pid]);
    const error = await registry.close().then(
      () => assert.fail("close should reject"),
      (e: unknown) => e,
    );
    assert.ok(error instanceof AggregateError);
    assert.deepEqual(
      error.errors.map((e: unknown) => (isMcpHostError(e) ? [e.server, e.code, e.message] : [String(e)])).sort(), // they come in closing order
      [
        ["bad1", "MCP_SERVER_CLOSE_FAILED", 'server "bad1" did not close cleanly: bad1 refused to close'],
        ["bad2", "MCP_SERVER_CLOSE_FAILED", 'server "bad2" did not close cleanly: bad2 refused to close'],
      ],
    );
    assert.equal(error.message, "2 server(s) did not close cleanly: bad1, bad2");
    assert.equal(alive(pid), false, "the stdio child was closed although others failed");
    assert.deepEqual(
      registry.status().map((s) => s.state),
      ["closed", "closed", "closed", "closed"],
    );
    assert.equal(await registry.close().catch(() => "same"), "same", "close() is idempotent");
  });

  it("ends watch() streams and refuses use after close", async () => {
    const registry = h.make([legacyStdio("a", { tools: ["echo"] })]);
    assert.equal(toText(await registry.callTool("echo", { text: "x" })), "x");
    const stream = registry.watch();
    await registry.close();
    assert.deepEqual(await stream.next(), { value: undefined, done: true });
    await assert.rejects(registry.listTools(), (e) => isMcpHostError(e, "MCP_REGISTRY_CLOSED"));
    await assert.rejects(registry.callTool("echo"), (e) => isMcpHostError(e, "MCP_REGISTRY_CLOSED"));
    assert.throws(
      () => void registry.connect(),
      (e) => isMcpHostError(e, "MCP_REGISTRY_CLOSED"),
    );
  });

  it("ends a 2025 HTTP session on close", async () => {
    const http = await new LegacyHttpFixture({ name: "remote", tools: ["echo"] }).start();
    try {
      const registry = h.make([ServerSpec.http("remote", http.url, { era: "legacy" })]);
      await registry.connect();
      assert.equal(http.counts.deletes, 0);
      await registry.close();
      assert.equal(http.counts.deletes, 1);
    } finally {
      await http.stop();
    }
  });

  it("disposes with await using", async () => {
    let pid = 0;
    let kept: McpRegistry | undefined;
    {
      await using registry = new McpRegistry([legacyStdio("a", { tools: ["echo"] })], { logger: silentLogger });
      kept = registry;
      assert.equal(toText(await registry.callTool("echo", { text: "x" })), "x");
      pid = registry.status()[0]!.pid!;
      h.tracker.snapshot([pid]);
    }
    assert.equal(kept.status()[0]!.state, "closed");
    assert.equal(alive(pid), false);
  });
});
