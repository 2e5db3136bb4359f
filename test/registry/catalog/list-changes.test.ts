// §10.9: an upstream list change — pushed on a 2025 connection, or on a 2026 `subscriptions/listen` stream that is
// re-opened when it drops (at once when it had lived a while, after a growing delay when it keeps dropping) — marks
// that server stale, and the next operation re-lists only it. watch() subscribes when called, yields added /
// removed / updated with the server's name, holds 64 events and drops (counting) beyond that, and ends when the
// registry closes.
import assert from "node:assert/strict";
import { afterEach, describe, it } from "node:test";
import { ServerSpec, toText, type McpRegistry, type WatchEvent, type WatchStream } from "../../../src/registry/index.js";
import { WATCH_BUFFER, WatchHub } from "../../../src/registry/catalog/watch.js";
import { ModernHttpFixture } from "../../fixtures/upstream/http-fixtures.js";
import { ManualClock } from "../../helpers/manual-clock.js";
import { countOf, legacyStdio, modernStdio, registryHarness, serverLog, stateDir } from "../../helpers/registry/harness.js";

/** The next `count` events of a stream (the stream stays open for later reads). */
async function take(stream: WatchStream, count: number): Promise<WatchEvent[]> {
  const events: WatchEvent[] = [];
  while (events.length < count) {
    const next = await stream.next();
    if (next.done) throw new Error(`the stream ended after ${events.length} of ${count} events: ${JSON.stringify(events)}`);
    events.push(next.value);
  }
  return events;
}

describe("list changes", () => {
  const h = registryHarness();

  it("re-lists only the server that announced a change, at the next operation", async () => {
    const a = stateDir();
    const b = stateDir();
    const registry = h.make([legacyStdio("a", { tools: ["add_tool"], stateDir: a }), legacyStdio("b", { tools: ["echo"], stateDir: b })]);
    await registry.connect();
    assert.equal(toText(await registry.callTool("add_tool", { name: "fresh" })), "added fresh");
    // The fixture sends list_changed before its answer, on the same pipe: the call cannot return before it is seen.
    assert.deepEqual(
      registry.status().map((s) => [s.server, s.stale]),
      [
        ["a", true],
        ["b", false],
      ],
    );
    assert.deepEqual([countOf(a, "list:tools"), countOf(b, "list:tools")], [1, 1]);
    assert.deepEqual(
      (await registry.listTools()).map((t) => t.name),
      ["add_tool", "fresh", "echo"],
    );
    assert.deepEqual([countOf(a, "list:tools"), countOf(b, "list:tools")], [2, 1]);
    assert.equal(registry.status()[0]!.stale, false);
  });

  it("yields added, updated and removed events from a 2025 server's pushed notifications", async () => {
    const registry = h.make([
      legacyStdio("a", { tools: ["add_tool", "remove_tool", { name: "thing", behaviour: "count" }] }),
      legacyStdio("b", { tools: ["echo"] }),
    ]);
    await registry.connect();
    const stream = registry.watch();
    await registry.callTool("add_tool", { name: "fresh" });
    assert.deepEqual(await take(stream, 1), [{ kind: "added", server: "a", tool: "fresh" }]);
    await registry.callTool("add_tool", { name: "thing" }); // same name, new definition
    assert.deepEqual(await take(stream, 1), [{ kind: "updated", server: "a", tool: "thing" }]);
    await registry.callTool("remove_tool", { name: "fresh" });
    assert.deepEqual(await take(stream, 1), [{ kind: "removed", server: "a", tool: "fresh" }]);
    await registry.callTool("add_tool", { name: "echo" }); // now clashes with b's echo: both get qualified
    assert.deepEqual(await take(stream, 3), [
      { kind: "added", server: "a", tool: "a__echo" },
      { kind: "added", server: "b", tool: "b__echo" },
      { kind: "removed", server: "b", tool: "echo" },
    ]);
    assert.equal(stream.dropped, 0);
  });

  it("subscribes when watch() is called, so a change before the first iteration is not lost", async () => {
    const registry = h.make([legacyStdio("a", { tools: ["add_tool"] })]);
    await registry.connect();
    const stream = registry.watch();
    await registry.callTool("add_tool", { name: "early" });
    await registry.listTools(); // the change is applied before anyone iterates
    assert.deepEqual(await take(stream, 1), [{ kind: "added", server: "a", tool: "early" }]);
  });

  it("follows a 2026 stdio server's listen stream", async () => {
    const registry = h.make([modernStdio("modern", {}, { era: "modern" })]);
    await registry.connect();
    assert.equal(registry.status()[0]!.era, "modern");
    const stream = registry.watch();
    await registry.callTool("add_tool", { name: "three" });
    assert.deepEqual(await take(stream, 1), [{ kind: "added", server: "modern", tool: "three" }]);
  });

  it("ends every watch() stream when the registry closes", async () => {
    const registry = h.make([legacyStdio("a", { tools: ["echo"] })]);
    await registry.connect();
    const stream = registry.watch();
    const drained = (async () => {
      const seen: WatchEvent[] = [];
      for await (const event of stream) seen.push(event);
      return seen;
    })();
    await registry.close();
    assert.deepEqual(await drained, []);
    assert.deepEqual(await registry.watch().next(), { value: undefined, done: true });
  });
});

