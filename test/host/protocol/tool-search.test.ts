// Tool-search mode (docs/design.md §7): the client lists exactly find_tools and call_tool; find_tools returns the
// best matches with full schemas and annotations, deterministically; call_tool takes the very path of a direct call —
// its validation, its unknown-tool error, the tool limits, the observer's view (the real tool) — in both eras.
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { McpExtension } from "../../../src/extension/types.js";
import type { McpHost } from "../../../src/host/host.js";
import type { HostObserver, ObservedEnd, ObservedRequest } from "../../../src/host/observer.js";
import { parseSelection } from "../../../src/host/selection.js";
import { connectInProcess } from "../../helpers/in-process.js";
import { gatedExtension } from "../../helpers/gated-tool.js";
import { build, startedHost, textTool, toolNames } from "../../helpers/kit.js";
import { BOOK_ID, selectionExtensions } from "../../helpers/selection-kit.js";

let host: McpHost | undefined;
afterEach(async () => {
  await host?.stop();
  host = undefined;
});

type Match = { name: string; toolset?: string; inputSchema: unknown; annotations?: unknown; description?: string };

async function find(client: { callTool: (p: { name: string; arguments: Record<string, unknown> }) => Promise<unknown> }, args: Record<string, unknown>) {
  const result = (await client.callTool({ name: "find_tools", arguments: args })) as {
    structuredContent?: { tools: Match[]; searched: number };
    isError?: boolean;
  };
  assert.notEqual(result.isError, true, JSON.stringify(result));
  return result.structuredContent!;
}

/** Whatever a call settled to: its result, or the protocol error's code and message. */
async function settled(promise: Promise<unknown>): Promise<unknown> {
  try {
    const { _meta: _ignored, ...result } = (await promise) as Record<string, unknown>;
    return result;
  } catch (error) {
    return { code: (error as { code?: number }).code, message: (error as Error).message };
  }
}

