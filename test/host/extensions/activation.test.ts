// `activation: "onToolset"` (docs/design.md §4 rules 11, 14): the extension's toolsets are declared before it wakes,
// its setup waits until a selection names one of them and then runs exactly once, waking bumps the revision, and
// what it contributes reaches only the builds whose active toolsets it belongs to.
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { McpExtension } from "../../../src/extension/types.js";
import type { McpHost } from "../../../src/host/host.js";
import { parseSelection } from "../../../src/host/selection.js";
import { connectInProcess } from "../../helpers/in-process.js";
import { build, startedHost, textTool } from "../../helpers/kit.js";
import { compiledOf } from "../../../src/host/built-server.js";

function lazyDeployment() {
  const seen = { setups: 0, onServerKeys: [] as string[] };
  const lazy: McpExtension = {
    name: "lazy",
    activation: "onToolset",
    toolsets: [{ name: "lazy", title: "Lazy", default: false, instructions: "Lazy things." }],
    tools: [textTool("lazy_tool")],
    resources: [{ uri: "lazy://state", name: "state", read: () => ({ contents: [{ uri: "lazy://state", text: "awake" }] }) }],
    prompts: [{ name: "lazy_prompt", get: () => ({ messages: [] }) }],
    setup: async () => {
      seen.setups += 1;
    },
    onServer: (draft) => {
      seen.onServerKeys.push(draft.key);
    },
  };
  const plain: McpExtension = { name: "plain", toolsets: [{ name: "plain" }], tools: [textTool("plain_tool")] };
  return { extensions: [lazy, plain], seen };
}

let host: McpHost | undefined;
afterEach(async () => {
  await host?.stop();
  host = undefined;
});

describe("onToolset activation", () => {
  it("declares the extension's toolsets before it wakes, and keeps its setup and tools back", async () => {
    const { extensions, seen } = lazyDeployment();
    ({ host } = await startedHost(extensions));
    assert.deepEqual(
      host.declaredToolsets().map((t) => t.name),
      ["lazy", "plain"],
    );
    assert.deepEqual((await build(host, "")).toolNames, ["list_server_toolsets", "plain_tool"]);
    assert.deepEqual((await build(host, "without=lazy")).toolNames, ["list_server_toolsets", "plain_tool"]);
    assert.deepEqual((await build(host, "nosuch")).toolNames, ["list_server_toolsets", "plain_tool"]);
    assert.equal(seen.setups, 0);
    const answer = await host.describe(parseSelection(""));
    assert.deepEqual(answer.extensions, [
      { name: "lazy", status: "dormant" },
      { name: "plain", status: "ready" },
    ]);
    assert.deepEqual(
      answer.toolsets.find((t) => t.name === "lazy"),
      { name: "lazy", title: "Lazy", default: false, always: false, active: false, extensions: ["lazy"] },
    );
  });

  it("sets the extension up once a selection names one of its toolsets, exactly once, and bumps the revision", async () => {
    const { extensions, seen } = lazyDeployment();
    ({ host } = await startedHost(extensions));
    const before = await build(host, "");
    const revision = host.revision;
    const woken = await Promise.all([build(host, "lazy"), build(host, "lazy"), build(host, "toolsets=lazy")]);
    assert.equal(seen.setups, 1);
    assert.ok(host.revision > revision);
    assert.ok(woken.every((b) => compiledOf(b) === compiledOf(woken[0]!)));
    assert.deepEqual(woken[0]!.toolNames, ["lazy_tool", "list_server_toolsets", "plain_tool"]);
    assert.equal(woken[0]!.instructions, "## Lazy\n\nLazy things.");
    await build(host, "only=lazy");
    await build(host, "lazy");
    assert.equal(seen.setups, 1);
    assert.deepEqual((await host.describe(parseSelection(""))).extensions.find((e) => e.name === "lazy")?.status, "ready");
    // The default selection does not include `lazy`: waking drops only the builds with its toolsets.
    assert.equal(compiledOf(await build(host, "")), compiledOf(before));
    assert.deepEqual(before.toolNames, ["list_server_toolsets", "plain_tool"]);
  });

  it("puts nothing of the woken extension on another selection's server", async () => {
    const { extensions, seen } = lazyDeployment();
    ({ host } = await startedHost(extensions));
    await build(host, "lazy");
    seen.onServerKeys.length = 0;
    for (const era of ["legacy", "modern"] as const) {
      const other = await connectInProcess(host, "only=plain", { era });
      const woken = await connectInProcess(host, "only=lazy", { era });
      try {
        assert.deepEqual(
          (await other.client.listTools()).tools.map((t) => t.name),
          ["list_server_toolsets", "plain_tool"],
        );
        assert.deepEqual((await other.client.listResources()).resources, []);
        assert.deepEqual((await other.client.listPrompts()).prompts, []);
        assert.equal(other.client.getInstructions(), undefined);
        assert.deepEqual(
          (await woken.client.listTools()).tools.map((t) => t.name),
          ["lazy_tool", "list_server_toolsets"],
        );
        assert.deepEqual(
          (await woken.client.listResources()).resources.map((r) => r.uri),
          ["lazy://state"],
        );
        assert.deepEqual(
          (await woken.client.listPrompts()).prompts.map((p) => p.name),
          ["lazy_prompt"],
        );
      } finally {
        await Promise.all([other.close(), woken.close()]);
      }
    }
    assert.deepEqual(seen.onServerKeys, ["lazy"]);
  });
});
