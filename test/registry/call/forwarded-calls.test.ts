// Forwarded calls (docs/registry.md, "Forwarded calls"): with `forward: true` a first-round tools/call, resources/read
// or prompts/get goes out as one raw JSON-RPC request on the connection the SDK client holds. Parity: the same
// registry calls, forwarded and not, against real upstreams of every kind (2025 and 2026-07-28 over stdio, a 2025
// session and 2026-07-28 over HTTP) give the same answer — results, isError results naming server and tool,
// rejections, progress, `_meta`, an upstream's `input_required` — and the forwarded ones really were forwarded (the
// upstream saw the forwarding channel's own progress token). A forwarded call's time limits run on the registry's clock.
import assert from "node:assert/strict";
import { afterEach, describe, it } from "node:test";
import type { McpRegistry, ServerSpecification } from "../../../src/registry/index.js";
import { ServerSpec } from "../../../src/registry/index.js";
import { LegacyHttpFixture, ModernHttpFixture } from "../../fixtures/upstream/http-fixtures.js";
import type { FixtureConfig } from "../../fixtures/upstream/legacy-behaviours.mjs";
import { ManualClock } from "../../helpers/manual-clock.js";
import { countOf, legacyStdio, modernStdio, registryHarness, stateDir, stderrLine } from "../../helpers/registry/harness.js";
import { httpForwardingLoaded } from "../../../src/registry/forward/http-forwarder.js";

const LEGACY: FixtureConfig = {
  tools: ["echo", "mixed", "is_error", "reject", "meta", "progress", "structured_ok", "hang", "crash"],
  resources: [{ uri: "mem://a", name: "a", text: "alpha" }],
  prompts: [{ name: "greet" }],
};

const fixtures: Array<{ stop(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(fixtures.splice(0).map((f) => f.stop()));
});

/** The progress token the upstream saw, replaced (it is the channel's own, and differs by design). */
function sameButToken(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value).replace(/\\"progressToken\\":(\d+|\\"mcp-host-fwd-\d+\\")/g, '\\"progressToken\\":\\"<token>\\"'));
}

async function both<T>(run: (forward: boolean) => Promise<T>): Promise<[T, T]> {
  const plain = await run(false).catch((e: Error) => ({ threw: e.message, code: (e as { code?: string }).code }) as T);
  const forwarded = await run(true).catch((e: Error) => ({ threw: e.message, code: (e as { code?: string }).code }) as T);
  return [plain, forwarded];
}

async function legacyCalls(registry: McpRegistry): Promise<void> {
  const call = (name: string, args: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) =>
    both((forward) => registry.callTool(name, args, { forward, inputRequired: "return", ...extra }));
  for (const [name, args] of [
    ["echo", { text: "hi" }],
    ["mixed", {}],
    ["is_error", {}],
    ["reject", {}],
    ["nosuch", {}],
  ] as const) {
    const [plain, forwarded] = await call(name, args);
    assert.deepEqual(forwarded, plain, name);
  }
  const [plain, forwarded] = await call("meta", { a: 1 }, { meta: { "example/trace": "t-1" } });
  assert.match(JSON.stringify(forwarded), /mcp-host-fwd-\d+/, "the forwarded call went out on the forwarding channel");
  assert.deepEqual(sameButToken(forwarded), sameButToken(plain));
  const progress: Record<string, unknown[]> = { true: [], false: [] };
  const [done, doneForwarded] = await both((forward) =>
    registry.callTool("progress", { steps: 3, intervalMs: 1 }, { forward, inputRequired: "return", onprogress: (p) => progress[String(forward)]!.push(p) }),
  );
  assert.deepEqual(doneForwarded, done);
  assert.deepEqual(progress.true, progress.false);
  assert.equal(progress.true!.length, 3);
  // A tool with an outputSchema is never forwarded (its structured content is checked by the full path): same answer.
  const [structured, structuredForwarded] = await call("structured_ok");
  assert.deepEqual(structuredForwarded, structured);
  for (const [uri, server] of [
    ["mem://a", undefined],
    ["mem://elsewhere", "up"],
  ] as const) {
    const [read, readForwarded] = await both((forward) => registry.readResource(uri, { forward, inputRequired: "return", ...(server ? { server } : {}) }));
    assert.deepEqual(readForwarded, read, uri);
  }
  const [prompt, promptForwarded] = await both((forward) => registry.getPrompt("greet", { who: "me" }, { forward, inputRequired: "return" }));
  assert.deepEqual(promptForwarded, prompt);
  // The server's time limit applies (and cancels upstream); a call that may have run is not silently re-run.
  const [late, lateForwarded] = await call("hang", {}, { timeoutMs: 150 });
  assert.deepEqual(lateForwarded, late);
  assert.match(JSON.stringify(lateForwarded), /timed out after 150 ms/);
  const [crashed, crashedForwarded] = await call("crash");
  assert.deepEqual(crashedForwarded, crashed);
  assert.match(JSON.stringify(crashedForwarded), /it may have run, so it was not retried/);
  const [again, againForwarded] = await call("echo", { text: "after the crash" });
  assert.deepEqual(againForwarded, again, "the next call reconnects, on either path");
}

