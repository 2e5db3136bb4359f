// §10.12: destructive detection from annotations — destructiveHint, then readOnlyHint: false; a tool with neither is
// safe unless its server is untrusted (`unannotated: "destructive"`) — judged once per listing, shown on listTools().
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Tool } from "@modelcontextprotocol/client";
import { isDestructive } from "../../../src/registry/index.js";
import { ANNOTATED_TOOLS, legacyStdio, registryHarness } from "../../helpers/registry/harness.js";

const tool = (annotations?: Tool["annotations"]): Tool => ({ name: "t", inputSchema: { type: "object" }, ...(annotations ? { annotations } : {}) });

describe("destructive detection", () => {
  it("follows destructiveHint, then readOnlyHint: false, and calls a tool with neither safe", () => {
    assert.equal(isDestructive(tool({ destructiveHint: true })), true);
    assert.equal(isDestructive(tool({ destructiveHint: true, readOnlyHint: true })), true);
    assert.equal(isDestructive(tool({ readOnlyHint: false })), true);
    assert.equal(isDestructive(tool({ readOnlyHint: false, destructiveHint: false })), false);
    assert.equal(isDestructive(tool({ readOnlyHint: true })), false);
    assert.equal(isDestructive(tool()), false);
    assert.equal(isDestructive(tool({ title: "x" })), false);
  });

  it("treats unannotated tools as destructive under the untrusted policy", () => {
    assert.equal(isDestructive(tool(), "destructive"), true);
    assert.equal(isDestructive(tool({ readOnlyHint: true }), "destructive"), false);
    assert.equal(isDestructive(tool({ destructiveHint: false }), "destructive"), false);
  });
});

describe("destructive tools in the listing", () => {
  const h = registryHarness();

  it("marks listed tools destructive", async () => {
    const registry = h.make([
      legacyStdio("fx", { tools: ANNOTATED_TOOLS }),
      legacyStdio("untrusted", { tools: [{ name: "other", behaviour: "count" }] }, { unannotated: "destructive" }),
    ]);
    assert.deepEqual(
      (await registry.listTools()).map((t) => [t.name, t.destructive]),
      [
        ["wipe", true],
        ["edit", true],
        ["look", false],
        ["plain", false],
        ["safe_write", false],
        ["other", true],
      ],
    );
  });
});
