// §10.7: per-server timeouts that progress resets, a total cap nothing resets (kept on the registry's clock, so the
// test moves time instead of waiting for it), an isError result "tool X on server Y timed out after N ms", and the
// upstream request cancelled. On a client round the idle timeout is the SDK's own and runs on real time: those tests
// keep it short. A forwarded call keeps both limits itself, on the registry's clock, which its tests move.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { registryErrorCode, toText } from "../../../src/registry/index.js";
import { ManualClock } from "../../helpers/manual-clock.js";
import { countOf, legacyStdio, registryHarness, stateDir, stderrLine } from "../../helpers/registry/harness.js";

describe("timeouts", () => {
  const h = registryHarness();

  it("times a silent call out, names tool, server and budget, and cancels it upstream", async () => {
    const dir = stateDir();
    const registry = h.make([legacyStdio("slow", { tools: ["hang", "echo"], stateDir: dir }, { timeoutMs: 400 })]);
    const result = await registry.callTool("hang");
    assert.equal(result.isError, true);
    assert.equal(registryErrorCode(result), "TOOL_TIMEOUT");
    assert.equal(toText(result), 'tool "hang" on server "slow" timed out after 400 ms');
    await h.logged(stderrLine("slow", "cancelled:hang"), "the upstream to see the cancellation");
    assert.equal(toText(await registry.callTool("echo", { text: "alive" })), "alive"); // the connection survives a timeout
    assert.deepEqual([countOf(dir, "call:hang"), countOf(dir, "cancelled:hang")], [1, 1]);
  });

  it("lets progress notifications keep a long call alive past the idle timeout", async () => {
    const progress: number[] = [];
    const registry = h.make([legacyStdio("slow", { tools: ["progress"] }, { timeoutMs: 500 })]);
    const result = await registry.callTool("progress", { steps: 10, intervalMs: 100 }, { onprogress: (p) => progress.push(p.progress) });
    assert.equal(toText(result), "done after 10 steps");
    // The SDK may handle the final notification after the response that follows it; every other one arrives in order.
    const expected = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    assert.deepEqual(progress, progress.length === 10 ? expected : expected.slice(0, 9));
  });

  it("stops a call at the total cap even while progress keeps coming, and cancels it upstream", async () => {
    const clock = new ManualClock();
    const dir = stateDir();
    const registry = h.make([legacyStdio("slow", { tools: ["progress"], stateDir: dir }, { timeoutMs: 10_000, maxTotalTimeoutMs: 1200 })], { clock });
    let progressed!: () => void;
    const firstProgress = new Promise<void>((resolve) => (progressed = resolve));
    const pending = registry.callTool("progress", { steps: 1000, intervalMs: 50 }, { onprogress: () => progressed() });
    await firstProgress;
    assert.equal(clock.timers, 1, "one budget runs on the clock: the cap");
    await clock.advance(1199);
    assert.equal(clock.timers, 1, "the cap has not run out a millisecond early");
    await clock.advance(1);
    const result = await pending;
    assert.equal(registryErrorCode(result), "TOOL_TIMEOUT");
    assert.equal(toText(result), 'tool "progress" on server "slow" timed out after 1200 ms');
    await h.logged(stderrLine("slow", "cancelled:progress"), "the upstream to see the cancellation");
    assert.equal(countOf(dir, "cancelled:progress"), 1);
    assert.equal(clock.timers, 0, "the call left no timer behind");
  });

  it("stops a forwarded call at the total cap while progress keeps resetting its idle timeout, on the registry's clock", async () => {
    const clock = new ManualClock();
    const dir = stateDir();
    const registry = h.make([legacyStdio("slow", { tools: ["progress"], stateDir: dir }, { timeoutMs: 1_000, maxTotalTimeoutMs: 3_500 })], { clock });
    await registry.connect(); // a connection not yet open has no channel to forward on
    let nextProgress: (() => void) | undefined;
    const progress = () => new Promise<void>((resolve) => (nextProgress = resolve));
    let first = progress();
    const pending = registry.callTool(
      "progress",
      { steps: 100_000, intervalMs: 20 },
      { forward: true, inputRequired: "return", onprogress: () => nextProgress?.() },
    );
    await first;
    assert.equal(clock.timers, 2, "the idle timeout and the cap");
    // Each progress notification restarts the idle timeout: without it, the second second would end the call.
    for (let i = 0; i < 3; i++) {
      first = progress();
      await clock.advance(999);
      await first;
    }
    await clock.advance(3_500 - 3 * 999 - 1);
    assert.equal(clock.timers, 2, "the cap has not run out a millisecond early");
    await clock.advance(1);
    // A forwarded call may answer with a request for input too (inputRequired: "return"); this one is a result.
    const result = (await pending) as Parameters<typeof registryErrorCode>[0] & Parameters<typeof toText>[0];
    assert.equal(registryErrorCode(result), "TOOL_TIMEOUT");
    assert.equal(toText(result), 'tool "progress" on server "slow" timed out after 3500 ms');
    await h.logged(stderrLine("slow", "cancelled:progress"), "the upstream to see the cancellation");
    assert.equal(clock.timers, 0, "the call left no timer behind");
  });

  it("takes a per-call timeout over the server's", async () => {
    const registry = h.make([legacyStdio("slow", { tools: ["hang"] }, { timeoutMs: 60_000 })], { callTimeoutMs: 60_000 });
    const result = await registry.callTool("hang", {}, { timeoutMs: 300 });
    assert.equal(registryErrorCode(result), "TOOL_TIMEOUT");
    assert.equal(toText(result), 'tool "hang" on server "slow" timed out after 300 ms');
  });

  it("ends a call its caller aborts, cancelling it upstream", async () => {
    const registry = h.make([legacyStdio("slow", { tools: ["hang"] })]);
    await registry.connect();
    const controller = new AbortController();
    const reached = h.nextLog(stderrLine("slow", "call:hang"), "the call to reach the server");
    const pending = registry.callTool("hang", {}, { signal: controller.signal });
    await reached;
    controller.abort();
    const result = await pending;
    assert.equal(registryErrorCode(result), "MCP_CALL_FAILED");
    assert.equal(toText(result), 'tool "hang" on server "slow" was cancelled by the caller');
    await h.logged(stderrLine("slow", "cancelled:hang"), "the upstream to see the cancellation");
  });
});
