// What the selection's keywords and modifiers serve (docs/design.md §6, the modifiers table; §7, the build key): `all`,
// `default`, `readonly` (fail closed), `tools=` (on top of or instead of toolsets), and which selections share a build.
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { isMcpHostError } from "../../src/errors.js";
import type { ExtensionContext, McpExtension } from "../../src/extension/types.js";
import { compiledOf } from "../../src/host/built-server.js";
import type { McpHost } from "../../src/host/host.js";
import { parseSelection } from "../../src/host/selection.js";
import { validateExtension } from "../../src/extension/validate.js";
import { connectInProcess } from "../helpers/in-process.js";
import { build, startedHost, textTool, toolNames } from "../helpers/kit.js";
import { selectionExtensions } from "../helpers/selection-kit.js";

let host: McpHost | undefined;
afterEach(async () => {
  await host?.stop();
  host = undefined;
});

describe("the docs/design.md §6 modifiers table", () => {
  const rows: Array<[query: string, active: string[], tools: string[], unknown: string[]]> = [
    [
      "all",
      ["benchmarks", "core", "library", "spaces"],
      ["burn_book", "create_space", "get_book", "get_result", "lend_book", "list_server_toolsets", "ping", "run_benchmark", "search_spaces"],
      [],
    ],
    [
      "toolsets=default,library",
      ["core", "library", "spaces"],
      ["burn_book", "create_space", "get_book", "lend_book", "list_server_toolsets", "ping", "search_spaces"],
      [],
    ],
    ["only=default", ["core", "spaces"], ["create_space", "list_server_toolsets", "ping", "search_spaces"], []],
    ["readonly", ["core", "spaces"], ["list_server_toolsets", "ping", "search_spaces"], []],
    ["library&readonly", ["core", "library", "spaces"], ["get_book", "list_server_toolsets", "ping", "search_spaces"], []],
    ["library,readonly", ["core", "library", "spaces"], ["get_book", "list_server_toolsets", "ping", "search_spaces"], []],
    ["benchmarks&readonly", ["benchmarks", "core", "spaces"], ["get_result", "list_server_toolsets", "ping", "search_spaces"], []],
    ["readonly=0", ["core", "spaces"], ["create_space", "list_server_toolsets", "ping", "search_spaces"], []],
    ["tools=get_book", ["core"], ["get_book", "list_server_toolsets", "ping"], []],
    ["tools=get_book&toolsets=default", ["core", "spaces"], ["create_space", "get_book", "list_server_toolsets", "ping", "search_spaces"], []],
    [
      "benchmarks&tools=get_book,library.lend_book",
      ["benchmarks", "core", "spaces"],
      ["create_space", "get_book", "get_result", "lend_book", "list_server_toolsets", "ping", "run_benchmark", "search_spaces"],
      [],
    ],
    ["tools=get_book,lend_book&readonly", ["core"], ["get_book", "list_server_toolsets", "ping"], []],
    ["tools=get_bok", ["core"], ["list_server_toolsets", "ping"], ["tools=get_bok"]],
    ["tools=all", ["core"], ["list_server_toolsets", "ping"], ["tools=all"]],
    ["search", ["core", "spaces"], ["call_tool", "find_tools"], []],
    ["all&readonly&search", ["benchmarks", "core", "library", "spaces"], ["call_tool", "find_tools"], []],
    ["without=readonly", ["core", "spaces"], ["create_space", "list_server_toolsets", "ping", "search_spaces"], ["readonly"]],
  ];
  for (const [query, active, tools, unknown] of rows) {
    it(`?${query} → ${active.join(", ")}; tools ${tools.join(", ")}; unknown ${unknown.join(", ") || "none"}`, async () => {
      ({ host } = await startedHost(selectionExtensions()));
      const built = await build(host, query);
      assert.deepEqual({ active: [...built.toolsets], tools: [...built.toolNames], unknown: [...built.unknown] }, { active, tools, unknown });
      assert.deepEqual(host.activeFor(parseSelection(query)), { active, unknown });
    });
  }
});

