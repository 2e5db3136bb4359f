// §10.1: nothing is spawned or dialled until the first operation (or connect()), and connect() is idempotent.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { ServerSpec } from "../../../src/registry/index.js";
import { LegacyHttpFixture } from "../../fixtures/upstream/http-fixtures.js";
import { descendants } from "../../helpers/processes.js";
import { legacyStdio, registryHarness } from "../../helpers/registry/harness.js";

describe("lazy connect", () => {
  const h = registryHarness();
  let http: LegacyHttpFixture;
  before(async () => {
    http = await new LegacyHttpFixture({ name: "remote", tools: ["echo"] }).start();
  });
  after(() => http.stop());

  it("spawns no child and sends no request until the first operation", async () => {
    const childrenBefore = descendants().filter((p) => p.cmd.includes("legacy-stdio.mjs")).length;
    const registry = h.make([legacyStdio("local", { tools: ["echo"] }), ServerSpec.http("remote", http.url)]);
    assert.equal(descendants().filter((p) => p.cmd.includes("legacy-stdio.mjs")).length, childrenBefore);
    assert.deepEqual(http.counts.methods, {});
    assert.deepEqual(
      registry.status().map((s) => s.state),
      ["idle", "idle"],
    );

    const tools = await registry.listTools();
    assert.deepEqual(tools.map((t) => `${t.server}:${t.name}`).sort(), ["local:local__echo", "remote:remote__echo"]);
    assert.equal(http.counts.methods.initialize, 1);
    assert.equal(descendants().filter((p) => p.cmd.includes("legacy-stdio.mjs")).length, childrenBefore + 1);
  });

  it("connects once however often connect() and operations are called", async () => {
    const registry = h.make([ServerSpec.http("remote", http.url)]);
    const before = http.counts.methods.initialize ?? 0;
    await Promise.all([registry.connect(), registry.connect(), registry.listTools(), registry.callTool("echo", { text: "x" })]);
    await registry.connect();
    assert.equal((http.counts.methods.initialize ?? 0) - before, 1);
  });
});
