// Toolsets as subjects (docs/design.md §4 rules 2–4, 8): two extensions make one toolset, default and always-on
// toolsets, the toolset an extension gets when it declares none, where a tool without `toolset` goes, and load
// order sorted by name so the order extensions were added never changes the result.
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { McpExtension } from "../../src/extension/types.js";
import type { McpHost } from "../../src/host/host.js";
import { parseSelection } from "../../src/host/selection.js";
import { connectInProcess } from "../helpers/in-process.js";
import { build, callOk, logsWithCode, startedHost, textTool, toolNames } from "../helpers/kit.js";

const hosts: McpHost[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.stop()));
});
async function started(...args: Parameters<typeof startedHost>) {
  const result = await startedHost(...args);
  hosts.push(result.host);
  return result;
}

describe("a toolset is a subject, not a plugin", () => {
  const declarers = (): McpExtension[] => [
    // Added second, but "alpha-sbx" sorts first: its title and description win.
    {
      name: "beta-sbx",
      toolsets: [{ name: "sandboxes", title: "Beta Sandboxes", description: "from beta", default: false }],
      tools: [textTool("stop_sandbox")],
    },
    {
      name: "alpha-sbx",
      toolsets: [{ name: "sandboxes", title: "Sandboxes", description: "Run code in sandboxes.", default: false }],
      tools: [textTool("start_sandbox")],
    },
  ];

  it("makes one declared toolset of two declarers, titled by the first in load order", async () => {
    const { host } = await started(declarers());
    assert.deepEqual(host.declaredToolsets(), [
      { name: "sandboxes", title: "Sandboxes", description: "Run code in sandboxes.", default: false, always: false, extensions: ["alpha-sbx", "beta-sbx"] },
    ]);
  });

  it("takes title and flags from the first declarer, not from an extension that only contributes to it", async () => {
    const { host } = await started([
      { name: "zoo", toolsets: [{ name: "zoo", title: "Zoo", default: false }], tools: [textTool("feed")] },
      // Sorts first and puts a tool into "zoo" without declaring it.
      { name: "aaa-helper", toolsets: [{ name: "helper", default: false }], tools: [textTool("groom", { toolset: "zoo" })] },
    ]);
    assert.deepEqual(host.declaredToolsets(), [
      { name: "helper", default: false, always: false, extensions: ["aaa-helper"] },
      { name: "zoo", title: "Zoo", default: false, always: false, extensions: ["aaa-helper", "zoo"] },
    ]);
    assert.deepEqual((await build(host, "")).toolNames, ["list_server_toolsets"]);
    assert.deepEqual((await build(host, "zoo")).toolNames, ["feed", "groom", "list_server_toolsets"]);
  });

  it("serves both extensions' tools under only= of that toolset", async () => {
    const { host } = await started(declarers());
    const { client, close } = await connectInProcess(host, "only=sandboxes");
    try {
      assert.deepEqual(await toolNames(client), ["list_server_toolsets", "start_sandbox", "stop_sandbox"]);
      assert.equal(await callOk(client, "start_sandbox"), "start_sandbox ok");
      assert.equal(await callOk(client, "stop_sandbox"), "stop_sandbox ok");
    } finally {
      await close();
    }
  });
});

describe("default and always-on toolsets", () => {
  const extensions = (): McpExtension[] => [
    {
      name: "suite",
      toolsets: [{ name: "core", always: true }, { name: "main" }, { name: "extra", default: false }],
      tools: [textTool("core_tool", { toolset: "core" }), textTool("main_tool", { toolset: "main" }), textTool("extra_tool", { toolset: "extra" })],
    },
  ];
  const cases: Array<[string, string[], string[]]> = [
    ["", ["core", "main"], ["core_tool", "list_server_toolsets", "main_tool"]],
    ["extra", ["core", "extra", "main"], ["core_tool", "extra_tool", "list_server_toolsets", "main_tool"]],
    ["only=extra", ["core", "extra"], ["core_tool", "extra_tool", "list_server_toolsets"]],
    ["only=", ["core"], ["core_tool", "list_server_toolsets"]],
    ["without=main", ["core"], ["core_tool", "list_server_toolsets"]],
    ["without=core", ["core", "main"], ["core_tool", "list_server_toolsets", "main_tool"]],
    ["only=extra&without=core", ["core", "extra"], ["core_tool", "extra_tool", "list_server_toolsets"]],
  ];
  for (const [query, active, tools] of cases) {
    it(`serves ${JSON.stringify(active)} for ?${query}`, async () => {
      const { host } = await started(extensions());
      const built = await build(host, query);
      assert.deepEqual(built.toolsets, active);
      assert.deepEqual(built.toolNames, tools);
    });
  }
});