describe("readonly fails closed", () => {
  it("leaves out a tool without the annotation, one with readOnlyHint false and a destructive one; keeps resources and prompts", async () => {
    ({ host } = await startedHost(selectionExtensions()));
    const { client, close } = await connectInProcess(host, "only=library,benchmarks&readonly");
    try {
      assert.deepEqual(await toolNames(client), ["get_book", "get_result", "list_server_toolsets", "ping"]);
      assert.deepEqual(
        (await client.listResources()).resources.map((r) => r.uri),
        ["library://rules"],
      );
      assert.deepEqual(
        (await client.listPrompts()).prompts.map((p) => p.name),
        ["recommend"],
      );
      // A tool left out is not callable either: the build holds only what it lists.
      await assert.rejects(client.callTool({ name: "lend_book", arguments: { id: "1" } }), /Unknown tool "lend_book"/);
    } finally {
      await close();
    }
  });

  it("reads the annotation after tool extensions: one that marks a tool read-only serves it, one that unmarks it hides it", async () => {
    const marker: McpExtension = {
      name: "zz-marker",
      toolsets: [{ name: "marker", default: false }],
      toolExtensions: [
        { tool: "run_benchmark", annotations: { readOnlyHint: true } },
        { tool: "get_result", annotations: { readOnlyHint: false } },
      ],
    };
    ({ host } = await startedHost([...selectionExtensions(), marker]));
    assert.deepEqual([...(await build(host, "only=benchmarks&readonly")).toolNames], ["list_server_toolsets", "ping", "run_benchmark"]);
  });

  it("reads the annotation after onServer: a hook that drops the annotation hides the tool", async () => {
    const hook: McpExtension = {
      name: "zz-hook",
      toolsets: [{ name: "benchmarks", default: false }],
      onServer: (draft) => {
        draft.updateTool("get_result", { annotations: {} });
      },
    };
    ({ host } = await startedHost([...selectionExtensions(), hook]));
    assert.deepEqual([...(await build(host, "only=benchmarks&readonly")).toolNames], ["list_server_toolsets", "ping"]);
  });
});

describe("tools= adds single tools", () => {
  it("brings the tool alone: not its toolset's resources, prompts or instructions", async () => {
    ({ host } = await startedHost(selectionExtensions()));
    const built = await build(host, "tools=get_book");
    assert.equal(built.instructions, undefined);
    const { client, close } = await connectInProcess(host, "tools=get_book");
    try {
      assert.deepEqual((await client.listResources()).resources, []);
      assert.deepEqual((await client.listPrompts()).prompts, []);
      const result = await client.callTool({ name: "get_book", arguments: { id: "b1" } });
      assert.deepEqual(result.content, [{ type: "text", text: 'get_book {"id":"b1"}' }]);
    } finally {
      await close();
    }
  });

  it("adds every toolset's tool of a raw name (qualified on the clash), and one toolset's with a qualified name", async () => {
    const other: McpExtension = { name: "archive", toolsets: [{ name: "archive", default: false }], tools: [textTool("get_book")] };
    ({ host } = await startedHost([...selectionExtensions(), other]));
    assert.deepEqual([...(await build(host, "tools=get_book")).toolNames], ["archive__get_book", "library__get_book", "list_server_toolsets", "ping"]);
    for (const query of ["tools=archive__get_book", "tools=archive.get_book"])
      assert.deepEqual([...(await build(host, query)).toolNames], ["get_book", "list_server_toolsets", "ping"], query);
  });

  it("reaches only toolsets the caller may reach: a tool of another is left out, and unknown like one nobody offers", async () => {
    ({ host } = await startedHost(selectionExtensions()));
    const built = await host.build(parseSelection("tools=get_book,get_result,get_bok"), { permitted: ["core", "benchmarks"] });
    assert.deepEqual([...built.toolNames], ["get_result", "list_server_toolsets", "ping"]);
    assert.deepEqual([...built.unknown], ["tools=get_bok", "tools=get_book"]);
  });

  it("wakes the dormant extension that offers the tool", async () => {
    const setups: string[] = [];
    const dormant: McpExtension = {
      name: "sleepy",
      activation: "onToolset",
      toolsets: [{ name: "sleepy", default: false }],
      tools: [textTool("nap")],
      setup: () => {
        setups.push("sleepy");
      },
    };
    ({ host } = await startedHost([...selectionExtensions(), dormant]));
    assert.deepEqual(setups, []);
    assert.deepEqual([...(await build(host, "tools=nap")).toolNames], ["list_server_toolsets", "nap", "ping"]);
    assert.deepEqual(setups, ["sleepy"]);
  });

  it("drops the build that picks a tool when that tool's toolset changes its offer", async () => {
    let ctx: ExtensionContext | undefined;
    const live: McpExtension = {
      name: "live",
      toolsets: [{ name: "live", default: false }],
      tools: [textTool("first")],
      setup: (c) => {
        ctx = c;
      },
    };
    ({ host } = await startedHost([...selectionExtensions(), live]));
    const before = compiledOf(await build(host, "tools=first"));
    ctx!.addTool(textTool("second", { toolset: "live" }));
    const after = compiledOf(await build(host, "tools=first"));
    assert.notEqual(after, before);
    assert.deepEqual([...after.toolNames], ["first", "list_server_toolsets", "ping"]);
  });
});

