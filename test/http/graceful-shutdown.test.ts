// Graceful shutdown (docs/design.md §8, §16): close() ends idle keep-alive sockets at once (even one that never carried a
// request), lets an in-flight request finish — its answer saying Connection: close, so its client does not send
// another request on a socket about to go (issue 11 defect 4) — and then stops the host. The drain's deadline
// (shutdownTimeoutMs) runs on the host's clock, which the deadline test moves.
import { connect, type Socket } from "node:net";
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import * as z from "zod";
import { defineExtension, defineTool } from "../../src/index.js";
import { buildHost } from "../../src/entries/host.js";
import { type ListeningHost, listenHost } from "../../src/http/listen.js";
import { silentLogger } from "../../src/logger.js";
import { LEGACY_POST_HEADERS, legacyBody, modernBody, modernHeaders, rawLegacyInitialize } from "../helpers/http-host.js";
import { ManualClock } from "../helpers/manual-clock.js";
import { postHead, RawSocket } from "../helpers/raw-http.js";

function openIdleSocket(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => resolve(socket));
    socket.once("error", reject);
  });
}

/** A host whose one tool, `slow`, runs until the test releases it; `running` settles once a call has started. */
async function serveSlowTool(clock?: ManualClock): Promise<{ served: ListeningHost; running: Promise<void>; release: () => void }> {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let started!: () => void;
  const running = new Promise<void>((resolve) => (started = resolve));
  const slow = defineTool({
    name: "slow",
    inputSchema: z.object({}),
    handler: async () => {
      started();
      await gate;
      return { content: [{ type: "text", text: "finished" }] };
    },
  });
  const host = buildHost([defineExtension({ name: "x", tools: [slow] })], {
    name: "t",
    logger: silentLogger,
    ...(clock ? { clock, toolTimeoutMs: 6_000_000 } : {}),
  });
  await host.start();
  const served = await listenHost(host, { port: 0, shutdownTimeoutMs: 600_000 });
  return { served, running, release };
}

describe("graceful shutdown", () => {
  // shutdownTimeoutMs is far beyond the test's own timeout: had close() waited for the idle socket, the test
  // would time out instead of passing.
  const suiteTimeout = { timeout: 20_000 };

  it("closes a keep-alive socket that never sent a request instead of waiting for the client", suiteTimeout, async () => {
    let disposed = false;
    const host = buildHost(
      [defineExtension({ name: "x", tools: [defineTool({ name: "t", handler: () => ({ content: [] }) })], dispose: () => void (disposed = true) })],
      { name: "t", logger: silentLogger },
    );
    await host.start();
    const served = await listenHost(host, { port: 0, shutdownTimeoutMs: 600_000 });
    const socket = await openIdleSocket(Number(served.baseUrl.port));
    const socketClosed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
    await served.close();
    await socketClosed;
    assert.equal(disposed, true);
  });

  it("lets a request in flight finish before closing its socket", suiteTimeout, async () => {
    const { served, running, release } = await serveSlowTool();
    const response = fetch(served.url, {
      method: "POST",
      headers: modernHeaders("tools/call", "slow"),
      body: modernBody("tools/call", { name: "slow", arguments: {} }),
    });
    await running;
    const closed = served.close();
    release();
    const answer = await (await response).text();
    await closed;
    assert.match(answer, /finished/);
  });

  it("waits shutdownTimeoutMs (on the host's clock) for a request in flight, then closes without it", suiteTimeout, async () => {
    const clock = new ManualClock();
    const { served, running, release } = await serveSlowTool(clock);
    const response = fetch(served.url, {
      method: "POST",
      headers: modernHeaders("tools/call", "slow"),
      body: modernBody("tools/call", { name: "slow", arguments: {} }),
    }).then(
      (r) => r.text(),
      (error: Error) => `failed: ${error.message}`,
    );
    await running;
    const idle = await openIdleSocket(Number(served.baseUrl.port));
    const idleGone = new Promise<void>((resolve) => idle.once("close", () => resolve()));
    let closeDone = false;
    const closed = served.close().then(() => (closeDone = true));
    await clock.advance(599_999);
    await new Promise<void>((resolve) => setImmediate(resolve));
    assert.equal(closeDone, false, "the drain still waits a millisecond before its deadline");
    assert.equal(idle.destroyed, false, "and keeps the idle socket open meanwhile");
    await clock.advance(1);
    await closed; // the deadline passed: the request in flight is not waited for any longer
    await idleGone;
    assert.doesNotMatch(await response, /finished/);
    release();
  });
});

describe("graceful shutdown, the sockets", () => {
  const suiteTimeout = { timeout: 20_000 };

  for (const era of ["legacy", "modern"] as const) {
    it(`answers a ${era} request in flight with Connection: close once the drain starts, and ends its socket cleanly`, suiteTimeout, async () => {
      const { served, running, release } = await serveSlowTool();
      const port = Number(served.baseUrl.port);
      const client = new RawSocket(port);
      const base = { host: `127.0.0.1:${port}`, ...LEGACY_POST_HEADERS };
      if (era === "legacy") {
        // A session first (on its own connection), then the slow call on this keep-alive one.
        const init = await rawLegacyInitialize(served.url);
        const session = String(init.headers["mcp-session-id"]);
        const call = legacyBody("tools/call", { name: "slow", arguments: {} });
        await client.send(postHead("/mcp", { ...base, "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" }, Buffer.byteLength(call)) + call);
      } else {
        const call = modernBody("tools/call", { name: "slow", arguments: {} }, 2);
        const headers = { ...base, ...modernHeaders("tools/call", "slow") };
        await client.send(postHead("/mcp", headers, Buffer.byteLength(call)) + call);
      }
      await running;
      const closed = served.close();
      release();
      const end = await client.ended;
      await closed;
      assert.equal(end.how, "closed", end.error);
      assert.match(end.received, /^HTTP\/1\.1 200 OK\r\n/);
      assert.match(end.received, /\r\nconnection: close\r\n/i);
      assert.doesNotMatch(end.received, /keep-alive/i);
      assert.match(end.received, /finished/);
    });
  }
});