for (const era of ["legacy", "modern"] as const) {
  describe(`tool-search mode (${era} era)`, () => {
    it("lists exactly call_tool and find_tools, with stable descriptions and schemas", async () => {
      ({ host } = await startedHost(selectionExtensions()));
      const { client, close } = await connectInProcess(host, "all&search", { era });
      try {
        const { tools } = await client.listTools();
        assert.deepEqual(
          tools.map((t) => [t.name, t.inputSchema.required]),
          [
            ["call_tool", ["name"]],
            ["find_tools", ["query"]],
          ],
        );
        assert.match(tools[1]!.description!, /^Searches the 9 tools of this server for the ones that fit a task/);
        assert.deepEqual(tools[0]!.annotations, { title: "Call Tool", readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true });
        assert.equal(tools[1]!.annotations?.readOnlyHint, true);
      } finally {
        await close();
      }
    });

    it("finds tools with their full input schemas and annotations, the same list every time", async () => {
      ({ host } = await startedHost(selectionExtensions()));
      const { client, close } = await connectInProcess(host, "all&search", { era });
      try {
        const answer = await find(client, { query: "lend a book to a reader", limit: 2 });
        assert.equal(answer.searched, 9);
        assert.deepEqual(answer.tools[0], {
          name: "lend_book",
          description: "Lends a book to a reader",
          toolset: "library",
          inputSchema: BOOK_ID,
          annotations: { readOnlyHint: false },
        });
        assert.equal(answer.tools.length, 2);
        assert.deepEqual(await find(client, { query: "lend a book to a reader", limit: 2 }), answer);
        assert.equal((await find(client, { query: "book" })).tools.length, 3);
        assert.deepEqual((await find(client, { query: "zebra crossing" })).tools, []);
      } finally {
        await close();
      }
    });

    it("calls the tool find_tools named, with the result a direct call gives", async () => {
      ({ host } = await startedHost(selectionExtensions()));
      const search = await connectInProcess(host, "all&search", { era });
      const plain = await connectInProcess(host, "all", { era });
      try {
        const through = await settled(search.client.callTool({ name: "call_tool", arguments: { name: "get_book", arguments: { id: "b7" } } }));
        assert.deepEqual(through, { content: [{ type: "text", text: 'get_book {"id":"b7"}' }] });
        assert.deepEqual(through, await settled(plain.client.callTool({ name: "get_book", arguments: { id: "b7" } })));
        // A model that remembers a name may call it directly: the tool is still routed.
        assert.deepEqual(await settled(search.client.callTool({ name: "get_book", arguments: { id: "b7" } })), through);
      } finally {
        await search.close();
        await plain.close();
      }
    });

    it("gives invalid arguments the same isError as a direct call, and checks call_tool's own arguments", async () => {
      ({ host } = await startedHost(selectionExtensions()));
      const search = await connectInProcess(host, "all&search", { era });
      const plain = await connectInProcess(host, "all", { era });
      try {
        for (const bad of [{}, { id: 7 }, { id: "b7", extra: true }]) {
          const direct = await settled(plain.client.callTool({ name: "get_book", arguments: bad }));
          assert.equal((direct as { isError?: boolean }).isError, true);
          assert.deepEqual(await settled(search.client.callTool({ name: "call_tool", arguments: { name: "get_book", arguments: bad } })), direct);
        }
        for (const [args, problem] of [
          [{}, '"name" must be a non-empty string'],
          [{ name: "" }, '"name" must be a non-empty string'],
          [{ name: "get_book", arguments: [1] }, '"arguments" must be an object'],
          [{ name: "get_book", args: {} }, 'must NOT have additional property "args"'],
        ] as const) {
          const result = (await settled(search.client.callTool({ name: "call_tool", arguments: args as Record<string, unknown> }))) as {
            isError?: boolean;
            content: Array<{ text: string }>;
          };
          assert.equal(result.isError, true, JSON.stringify(args));
          assert.ok(result.content[0]!.text.startsWith(`Invalid arguments for tool "call_tool": ${problem}`), result.content[0]!.text);
        }
      } finally {
        await search.close();
        await plain.close();
      }
    });

    it("fails a tool outside the selection exactly like a direct call of an unknown tool", async () => {
      ({ host } = await startedHost(selectionExtensions()));
      const search = await connectInProcess(host, "only=spaces&search", { era });
      const plain = await connectInProcess(host, "only=spaces", { era });
      try {
        for (const name of ["get_book", "library__get_book", "library.get_book", "nosuch", "call_tool", "find_tools"]) {
          const direct = await settled(plain.client.callTool({ name, arguments: {} }));
          assert.equal((direct as { code?: number }).code, -32602, name);
          assert.deepEqual(await settled(search.client.callTool({ name: "call_tool", arguments: { name, arguments: {} } })), direct, name);
        }
      } finally {
        await search.close();
        await plain.close();
      }
    });
  });
}

