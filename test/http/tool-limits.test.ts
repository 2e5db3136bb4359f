// What one tool may take of the host (docs/design.md §16, issue 11 build 3): at most tools.maxConcurrent calls of a
// tool run at once, as many more wait up to tools.queueMs for a turn, the rest are refused with a coded isError
// result; a result over tools.maxResultBytes — or one JSON cannot carry (a BigInt, a cycle), which used to leave
// the request without an answer — becomes an isError result saying so, in both eras. The defaults are pinned. The
// queue's wait runs on the host's clock: the tests move it instead of waiting.
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { TOOL_LIMIT_DEFAULTS, ToolCallGate } from "../../src/host/protocol/tool-limits.js";
import type { McpExtension } from "../../src/extension/types.js";
import { Cleanup, connectV2, errorText, serveHost } from "../helpers/http-host.js";
import { gatedExtension } from "../helpers/gated-tool.js";
import { logsWithCode } from "../helpers/kit.js";
import { ManualClock } from "../helpers/manual-clock.js";

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

const BIG = "x".repeat(2 * 1024 * 1024);
const cyclic: Record<string, unknown> = { a: 1 };
cyclic.self = cyclic;

const results: McpExtension = {
  name: "results",
  toolsets: [{ name: "results" }],
  tools: [
    { name: "big", handler: () => ({ content: [{ type: "text", text: BIG }] }) },
    { name: "small", handler: () => ({ content: [{ type: "text", text: "small" }] }) },
    { name: "bigint", handler: () => ({ content: [{ type: "text", text: "n" }], _meta: { n: 10n } as never }) },
    { name: "cyclic", handler: () => ({ content: [{ type: "text", text: "c" }], _meta: cyclic as never }) },
  ],
};

