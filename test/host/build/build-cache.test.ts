// Builds are cached per sorted active set (docs/design.md §7): one build per key even under concurrency, `unknown`
// recomputed per call, a bounded LRU cache, and invalidation — all of it by forgetBuilt(), only the affected
// builds when an extension changes its offer (reported once per burst, the burst's quiet spell on the host's clock,
// which the tests move), and everything when one is added.
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { ExtensionContext, McpExtension } from "../../../src/extension/types.js";
import type { McpHost, OfferChange } from "../../../src/host/host.js";
import type { ServerFactory } from "../../../src/host/built-server.js";
import { build, deferred, held, startedHost, textTool } from "../../helpers/kit.js";
import { ManualClock } from "../../helpers/manual-clock.js";
import { compiledOf } from "../../../src/host/built-server.js";

/** Two toolsets, neither on by default, so a query names exactly what is active. */
function pair(): McpExtension[] {
  return [
    { name: "a", toolsets: [{ name: "a", default: false }], tools: [textTool("a_tool")] },
    { name: "b", toolsets: [{ name: "b", default: false }], tools: [textTool("b_tool")] },
    { name: "c", toolsets: [{ name: "c", default: false }], tools: [textTool("c_tool")] },
  ];
}

/** A serverFactory that counts builds and returns a new object per build (the default returns a stable handler). */
function countingFactory(): { factory: ServerFactory; keys: string[] } {
  const keys: string[] = [];
  const factory: ServerFactory = ({ key, handler }) => {
    keys.push(key);
    return (req, res, next) => handler(req, res, next);
  };
  return { factory, keys };
}

let host: McpHost | undefined;
afterEach(async () => {
  await host?.stop();
  host = undefined;
});

describe("build: one build per sorted active set", () => {
  it("gives the same server and compiled tables to ?a&b, ?b&a, ?a,b and ?toolsets=a,b", async () => {
    const { factory, keys } = countingFactory();
    ({ host } = await startedHost(pair(), { serverFactory: factory }));
    const builds = await Promise.all(["a&b", "b&a", "a,b", "toolsets=a,b", "toolsets=b&a"].map((q) => build(host!, q)));
    for (const built of builds) {
      assert.equal(built.key, "a,b");
      assert.equal(built.server, builds[0]!.server);
      assert.equal(compiledOf(built), compiledOf(builds[0]!));
      assert.deepEqual(built.toolNames, ["a_tool", "b_tool", "list_server_toolsets"]);
    }
    assert.deepEqual(keys, ["a,b"]);
  });

  it("gives different selections different builds", async () => {
    ({ host } = await startedHost(pair()));
    const ab = await build(host, "a&b");
    const a = await build(host, "a");
    assert.notEqual(compiledOf(a), compiledOf(ab));
    assert.deepEqual(a.toolNames, ["a_tool", "list_server_toolsets"]);
  });

  it("recomputes unknown on every call, so a cached build never hides or leaks an unknown name", async () => {
    ({ host } = await startedHost(pair()));
    const clean = await build(host, "a");
    const stale = await build(host, "a&nosuch");
    const cleanAgain = await build(host, "a");
    const other = await build(host, "a&without=elsewhere");
    assert.deepEqual(clean.unknown, []);
    assert.deepEqual(stale.unknown, ["nosuch"]);
    assert.deepEqual(cleanAgain.unknown, []);
    assert.deepEqual(other.unknown, ["elsewhere"]);
    assert.equal(compiledOf(stale), compiledOf(clean));
    assert.equal(compiledOf(cleanAgain), compiledOf(clean));
    assert.equal(compiledOf(other), compiledOf(clean));
  });

  it("keeps the revision when a request is answered from the cache", async () => {
    ({ host } = await startedHost(pair()));
    await build(host, "a");
    const revision = host.revision;
    const again = await build(host, "a");
    assert.equal(host.revision, revision);
    assert.equal(again.revision, revision);
  });

  it("builds a missing key once when many requests ask for it at the same time", async () => {
    const { factory, keys } = countingFactory();
    let onServerCalls = 0;
    const extensions = pair();
    extensions[0] = { ...extensions[0]!, onServer: () => void (onServerCalls += 1) };
    ({ host } = await startedHost(extensions, { serverFactory: factory }));
    const builds = await Promise.all(Array.from({ length: 20 }, (_, i) => build(host!, i % 2 === 0 ? "a&b" : "b,a")));
    assert.deepEqual(keys, ["a,b"]);
    assert.equal(onServerCalls, 1);
    assert.ok(builds.every((b) => compiledOf(b) === compiledOf(builds[0]!)));
  });
});

