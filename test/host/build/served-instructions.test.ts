// A build sends the instructions only of the toolsets it really serves something of (issue 10 item 6): a
// quarantined extension's toolset stays declared, but the model is not told to use tools that are not there.
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { McpExtension } from "../../../src/extension/types.js";
import type { McpHost } from "../../../src/host/host.js";
import { connectInProcess } from "../../helpers/in-process.js";
import { build, startedHost, textTool } from "../../helpers/kit.js";

let host: McpHost | undefined;
afterEach(async () => {
  await host?.stop();
  host = undefined;
});

const working: McpExtension = {
  name: "working",
  toolsets: [{ name: "working", title: "Working", instructions: "Use working_tool." }],
  tools: [textTool("working_tool")],
};
const fragile: McpExtension = {
  name: "fragile",
  toolsets: [{ name: "fragile", title: "Fragile", instructions: "Always call fragile_tool first." }],
  tools: [textTool("fragile_tool")],
  setup: () => {
    throw new Error("no database");
  },
};
const empty: McpExtension = { name: "empty", toolsets: [{ name: "declared-only", instructions: "Nothing to see." }] };

describe("instructions follow what a build serves", () => {
  it("leaves out a quarantined extension's toolset instructions, keeping the working ones", async () => {
    ({ host } = await startedHost([working, fragile, empty], { instructions: "Be brief." }));
    const built = await build(host, "");
    assert.deepEqual(built.toolsets, ["declared-only", "fragile", "working"]);
    assert.equal(built.instructions, "Be brief.\n\n## Working\n\nUse working_tool.");
    const { client, close } = await connectInProcess(host, "", { era: "modern" });
    try {
      assert.equal(client.getInstructions(), "Be brief.\n\n## Working\n\nUse working_tool.");
    } finally {
      await close();
    }
  });

  it("sends nothing when nothing the selection names is served", async () => {
    ({ host } = await startedHost([fragile]));
    assert.equal((await build(host, "only=fragile")).instructions, undefined);
  });
});