describe("which selections share a build (docs/design.md §7)", () => {
  it("shares one build for the same toolsets and modifiers, in any order or spelling", async () => {
    ({ host } = await startedHost(selectionExtensions()));
    const groups = [
      ["readonly&only=library", "only=library&readonly", "only=library,readonly", "only=readonly,library&readonly=1"],
      ["only=library", "only=library&tools=get_book", "only=library&tools=library.lend_book", "only=library&readonly=0"],
      ["search&library", "library&search", "toolsets=library,search"],
      ["tools=get_book,lend_book", "tools=lend_book&tools=get_book", "tools=library__get_book,library.lend_book"],
    ];
    const keys: string[] = [];
    for (const group of groups) {
      const builds = await Promise.all(group.map((query) => build(host!, query)));
      for (const built of builds.slice(1)) assert.equal(compiledOf(built), compiledOf(builds[0]!), `${group[0]} and ${group.join(" / ")}`);
      keys.push(builds[0]!.key);
    }
    assert.deepEqual(keys, ["core,library&readonly", "core,library", "core,library,spaces&search", "core&tools=library:get_book,library:lend_book"]);
  });

  it("builds apart what differs in a modifier", async () => {
    ({ host } = await startedHost(selectionExtensions()));
    const builds = await Promise.all(["only=library", "only=library&readonly", "only=library&search", "only=library&search=0"].map((q) => build(host!, q)));
    assert.equal(new Set(builds.map((b) => compiledOf(b))).size, 4);
    assert.deepEqual(
      builds.map((b) => b.key),
      ["core,library", "core,library&readonly", "core,library&search", "core,library&search=0"],
    );
    // Every build's list is still just its toolsets.
    for (const built of builds) assert.deepEqual([...built.toolsets], ["core", "library"]);
  });
});

describe("describe() shows the modifiers", () => {
  it("reports readonly, the single tools and search mode, and nothing for a plain selection", async () => {
    ({ host } = await startedHost(selectionExtensions()));
    assert.equal("modifiers" in (await host.describe(parseSelection("library"))), false);
    const described = await host.describe(parseSelection("readonly&tools=get_book,nosuch&search"));
    assert.deepEqual(described.modifiers, { readonly: true, tools: ["library.get_book"], search: true, searchable: 3 });
    assert.deepEqual(described.tools, ["call_tool", "find_tools"]);
    assert.deepEqual(described.unknown, ["tools=nosuch"]);
    assert.deepEqual((await host.describe(parseSelection("readonly"))).modifiers, { readonly: true, tools: [], search: false });
  });
});

describe("keywords are not toolset names (docs/design.md §4 rule 15)", () => {
  for (const name of ["all", "default", "readonly", "search", "tools"]) {
    it(`refuses a toolset named ${name}, and an extension named ${name} that declares none`, () => {
      for (const extension of [
        { name: "x", toolsets: [{ name }] },
        { name, tools: [textTool("t")] },
      ]) {
        assert.throws(
          () => validateExtension(extension, "test"),
          (error: unknown) =>
            isMcpHostError(error, "EXTENSION_INVALID") && error.message.includes(`toolset name "${name}" is a reserved word of the URL selection grammar`),
        );
      }
    });
  }

  it("reaches a tool named like a keyword with tools=, and never by the keyword alone", async () => {
    const odd: McpExtension = {
      name: "odd",
      toolsets: [{ name: "odd", default: false }],
      tools: [textTool("readonly", { annotations: { readOnlyHint: false } }), textTool("all"), textTool("search")],
    };
    ({ host } = await startedHost([...selectionExtensions(), odd]));
    assert.deepEqual([...(await build(host, "tools=readonly,all,search")).toolNames], ["all", "list_server_toolsets", "ping", "readonly", "search"]);
    assert.deepEqual([...(await build(host, "readonly&all")).toolNames].includes("readonly"), false);
    assert.deepEqual([...(await build(host, "search&only=odd")).toolNames], ["call_tool", "find_tools"]);
  });
});