describe("build: forgetBuilt()", () => {
  it("bumps the revision and makes new objects on the next request", async () => {
    const { factory, keys } = countingFactory();
    ({ host } = await startedHost(pair(), { serverFactory: factory }));
    const before = await build(host, "a&b");
    const revision = host.revision;
    host.forgetBuilt();
    assert.equal(host.revision, revision + 1);
    const after = await build(host, "a&b");
    assert.notEqual(compiledOf(after), compiledOf(before));
    assert.notEqual(after.server, before.server);
    assert.equal(after.revision, revision + 1);
    assert.equal(before.revision, revision);
    assert.deepEqual(keys, ["a,b", "a,b"]);
    assert.deepEqual(after.toolNames, before.toolNames);
  });
});

describe("build: the cache is bounded", () => {
  it("evicts the least recently used build past maxBuilds and rebuilds it on the next request", async () => {
    const { factory, keys } = countingFactory();
    ({ host } = await startedHost(pair(), { serverFactory: factory, maxBuilds: 2 }));
    const a = await build(host, "a");
    const b = await build(host, "b");
    assert.equal(compiledOf(await build(host, "a")), compiledOf(a)); // a is now the most recently used
    await build(host, "c"); // evicts b
    assert.equal(compiledOf(await build(host, "a")), compiledOf(a));
    const bAgain = await build(host, "b"); // rebuilt; evicts c
    assert.notEqual(compiledOf(bAgain), compiledOf(b));
    assert.deepEqual(bAgain.toolNames, b.toolNames);
    assert.deepEqual(keys, ["a", "b", "c", "b"]);
  });
});