async function modernCalls(registry: McpRegistry): Promise<void> {
  for (const [name, args] of [
    ["echo", { text: "hi" }],
    ["ask_elicitation", {}],
    ["ask_roots", {}],
    ["echo", { text: 3 }],
  ] as const) {
    const [plain, forwarded] = await both((forward) => registry.callTool(name, args, { forward, inputRequired: "return" }));
    assert.deepEqual(forwarded, plain, `${name} ${JSON.stringify(args)}`);
  }
}

describe("forwarded calls give the answers of a client round", () => {
  const h = registryHarness();

  const cases: Array<[string, () => Promise<ServerSpecification>, (r: McpRegistry) => Promise<void>]> = [
    ["a 2025 stdio upstream", async () => legacyStdio("up", LEGACY), legacyCalls],
    ["a 2026-07-28 stdio upstream", async () => modernStdio("up", {}, { era: "modern" }), modernCalls],
    [
      "a 2025 HTTP session",
      async () => {
        const fixture = await new LegacyHttpFixture({ name: "up", ...LEGACY }).start();
        fixtures.push(fixture);
        return ServerSpec.http("up", fixture.url, { era: "legacy" });
      },
      legacyCalls,
    ],
    [
      "a 2026-07-28 HTTP upstream",
      async () => {
        const fixture = await new ModernHttpFixture().start();
        fixtures.push(fixture);
        return ServerSpec.http("up", fixture.url, { era: "modern" });
      },
      modernCalls,
    ],
  ];
  it("cancels a forwarded call upstream when its time runs out or its caller leaves", async () => {
    const dir = stateDir();
    const clock = new ManualClock();
    const registry = h.make([legacyStdio("slow", { tools: ["hang"], stateDir: dir }, { timeoutMs: 600_000 })], { clock });
    await registry.connect();
    const reached = h.nextLog(stderrLine("slow", "call:hang"), "the first call to reach the upstream");
    let settled = false;
    const pending = registry.callTool("hang", {}, { forward: true, inputRequired: "return" }).finally(() => (settled = true));
    await reached;
    assert.equal(clock.timers, 2, "the idle timeout and the total cap run on the registry's clock");
    await clock.advance(599_999);
    await new Promise<void>((resolve) => setImmediate(resolve));
    assert.equal(settled, false, "the idle timeout has not run out a millisecond early");
    await clock.advance(1);
    const timedOut = await pending;
    assert.match(JSON.stringify(timedOut), /tool \\"hang\\" on server \\"slow\\" timed out after 600000 ms/);
    assert.equal(clock.timers, 0, "the call left no timer behind");
    await h.logged(stderrLine("slow", "cancelled:hang"), "the upstream to see the timeout's cancellation");
    const leaving = new AbortController();
    const next = h.nextLog(stderrLine("slow", "cancelled:hang"), "the upstream to see the caller's cancellation");
    const arrived = h.nextLog(stderrLine("slow", "call:hang"), "the second call to reach the upstream");
    const called = registry.callTool("hang", {}, { forward: true, inputRequired: "return", signal: leaving.signal, timeoutMs: 60_000 });
    await arrived;
    leaving.abort();
    assert.match(JSON.stringify(await called), /was cancelled by the caller/);
    await next;
    assert.deepEqual([countOf(dir, "call:hang"), countOf(dir, "cancelled:hang")], [2, 2]);
  });

  for (const [label, spec, calls] of cases) {
    it(label, async () => {
      const registry = h.make([await spec()]);
      await registry.connect();
      assert.deepEqual(registry.unavailable, []);
      // An HTTP channel exists once undici is loaded (the first call starts that; until then calls take client
      // rounds, by design): on a loaded machine that can outlast the first calls, which must go forwarded here.
      await httpForwardingLoaded();
      await calls(registry);
    });
  }
});