describe("tool-search mode: the same path as a direct call", () => {
  it("tells the observer of the real tool: its name, toolset, extension and arguments, via call_tool", async () => {
    const seen: Array<{ request: ObservedRequest; end?: ObservedEnd }> = [];
    const observer: HostObserver = {
      request: (request) => {
        const entry: { request: ObservedRequest; end?: ObservedEnd } = { request };
        seen.push(entry);
        return { run: (work) => work(), end: (end) => (entry.end = end) };
      },
    };
    ({ host } = await startedHost(selectionExtensions(), { observer }));
    const { client, close } = await connectInProcess(host, "all&search");
    try {
      await client.callTool({ name: "call_tool", arguments: { name: "lend_book", arguments: { id: "b1" } } });
      await client.callTool({ name: "call_tool", arguments: { name: "lend_book", arguments: {} } });
      await client.callTool({ name: "call_tool", arguments: { name: "nosuch" } }).catch(() => {});
      const calls = seen.filter((s) => s.request.method === "tools/call");
      assert.deepEqual(
        calls.map((c) => [c.request.via, c.request.toolName, c.request.tool?.toolset, c.request.tool?.extension, c.request.arguments, c.end?.outcome]),
        [
          ["call_tool", "lend_book", "library", "workspace", { id: "b1" }, "ok"],
          ["call_tool", "lend_book", "library", "workspace", {}, "refused"],
          ["call_tool", "nosuch", undefined, undefined, undefined, "refused"],
        ],
      );
    } finally {
      await close();
    }
  });

  it("counts a call through call_tool against the real tool's limit, shared with direct calls", async () => {
    const gated = gatedExtension();
    ({ host } = await startedHost([gated.extension], { toolLimits: { maxConcurrent: 1, queueMs: 0 } }));
    const { client, close } = await connectInProcess(host, "search");
    try {
      const first = client.callTool({ name: "call_tool", arguments: { name: "wait" } });
      await gated.started(1);
      for (const second of [client.callTool({ name: "wait", arguments: {} }), client.callTool({ name: "call_tool", arguments: { name: "wait" } })]) {
        const refused = (await second) as { isError?: boolean; content: Array<{ text: string }> };
        assert.equal(refused.isError, true);
        assert.match(refused.content[0]!.text, /wait/);
      }
      gated.releaseAll();
      assert.deepEqual((await first).content, [{ type: "text", text: "done" }]);
    } finally {
      gated.releaseAll();
      await close();
    }
  });

  it("keeps the host's two names first: an extension's find_tools is reached through call_tool", async () => {
    const clash: McpExtension = {
      name: "clash",
      toolsets: [{ name: "clash" }],
      tools: [textTool("find_tools", {}, "the extension's own"), textTool("call_tool", {}, "theirs")],
    };
    ({ host } = await startedHost([clash]));
    const { client, close } = await connectInProcess(host, "search");
    try {
      assert.deepEqual(await toolNames(client), ["call_tool", "find_tools"]);
      const own = await client.callTool({ name: "call_tool", arguments: { name: "find_tools" } });
      assert.deepEqual(own.content, [{ type: "text", text: "the extension's own" }]);
      const theirs = await client.callTool({ name: "call_tool", arguments: { name: "call_tool" } });
      assert.deepEqual(theirs.content, [{ type: "text", text: "theirs" }]);
      const found = await client.callTool({ name: "find_tools", arguments: { query: "find tools" } });
      assert.deepEqual(
        (found.structuredContent as { tools: Match[] }).tools.map((t) => t.name),
        ["find_tools"],
      );
    } finally {
      await close();
    }
  });

  it("refuses a query that is empty or too long and a limit out of range, as invalid arguments", async () => {
    ({ host } = await startedHost(selectionExtensions()));
    const { client, close } = await connectInProcess(host, "search");
    try {
      for (const args of [
        {},
        { query: "  " },
        { query: "x".repeat(1001) },
        { query: "book", limit: 0 },
        { query: "book", limit: 26 },
        { query: "book", limit: 1.5 },
      ]) {
        const result = await client.callTool({ name: "find_tools", arguments: args });
        assert.equal(result.isError, true, JSON.stringify(args));
        assert.match((result.content as Array<{ text: string }>)[0]!.text, /^Invalid arguments for tool "find_tools": /);
      }
    } finally {
      await close();
    }
  });
});

describe("tool-search mode by the deployment (searchAbove)", () => {
  it("turns search on for a selection with more tools than searchAbove; search=0 opts out, ?search turns it on below", async () => {
    ({ host } = await startedHost(selectionExtensions(), { searchAbove: 4 }));
    assert.deepEqual([...(await build(host, "")).toolNames], ["create_space", "list_server_toolsets", "ping", "search_spaces"]);
    assert.deepEqual([...(await build(host, "library")).toolNames], ["call_tool", "find_tools"]);
    assert.equal((await build(host, "library&search=0")).toolNames.length, 7);
    assert.deepEqual([...(await build(host, "search")).toolNames], ["call_tool", "find_tools"]);
    assert.deepEqual((await host.describe(parseSelection("library"))).modifiers, { readonly: false, tools: [], search: true, searchable: 7 });
  });

  it("shares the index with the build: a second connection's search reads the same one", async () => {
    ({ host } = await startedHost(selectionExtensions()));
    const a = await connectInProcess(host, "all&search");
    const b = await connectInProcess(host, "all&search", { era: "modern" });
    try {
      assert.deepEqual(await find(a.client, { query: "benchmark results" }), await find(b.client, { query: "benchmark results" }));
    } finally {
      await a.close();
      await b.close();
    }
  });
});