describe("build: invalidation when an extension changes its offer", () => {
  function dynamic(): { extensions: McpExtension[]; ctx: Promise<ExtensionContext> } {
    const captured = deferred<ExtensionContext>();
    const extensions: McpExtension[] = [
      ...pair(),
      {
        name: "dyn",
        toolsets: [{ name: "dyn", default: false }],
        tools: [textTool("dyn_first")],
        setup: (ctx) => captured.resolve(ctx),
      },
    ];
    return { extensions, ctx: captured.promise };
  }

  it("drops only the builds that include the changed toolset", async () => {
    const { extensions, ctx } = dynamic();
    ({ host } = await startedHost(extensions));
    const dynBuild = await build(host, "dyn");
    const mixed = await build(host, "dyn&a");
    const unrelated = await build(host, "b");
    const revision = host.revision;
    (await ctx).addTool(textTool("dyn_later"));
    assert.ok(host.revision > revision);
    const unrelatedAfter = await build(host, "b");
    const dynAfter = await build(host, "dyn");
    const mixedAfter = await build(host, "a&dyn");
    assert.equal(compiledOf(unrelatedAfter), compiledOf(unrelated));
    assert.notEqual(compiledOf(dynAfter), compiledOf(dynBuild));
    assert.notEqual(compiledOf(mixedAfter), compiledOf(mixed));
    assert.deepEqual(dynBuild.toolNames, ["dyn_first", "list_server_toolsets"]);
    assert.deepEqual(dynAfter.toolNames, ["dyn_first", "dyn_later", "list_server_toolsets"]);
    assert.deepEqual(mixedAfter.toolNames, ["a_tool", "dyn_first", "dyn_later", "list_server_toolsets"]);
  });

  it("reports a burst of changes once, naming the dropped builds and the changed toolsets", async () => {
    const { extensions, ctx } = dynamic();
    const clock = new ManualClock();
    ({ host } = await startedHost(extensions, { listChangedDebounceMs: 60_000, clock }));
    const changes: OfferChange[] = [];
    host.onOfferChange((change) => changes.push(change));
    await build(host, "dyn");
    await build(host, "dyn,a");
    await build(host, "b");
    const context = await ctx;

    context.addTool(textTool("one"));
    await clock.advance(59_999); // each change restarts the quiet spell
    context.addTool(textTool("two"));
    context.removeTool("one");
    await clock.advance(59_999);
    assert.deepEqual(changes, [], "nothing is reported while the burst goes on");
    await clock.advance(1);
    const burst = { revision: host.revision, keys: ["a,dyn", "dyn"], toolsets: ["dyn"] };
    assert.deepEqual(changes, [burst]);

    // A second burst is reported on its own.
    await build(host, "dyn");
    context.addToolset({ name: "dyn_extra", default: false });
    await clock.advance(60_000);
    // Only the toolset whose contents changed is reported: the "dyn" build holds nothing of dyn_extra and is kept.
    assert.deepEqual(changes, [burst, { revision: host.revision, keys: [], toolsets: ["dyn_extra"] }]);
    assert.equal(clock.timers, 0, "no burst is left waiting");
  });

  it("drops only the changed toolset's builds when one extension with two toolsets changes one of them", async () => {
    const captured = deferred<ExtensionContext>();
    const clock = new ManualClock();
    ({ host } = await startedHost(
      [
        {
          name: "twin",
          toolsets: [
            { name: "left", default: false },
            { name: "right", default: false },
          ],
          tools: [textTool("left_tool"), { ...textTool("right_tool"), toolset: "right" }],
          setup: (ctx) => captured.resolve(ctx),
        },
      ],
      { clock },
    ));
    const left = await build(host, "only=left");
    const right = await build(host, "only=right");
    const seen = deferred<OfferChange>();
    host.onOfferChange((change) => seen.resolve(change));
    (await captured.promise).addTool({ ...textTool("right_more"), toolset: "right" });
    await clock.advance(50); // the default quiet spell
    const change = await held(seen.promise);
    assert.deepEqual(change.toolsets, ["right"]);
    assert.deepEqual(change.keys, ["right"]);
    assert.equal(compiledOf(await build(host, "only=left")), compiledOf(left));
    assert.notEqual(compiledOf(await build(host, "only=right")), compiledOf(right));
    assert.deepEqual((await build(host, "only=right")).toolNames, ["list_server_toolsets", "right_more", "right_tool"]);
  });

  it("tells every selection when a default toolset appears, since every URL without only= now includes it", async () => {
    const { extensions, ctx } = dynamic();
    const clock = new ManualClock();
    ({ host } = await startedHost(extensions, { clock }));
    const cached = await build(host, "b");
    const seen = deferred<OfferChange>();
    host.onOfferChange((change) => seen.resolve(change));
    (await ctx).addToolset({ name: "fresh_default" });
    await clock.advance(50);
    const change = await held(seen.promise);
    assert.equal(change.toolsets, undefined);
    assert.deepEqual(change.keys, [cached.key], "the one cached build was dropped");
  });

  it("builds the changed offer for the affected selection, adds and removals alike", async () => {
    const { extensions, ctx } = dynamic();
    ({ host } = await startedHost(extensions));
    (await ctx).addTool({ ...textTool("dyn_later"), toolset: "dyn" });
    (await ctx).removeTool("dyn_later");
    (await ctx).addTool(textTool("dyn_final"));
    assert.deepEqual((await build(host, "dyn")).toolNames, ["dyn_final", "dyn_first", "list_server_toolsets"]);
  });
});

describe("add() after start", () => {
  it("sets the new extension up, bumps the revision and serves it on the next build", async () => {
    ({ host } = await startedHost([{ name: "first", tools: [textTool("first_tool")] }]));
    const before = await build(host, "");
    const revision = host.revision;
    let setups = 0;
    await host.add({ name: "late", tools: [textTool("late_tool")], setup: () => void (setups += 1) });
    assert.equal(setups, 1);
    assert.ok(host.revision > revision);
    const after = await build(host, "");
    assert.notEqual(compiledOf(after), compiledOf(before));
    assert.deepEqual(before.toolNames, ["first_tool", "list_server_toolsets"]);
    assert.deepEqual(after.toolNames, ["first_tool", "late_tool", "list_server_toolsets"]);
    assert.deepEqual(host.extensionStatuses(), [
      { name: "first", status: "ready" },
      { name: "late", status: "ready" },
    ]);
  });
});
