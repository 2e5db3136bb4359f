// §10.9: an upstream list change — pushed on a 2025 connection, or on a 2026 `subscriptions/listen` stream that is
// re-opened when it drops — marks that server stale, and the next operation re-lists only it. watch() subscribes when
// called, yields added / removed / updated with the server's name, holds 64 events and drops (counting) beyond
// that, and ends when the registry closes.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ServerSpec, toText, type WatchEvent, type WatchStream } from "../../src/registry/index.js";
import { WATCH_BUFFER, WatchHub } from "../../src/registry/watch.js";
import { ModernHttpFixture } from "../fixtures/upstream/http-fixtures.js";
import { countOf, legacyStdio, modernStdio, registryHarness, stateDir } from "./helpers/harness.js";
import { eventually } from "./helpers/processes.js";

/** Reads events until `count` of them have arrived (bounded); the stream stays open for later reads. */
async function take(stream: WatchStream, count: number, ms = 8000): Promise<WatchEvent[]> {
  const events: WatchEvent[] = [];
  const until = Date.now() + ms;
  while (events.length < count) {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), Math.max(0, until - Date.now()))));
    const next = await Promise.race([stream.next(), timeout]);
    clearTimeout(timer);
    if (next === "timeout" || next.done) throw new Error(`only ${events.length} of ${count} events arrived: ${JSON.stringify(events)}`);
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
    await eventually(() => registry.status()[0]!.stale, "server a to be marked stale");
    const [aLists, bLists] = [countOf(a, "list:tools"), countOf(b, "list:tools")];
    assert.deepEqual((await registry.listTools()).map((t) => t.name), ["add_tool", "fresh", "echo"]);
    assert.equal(countOf(a, "list:tools"), aLists + 1);
    assert.equal(countOf(b, "list:tools"), bLists);
    assert.equal(registry.status()[0]!.stale, false);
  });

  it("yields added, updated and removed events from a 2025 server's pushed notifications", async () => {
    const registry = h.make([legacyStdio("a", { tools: ["add_tool", "remove_tool", { name: "thing", behaviour: "count" }] }), legacyStdio("b", { tools: ["echo"] })]);
    await registry.connect();
    const stream = registry.watch();
    await registry.callTool("add_tool", { name: "fresh" });
    assert.deepEqual(await take(stream, 1), [{ kind: "added", server: "a", tool: "fresh" }]);
    await registry.callTool("add_tool", { name: "thing" }); // same name, new definition
    assert.deepEqual(await take(stream, 1), [{ kind: "updated", server: "a", tool: "thing" }]);
    await registry.callTool("remove_tool", { name: "fresh" });
    assert.deepEqual(await take(stream, 1), [{ kind: "removed", server: "a", tool: "fresh" }]);
    await registry.callTool("add_tool", { name: "echo" }); // now clashes with b's echo: both get qualified
    assert.deepEqual(
      (await take(stream, 3)).sort((x, y) => `${x.kind}${x.tool}`.localeCompare(`${y.kind}${y.tool}`)),
      [
        { kind: "added", server: "a", tool: "a__echo" },
        { kind: "added", server: "b", tool: "b__echo" },
        { kind: "removed", server: "b", tool: "echo" },
      ],
    );
  });

  it("subscribes when watch() is called, so a change before the first iteration is not lost", async () => {
    const registry = h.make([legacyStdio("a", { tools: ["add_tool"] })]);
    await registry.connect();
    const stream = registry.watch();
    await registry.callTool("add_tool", { name: "early" });
    await registry.listTools(); // the change is applied before anyone iterates
    assert.deepEqual(await take(stream, 1), [{ kind: "added", server: "a", tool: "early" }]);
  });

  it("follows a 2026 server's listen stream, and re-opens it when it drops", async () => {
    const http = await new ModernHttpFixture({ name: "modern" }).start();
    try {
      const registry = h.make([ServerSpec.http("modern", http.url)]);
      await registry.connect();
      assert.equal(registry.status()[0]!.era, "modern");
      await eventually(() => http.openListens === 1, "the listen stream to open");
      const stream = registry.watch();
      await registry.callTool("add_tool", { name: "one" });
      assert.deepEqual(await take(stream, 1), [{ kind: "added", server: "modern", tool: "one" }]);

      http.dropListenStreams();
      await eventually(() => http.openListens === 1 && (http.counts.methods["subscriptions/listen"] ?? 0) === 2, "the listen stream to be re-opened");
      await registry.callTool("add_tool", { name: "two" });
      assert.deepEqual(await take(stream, 1), [{ kind: "added", server: "modern", tool: "two" }]);
    } finally {
      await http.stop();
    }
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
