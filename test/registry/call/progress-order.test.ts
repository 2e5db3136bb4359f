// §10.7 / §11: every progress notification a server sends before its result reaches the caller — the last one too,
// which the SDK client would otherwise hand on after the result had already ended the request.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { legacyStdio, modernStdio, registryHarness } from "../../helpers/registry/harness.js";

describe("progress order", () => {
  const h = registryHarness();

  it("hands on every progress notification before the result, in the server's order", async () => {
    const registry = h.make([legacyStdio("fx", { tools: ["progress"] })]);
    const events: string[] = [];
    const result = await registry.callTool("progress", { steps: 4, intervalMs: 5 }, { onprogress: (p) => events.push(`${p.progress}/${p.total}`) });
    events.push(result.isError ? "error" : "result");
    assert.deepEqual(events, ["1/4", "2/4", "3/4", "4/4", "result"]);
  });

  it("keeps results and list changes working on a 2026-07-28 connection", async () => {
    const registry = h.make([modernStdio("modern", {}, { era: "modern" })]);
    const result = await registry.callTool("echo", { text: "still here" });
    assert.deepEqual(result.content, [{ type: "text", text: "still here" }]);
  });
});