describe("an extension that declares no toolset", () => {
  it("gets a default toolset named after itself, holding its tools", async () => {
    const { host } = await started([
      { name: "solo", tools: [textTool("solo_tool")] },
      { name: "other", toolsets: [{ name: "other", default: false }], tools: [textTool("other_tool")] },
    ]);
    assert.deepEqual(host.declaredToolsets(), [
      { name: "other", default: false, always: false, extensions: ["other"] },
      { name: "solo", default: true, always: false, extensions: ["solo"] },
    ]);
    assert.deepEqual((await build(host, "")).toolNames, ["list_server_toolsets", "solo_tool"]);
    assert.deepEqual((await build(host, "only=other")).toolNames, ["list_server_toolsets", "other_tool"]);
    assert.deepEqual((await build(host, "only=solo")).toolNames, ["list_server_toolsets", "solo_tool"]);
  });
});

describe("a tool without a toolset", () => {
  it("goes into its extension's first declared toolset", async () => {
    const { host } = await started([
      {
        name: "multi",
        toolsets: [
          { name: "first", default: false },
          { name: "second", default: false },
        ],
        tools: [textTool("homeless"), textTool("placed", { toolset: "second" })],
        resources: [{ uri: "multi://home", name: "home", read: () => ({ contents: [{ uri: "multi://home", text: "home" }] }) }],
        prompts: [{ name: "home_prompt", get: () => ({ messages: [] }) }],
      },
    ]);
    assert.deepEqual(
      host.offeredTools().map((t) => [t.name, t.toolset]),
      [
        ["homeless", "first"],
        ["placed", "second"],
      ],
    );
    assert.deepEqual((await build(host, "only=first")).toolNames, ["homeless", "list_server_toolsets"]);
    assert.deepEqual((await build(host, "only=second")).toolNames, ["list_server_toolsets", "placed"]);
    const first = await connectInProcess(host, "only=first");
    const second = await connectInProcess(host, "only=second");
    try {
      assert.deepEqual(
        (await first.client.listResources()).resources.map((r) => r.uri),
        ["multi://home"],
      );
      assert.deepEqual(
        (await first.client.listPrompts()).prompts.map((p) => p.name),
        ["home_prompt"],
      );
      assert.deepEqual((await second.client.listResources()).resources, []);
      assert.deepEqual((await second.client.listPrompts()).prompts, []);
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });
});

describe("load order is sorted by extension name", () => {
  // Every place where order decides: the toolset's title, the winner of a same-toolset tool clash, and which
  // tool extension's description wins.
  const a = (): McpExtension => ({
    name: "a",
    toolsets: [{ name: "shared", title: "Shared by a" }],
    tools: [textTool("clash", {}, "from a"), textTool("a_only", { toolset: "shared" })],
    toolExtensions: [{ tool: "a_only", description: "described by a" }],
  });
  const b = (): McpExtension => ({
    name: "b",
    toolsets: [{ name: "shared", title: "Shared by b" }],
    tools: [textTool("clash", {}, "from b")],
    toolExtensions: [{ tool: "a_only", description: "described by b" }],
  });

  async function outcome(extensions: McpExtension[]) {
    const { host, records } = await started(extensions);
    const { client, close } = await connectInProcess(host, "");
    try {
      const tools = (await client.listTools()).tools.map((t) => ({ name: t.name, description: t.description }));
      return {
        declared: host.declaredToolsets(),
        offered: host.offeredTools(),
        tools,
        clash: await callOk(client, "clash"),
        describe: await host.describe(parseSelection("")),
        clashWarnings: logsWithCode(records, "TOOL_NAME_CLASH").map((r) => r.message),
      };
    } finally {
      await close();
    }
  }

  it("gives the same result whether [b, a] or [a, b] was passed", async () => {
    const ba = await outcome([b(), a()]);
    const ab = await outcome([a(), b()]);
    assert.deepEqual(ba, ab);
    assert.equal(ab.declared[0]!.title, "Shared by a");
    assert.equal(ab.clash, "from a");
    assert.deepEqual(ab.tools, [
      { name: "a_only", description: "described by b" },
      { name: "clash", description: undefined },
      { name: "list_server_toolsets", description: ab.tools[2]!.description },
    ]);
    assert.deepEqual(ab.clashWarnings, ['extensions "a" and "b" both contribute tool "clash" to toolset "shared"; "a" (first in load order) wins']);
  });
});