describe("tool limits", { timeout: 30_000 }, () => {
  it("pins the defaults: 64 calls of a tool at once, a 1000 ms queue, 8 MiB results", () => {
    assert.deepEqual(TOOL_LIMIT_DEFAULTS, { maxConcurrent: 64, queueMs: 1_000, maxResultBytes: 8 * 1024 * 1024 });
    const gate = new ToolCallGate({}, new ManualClock());
    assert.deepEqual([gate.maxConcurrent, gate.queueMs, gate.maxResultBytes], [64, 1_000, 8 * 1024 * 1024]);
  });

  it("takes a free turn at once with tryEnter, gives none when every turn is taken, and hands a released turn to a waiter first", async () => {
    const clock = new ManualClock();
    const gate = new ToolCallGate({ maxConcurrent: 2, queueMs: 60_000 }, clock);
    const first = gate.tryEnter("ext", "t");
    const second = gate.tryEnter("ext", "t");
    assert.equal(typeof first, "function");
    assert.equal(typeof second, "function");
    assert.equal(gate.tryEnter("ext", "t"), undefined);
    assert.equal(gate.running("ext", "t"), 2);
    const waiting = gate.enter("ext", "t");
    first!();
    first!(); // a second release of the same turn gives nothing back
    const third = await waiting;
    assert.equal(gate.running("ext", "t"), 2);
    assert.equal(gate.tryEnter("ext", "t"), undefined);
    second!();
    third();
    assert.equal(gate.running("ext", "t"), 0);
    assert.equal(typeof gate.tryEnter("ext", "t"), "function");
    assert.equal(clock.timers, 0, "a waiter that got its turn left no timer behind");
  });

  it("refuses a waiter whose turn did not come within queueMs on the clock, not a millisecond early", async () => {
    const clock = new ManualClock();
    const gate = new ToolCallGate({ maxConcurrent: 1, queueMs: 600_000 }, clock);
    const release = gate.tryEnter("ext", "t");
    let outcome: string | undefined;
    const waiting = gate.enter("ext", "t").then(
      () => "entered",
      (error: { code: string; message: string }) => `${error.code}: ${error.message}`,
    );
    void waiting.then((o) => (outcome = o));
    await clock.advance(599_999);
    assert.equal(outcome, undefined, "still waiting a millisecond before queueMs");
    await clock.advance(1);
    assert.equal(
      await waiting,
      'TOOL_CONCURRENCY_LIMIT: tool "t" already runs 1 calls at once and no turn came within 600000 ms (tools.maxConcurrent, tools.queueMs); retry shortly',
    );
    assert.equal(clock.timers, 0);
    release!();
    assert.equal(gate.running("ext", "t"), 0);
  });

  for (const era of ["legacy", "modern"] as const) {
    it(`runs at most maxConcurrent calls of a tool, queues as many, refuses the rest (${era})`, async () => {
      const gated = gatedExtension();
      const { url, records } = await serveHost(cleanup, [gated.extension], { host: { toolLimits: { maxConcurrent: 2, queueMs: 60_000 } } });
      const { client } = await connectV2(cleanup, url, era);
      const call = () => client.callTool({ name: "wait", arguments: {} });
      const running = [call(), call()];
      await gated.started(2);
      const queued = [call(), call()];
      // Two run and two wait: a fifth finds the queue full and is refused at once, without running.
      const refused = await call();
      assert.equal(
        errorText(refused),
        'tool "wait" already runs 2 calls at once and no turn came within 60000 ms (tools.maxConcurrent, tools.queueMs); retry shortly',
      );
      gated.releaseOne();
      await gated.started(3);
      gated.releaseAll();
      await gated.started(4);
      gated.releaseAll();
      for (const result of await Promise.all([...running, ...queued])) assert.deepEqual(result.content, [{ type: "text", text: "done" }]);
      assert.equal(logsWithCode(records, "TOOL_CONCURRENCY_LIMIT").length, 1);
    });
  }

  it("refuses a call that waited queueMs without a turn (on the host's clock)", async () => {
    const gated = gatedExtension();
    const clock = new ManualClock();
    const { url } = await serveHost(cleanup, [gated.extension], {
      host: { clock, toolTimeoutMs: 6_000_000, toolLimits: { maxConcurrent: 1, queueMs: 600_000 } },
    });
    const { client } = await connectV2(cleanup, url, "modern");
    const first = client.callTool({ name: "wait", arguments: {} });
    await gated.started(1);
    const before = clock.timers; // the first call's tool timeout, the session sweep
    const second = client.callTool({ name: "wait", arguments: {} });
    await clock.waitForTimers(before + 1); // the second call waits in the queue
    await clock.advance(600_000);
    assert.match(errorText(await second), /already runs 1 calls at once and no turn came within 600000 ms/);
    gated.releaseAll();
    assert.deepEqual((await first).content, [{ type: "text", text: "done" }]);
  });

  for (const era of ["legacy", "modern"] as const) {
    it(`answers a result over maxResultBytes, or one JSON cannot carry, with an isError result (${era})`, async () => {
      const { url, records } = await serveHost(cleanup, [results], { host: { toolLimits: { maxResultBytes: 1024 * 1024 } } });
      const { client } = await connectV2(cleanup, url, era);
      const big = errorText(await client.callTool({ name: "big", arguments: {} }));
      assert.match(big, /^tool "big" returned a result that is \d+ bytes, over the 1048576 bytes the host sends \(tools\.maxResultBytes\)$/);
      assert.equal(
        errorText(await client.callTool({ name: "bigint", arguments: {} })),
        'tool "bigint" returned a result that cannot be sent: it holds a BigInt, which JSON cannot carry',
      );
      assert.equal(
        errorText(await client.callTool({ name: "cyclic", arguments: {} })),
        'tool "cyclic" returned a result that cannot be sent: it nests deeper than 512 levels (or refers to itself)',
      );
      assert.deepEqual((await client.callTool({ name: "small", arguments: {} })).content, [{ type: "text", text: "small" }]);
      assert.equal(logsWithCode(records, "TOOL_RESULT_TOO_LARGE").length, 1);
      assert.equal(logsWithCode(records, "TOOL_HANDLER_FAILED").length, 2);
    });
  }

  it("sends a result up to the default 8 MiB", async () => {
    const { url } = await serveHost(cleanup, [results]);
    const { client } = await connectV2(cleanup, url, "modern");
    const result = await client.callTool({ name: "big", arguments: {} });
    assert.equal(result.isError, undefined);
    assert.equal((result.content as Array<{ text: string }>)[0]!.text.length, BIG.length);
  });
});