describe("list changes on a 2026 HTTP listen stream", () => {
  const h = registryHarness();
  let http: ModernHttpFixture | undefined;
  afterEach(async () => {
    await http?.stop(); // after the harness has closed the registry
    http = undefined;
  });

  /** A modern HTTP server and a connected registry whose budgets run on a clock the test moves. */
  async function connected(): Promise<{ registry: McpRegistry; clock: ManualClock; server: ModernHttpFixture }> {
    const clock = new ManualClock();
    const server = await new ModernHttpFixture({ name: "modern" }).start();
    http = server;
    const registry = h.make([ServerSpec.http("modern", server.url)], { clock });
    await registry.connect(); // a connection is ready once its listen stream is open
    return { registry, clock, server };
  }

  /** Drops the stream and moves the clock by the delay the registry chose (not re-opening a millisecond early). */
  async function dropAndReopen(server: ModernHttpFixture, clock: ManualClock): Promise<number> {
    const ended = h.nextLog(serverLog("modern", "the list-change stream ended (remote); re-opening it"), "the stream to end");
    const reopened = h.nextLog(serverLog("modern", "the list-change stream is open"), "the stream to be re-opened");
    server.dropListenStreams();
    const { afterMs } = (await ended).data as { afterMs: number };
    if (afterMs > 0) {
      await clock.advance(afterMs - 1);
      assert.equal(clock.timers, 1, "the re-open is still waiting");
      await clock.advance(1);
    }
    await reopened;
    assert.equal(clock.timers, 0);
    return afterMs;
  }

  it("follows the stream, and re-opens it after a delay when it drops soon after opening", async () => {
    const { registry, clock, server } = await connected();
    assert.equal(registry.status()[0]!.era, "modern");
    assert.equal(server.openListens, 1);
    const stream = registry.watch();
    await registry.callTool("add_tool", { name: "one" });
    assert.deepEqual(await take(stream, 1), [{ kind: "added", server: "modern", tool: "one" }]);
    assert.equal(await dropAndReopen(server, clock), 250); // it lived no time at all
    assert.deepEqual([server.openListens, server.counts.methods["subscriptions/listen"]], [1, 2]);
    await registry.callTool("add_tool", { name: "two" });
    assert.deepEqual(await take(stream, 1), [{ kind: "added", server: "modern", tool: "two" }]);
  });

  it("re-opens a stream that had lived a while at once, and doubles the delay for one that keeps dropping", async () => {
    const { clock, server } = await connected();
    await clock.advance(5000); // five seconds open: a stable stream
    assert.deepEqual([await dropAndReopen(server, clock), await dropAndReopen(server, clock), await dropAndReopen(server, clock)], [0, 250, 500]);
    assert.deepEqual([server.openListens, server.counts.methods["subscriptions/listen"]], [1, 4]);
  });
});

describe("watch buffer", () => {
  it("holds 64 events per subscriber and drops (and counts) the rest, never blocking the publisher", async () => {
    const hub = new WatchHub();
    const slow = hub.subscribe();
    const events = Array.from({ length: WATCH_BUFFER + 6 }, (_, i): WatchEvent => ({ kind: "added", server: "s", tool: `t${i}` }));
    hub.publish(events);
    assert.equal(slow.dropped, 6);
    hub.close();
    const seen: WatchEvent[] = [];
    for await (const e of slow) seen.push(e);
    assert.deepEqual(seen, events.slice(0, WATCH_BUFFER));
  });
});
