// §10.7: per-server timeouts that progress resets, a total cap nothing resets, an isError result "tool X on server Y
// timed out after N ms", and the upstream request cancelled.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { registryErrorCode, toText } from "../../src/registry/index.js";
import { countOf, legacyStdio, registryHarness, stateDir } from "./helpers/harness.js";
import { eventually } from "./helpers/processes.js";

describe("timeouts", () => {
  const h = registryHarness();

  it("times a silent call out, names tool, server and budget, and cancels it upstream", async () => {
    const dir = stateDir();
    const registry = h.make([legacyStdio("slow", { tools: ["hang", "echo"], stateDir: dir }, { timeoutMs: 400 })]);
    const result = await registry.callTool("hang");
    assert.equal(result.isError, true);
    assert.equal(registryErrorCode(result), "TOOL_TIMEOUT");
    assert.equal(toText(result), 'tool "hang" on server "slow" timed out after 400 ms');
    await eventually(() => countOf(dir, "cancelled:hang") === 1, "the upstream to see the cancellation");
    assert.equal(toText(await registry.callTool("echo", { text: "alive" })), "alive"); // the connection survives a timeout
  });

  it("lets progress notifications keep a long call alive past the idle timeout", async () => {
    const progress: number[] = [];
    const registry = h.make([legacyStdio("slow", { tools: ["progress"] }, { timeoutMs: 800 })]);
    const result = await registry.callTool("progress", { steps: 20, intervalMs: 100 }, { onprogress: (p) => progress.push(p.progress) });
    assert.equal(toText(result), "done after 20 steps");
    // The SDK may handle the final notification after the response that follows it; every other one arrives in order.
    assert.ok(progress.length >= 19, String(progress));
    assert.deepEqual(progress, Array.from({ length: progress.length }, (_, i) => i + 1));
  });

  it("stops a call at the total cap even while progress keeps coming, and cancels it upstream", async () => {
    const dir = stateDir();
    const registry = h.make([legacyStdio("slow", { tools: ["progress"], stateDir: dir }, { timeoutMs: 10_000, maxTotalTimeoutMs: 1200 })]);
    const result = await registry.callTool("progress", { steps: 1000, intervalMs: 50 });
    assert.equal(registryErrorCode(result), "TOOL_TIMEOUT");
    assert.equal(toText(result), 'tool "progress" on server "slow" timed out after 1200 ms');
    await eventually(() => countOf(dir, "cancelled:progress") === 1, "the upstream to see the cancellation");
  });

  it("takes a per-call timeout over the server's", async () => {
    const registry = h.make([legacyStdio("slow", { tools: ["hang"] }, { timeoutMs: 60_000 })], { callTimeoutMs: 60_000 });
    const result = await registry.callTool("hang", {}, { timeoutMs: 300 });
    assert.equal(toText(result), 'tool "hang" on server "slow" timed out after 300 ms');
  });

  it("ends a call its caller aborts, cancelling it upstream", async () => {
    const dir = stateDir();
    const registry = h.make([legacyStdio("slow", { tools: ["hang"], stateDir: dir })]);
    await registry.connect();
    const controller = new AbortController();
    const pending = registry.callTool("hang", {}, { signal: controller.signal });
    await eventually(() => countOf(dir, "call:hang") === 1, "the call to reach the server");
    controller.abort();
    const result = await pending;
    assert.equal(toText(result), 'tool "hang" on server "slow" was cancelled by the caller');
    await eventually(() => countOf(dir, "cancelled:hang") === 1, "the upstream to see the cancellation");
  });
});
