// `list_server_toolsets` (docs/design.md §7): added to every build, read-only and idempotent, answering describe()
// for the caller's own selection — its real `unknown` even when the build came from the cache — plus
// `how_to_select`; turned off by `toolsetsTool: false`; never shadowing an extension's tool of that name.
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { ExtensionContext, McpExtension } from "../../../src/extension/types.js";
import type { McpHost } from "../../../src/host/host.js";
import { parseSelection } from "../../../src/host/selection.js";
import { connectInProcess } from "../../helpers/in-process.js";
import { build, callOk, deferred, startedHost, textTool, toolNames } from "../../helpers/kit.js";
import { compiledOf } from "../../../src/host/built-server.js";

const HOW_TO_SELECT =
  "Reconnect with the toolset in the URL: ?name adds it, ?only=a,b asks for exactly those, ?without=name leaves one out, ?tools=x,y adds single tools, ?readonly keeps only read-only tools, ?search lists find_tools and call_tool instead.";

function extensions(): McpExtension[] {
  return [
    { name: "notebooks", toolsets: [{ name: "notebooks", title: "Notebooks" }], tools: [textTool("open_notebook")] },
    { name: "benchmarks", toolsets: [{ name: "benchmarks", default: false }], tools: [textTool("run_benchmark")] },
    { name: "geo", toolsets: [{ name: "geo", default: false }], tools: [textTool("locate")] },
  ];
}

let host: McpHost | undefined;
afterEach(async () => {
  await host?.stop();
  host = undefined;
});

for (const era of ["legacy", "modern"] as const) {
  describe(`list_server_toolsets (${era} era)`, () => {
    it("answers describe() of the caller's own selection, with its own unknown names, plus how_to_select", async () => {
      ({ host } = await startedHost(extensions()));
      const asked = await connectInProcess(host, "nosuch&benchmarks", { era });
      const plain = await connectInProcess(host, "benchmarks", { era });
      try {
        // Both connections share one cached build (same active set); only `unknown` differs.
        assert.equal(compiledOf(await build(host, "nosuch&benchmarks")), compiledOf(await build(host, "benchmarks")));
        const withUnknown = await asked.client.callTool({ name: "list_server_toolsets", arguments: {} });
        const expected = { ...(await host.describe(parseSelection("nosuch&benchmarks"))), how_to_select: HOW_TO_SELECT };
        assert.equal(withUnknown.isError, undefined);
        assert.deepEqual(withUnknown.structuredContent, expected);
        assert.deepEqual(JSON.parse((withUnknown.content as Array<{ text: string }>)[0]!.text), expected);
        assert.deepEqual(expected.unknown, ["nosuch"]);
        assert.deepEqual(expected.active, ["benchmarks", "notebooks"]);
        assert.deepEqual(expected.tools, ["list_server_toolsets", "open_notebook", "run_benchmark"]);
        assert.equal(expected.toolsets.find((t) => t.name === "geo")?.active, false);
        assert.equal(expected.toolsets.find((t) => t.name === "notebooks")?.title, "Notebooks");

        const without = await plain.client.callTool({ name: "list_server_toolsets", arguments: {} });
        assert.deepEqual((without.structuredContent as { unknown: string[] }).unknown, []);
      } finally {
        await Promise.all([asked.close(), plain.close()]);
      }
    });

    it("is listed as read-only, idempotent, not destructive and closed-world", async () => {
      ({ host } = await startedHost(extensions()));
      const { client, close } = await connectInProcess(host, "", { era });
      try {
        const tool = (await client.listTools()).tools.find((t) => t.name === "list_server_toolsets");
        assert.deepEqual(tool?.annotations, {
          title: "List Server Toolsets",
          readOnlyHint: true,
          idempotentHint: true,
          destructiveHint: false,
          openWorldHint: false,
        });
        assert.equal(tool?.title, "List Server Toolsets");
      } finally {
        await close();
      }
    });

    it("is present in every selection, even only= of one toolset and only= of none", async () => {
      ({ host } = await startedHost(extensions()));
      for (const [query, tools] of [
        ["only=geo", ["list_server_toolsets", "locate"]],
        ["only=", ["list_server_toolsets"]],
        ["", ["list_server_toolsets", "open_notebook"]],
      ] as const) {
        const { client, close } = await connectInProcess(host, query, { era });
        try {
          assert.deepEqual(await toolNames(client), tools, query);
        } finally {
          await close();
        }
      }
    });
  });
}

describe("list_server_toolsets: options and shadowing", () => {
  it("reports toolsets declared after its build was cached, as describe() does", async () => {
    const captured = deferred<ExtensionContext>();
    ({ host } = await startedHost([...extensions(), { name: "dyn", toolsets: [{ name: "dyn", default: false }], setup: (ctx) => captured.resolve(ctx) }]));
    const cached = await build(host, "benchmarks");
    (await captured.promise).addToolset({ name: "later", title: "Later", default: false });
    assert.equal(compiledOf(await build(host, "benchmarks")), compiledOf(cached)); // an unrelated change keeps the build
    const { client, close } = await connectInProcess(host, "benchmarks");
    try {
      const answer = await client.callTool({ name: "list_server_toolsets", arguments: {} });
      const { how_to_select, ...description } = answer.structuredContent as Record<string, unknown>;
      assert.equal(how_to_select, HOW_TO_SELECT);
      assert.deepEqual(description, await host.describe(parseSelection("benchmarks")));
      assert.deepEqual(
        (description.toolsets as Array<{ name: string }>).map((t) => t.name),
        ["benchmarks", "dyn", "geo", "later", "notebooks"],
      );
    } finally {
      await close();
    }
  });

  it("is left out of every build when toolsetsTool is false", async () => {
    ({ host } = await startedHost(extensions(), { toolsetsTool: false }));
    assert.deepEqual((await build(host, "")).toolNames, ["open_notebook"]);
    assert.deepEqual((await build(host, "only=geo")).toolNames, ["locate"]);
    assert.deepEqual((await host.describe(parseSelection(""))).tools, ["open_notebook"]);
  });

  it("never shadows an extension's own tool of that name", async () => {
    ({ host } = await startedHost([
      ...extensions(),
      {
        name: "imposter",
        toolsets: [{ name: "imposter", default: false }],
        tools: [textTool("list_server_toolsets", { description: "mine" }, "the extension's own answer")],
      },
    ]));
    const { client, close } = await connectInProcess(host, "imposter");
    try {
      const listed = (await client.listTools()).tools.filter((t) => t.name === "list_server_toolsets");
      assert.deepEqual(
        listed.map((t) => t.description),
        ["mine"],
      );
      assert.equal(await callOk(client, "list_server_toolsets"), "the extension's own answer");
    } finally {
      await close();
    }
    // A selection without that extension gets the host's own again.
    assert.deepEqual((await build(host, "only=geo")).toolNames, ["list_server_toolsets", "locate"]);
    const { client: other, close: closeOther } = await connectInProcess(host, "only=geo");
    try {
      const answer = await other.callTool({ name: "list_server_toolsets", arguments: {} });
      assert.deepEqual((answer.structuredContent as { active: string[] }).active, ["geo"]);
    } finally {
      await closeOther();
    }
  });
});
