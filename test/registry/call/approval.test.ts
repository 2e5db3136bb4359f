// §10.12: the approval policy per server with an approval handler (per call, then spec, then registry), a clear
// refusal when there is no way to ask, and deniedTools globs that hide tools and refuse calls to them. Which tools
// are destructive is judged at listing: test/registry/catalog/destructive.test.ts.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { registryErrorCode, toText, type ApprovalRequest } from "../../../src/registry/index.js";
import { ANNOTATED_TOOLS, countOf, legacyStdio, registryHarness, stateDir } from "../../helpers/registry/harness.js";

describe("approval and deniedTools", () => {
  const h = registryHarness();

  it("asks the approval handler for destructive calls only, and runs or refuses as it says", async () => {
    const dir = stateDir();
    const asked: ApprovalRequest[] = [];
    const registry = h.make([legacyStdio("fx", { tools: ANNOTATED_TOOLS, stateDir: dir }, { approval: "destructive" })], {
      approve: (request) => {
        asked.push(request);
        return request.tool === "edit";
      },
    });
    assert.equal(toText(await registry.callTool("look")), "ran");
    assert.equal(toText(await registry.callTool("edit", { path: "/x" })), "ran");
    const refused = await registry.callTool("wipe");
    assert.equal(refused.isError, true);
    assert.equal(registryErrorCode(refused), "MCP_TOOL_DENIED");
    assert.equal(toText(refused), 'the call to tool "wipe" on server "fx" was not approved');
    assert.deepEqual(
      asked.map((r) => [r.tool, r.server, r.destructive, r.policy]),
      [
        ["edit", "fx", true, "destructive"],
        ["wipe", "fx", true, "destructive"],
      ],
    );
    assert.deepEqual(asked[0]!.arguments, { path: "/x" });
    assert.equal(countOf(dir, "call:wipe"), 0);
  });

  it("asks for every call under approval: always; never asks under never", async () => {
    let asked = 0;
    const registry = h.make(
      [
        legacyStdio("strict", { tools: ANNOTATED_TOOLS }, { approval: "always" }),
        legacyStdio("lax", { tools: [{ name: "zap", behaviour: "count", annotations: { destructiveHint: true } }] }),
      ],
      {
        approve: async () => {
          asked++;
          return true;
        },
      },
    );
    assert.equal(toText(await registry.callTool("look")), "ran");
    assert.equal(toText(await registry.callTool("zap")), "ran");
    assert.equal(asked, 1);
  });

  it("refuses clearly when there is no way to ask, and when the handler fails", async () => {
    const registry = h.make([legacyStdio("fx", { tools: ANNOTATED_TOOLS }, { approval: "destructive" })]);
    const result = await registry.callTool("wipe");
    assert.equal(registryErrorCode(result), "MCP_TOOL_DENIED");
    assert.equal(
      toText(result),
      'tool "wipe" on server "fx" needs approval (approval: "destructive") and there is no approval handler to ask; the call was refused',
    );
    const failing = await registry.callTool(
      "wipe",
      {},
      {
        approve: () => {
          throw new Error("approver offline");
        },
      },
    );
    assert.equal(toText(failing), 'the approval handler failed for tool "wipe" on server "fx" (approver offline); the call was refused');
  });

  it("prefers the per-call and the spec's approval handlers over the registry's", async () => {
    const registry = h.make([legacyStdio("fx", { tools: ANNOTATED_TOOLS }, { approval: "destructive", approve: () => true })], { approve: () => false });
    assert.equal(toText(await registry.callTool("wipe")), "ran");
    assert.equal(toText(await registry.callTool("wipe", {}, { approve: () => false })), 'the call to tool "wipe" on server "fx" was not approved');
  });

  it("hides denied tools and refuses calls to them", async () => {
    const dir = stateDir();
    const registry = h.make(
      [
        legacyStdio("fx", { tools: ANNOTATED_TOOLS, stateDir: dir }, { deniedTools: ["wi*", "ed?t"] }),
        legacyStdio("other", {
          tools: [
            { name: "look_other", behaviour: "count" },
            { name: "plain2", behaviour: "count" },
          ],
        }),
      ],
      { deniedTools: ["other__plain?"] },
    );
    assert.deepEqual(
      (await registry.listTools()).map((t) => t.name),
      ["look", "plain", "safe_write", "look_other"],
    );
    for (const [name, server, upstream] of [
      ["wipe", "fx", "wipe"],
      ["fx__edit", "fx", "edit"],
      ["other.plain2", "other", "plain2"],
    ] as const) {
      const result = await registry.callTool(name);
      assert.equal(registryErrorCode(result), "MCP_TOOL_DENIED", name);
      assert.equal(toText(result), `tool "${upstream}" on server "${server}" is denied (deniedTools); the call was refused`);
    }
    assert.equal(countOf(dir, "call:wipe") + countOf(dir, "call:edit"), 0);
  });
});
