// Reading what a host offers without building a server (docs/design.md §7): declaredToolsets(), offeredTools()
// with tool extensions applied, activeFor(), instructionsFor(), and the exact JSON of describe().
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { McpExtension } from "../../src/extension/types.js";
import type { McpHost } from "../../src/host/host.js";
import { parseSelection } from "../../src/host/selection.js";
import { connectInProcess } from "../helpers/in-process.js";
import { build, startedHost, textTool } from "../helpers/kit.js";

let host: McpHost | undefined;
afterEach(async () => {
  await host?.stop().catch(() => {});
  host = undefined;
});

/** core (always), spaces (default), library (not default) and a quarantined extension. */
function deployment(): McpExtension[] {
  return [
    {
      name: "spaces",
      version: "1.2.0",
      toolsets: [{ name: "spaces", title: "Spaces", description: "Search spaces.", instructions: "Search before you create." }],
      tools: [textTool("search_spaces", { title: "Search Spaces", description: "Finds spaces." })],
    },
    { name: "core-ext", version: "2.0.0", toolsets: [{ name: "core", title: "Core", always: true, instructions: "Be brief." }], tools: [textTool("ping")] },
    { name: "library", toolsets: [{ name: "library", default: false }], tools: [textTool("find_book")] },
    {
      name: "broken",
      toolsets: [{ name: "broken", default: false, description: "Never works." }],
      tools: [textTool("broken_tool")],
      setup: () => {
        throw new Error("no database");
      },
    },
  ];
}

describe("declaredToolsets()", () => {
  it("lists every toolset sorted by name with its flags and extensions, a quarantined extension's included", async () => {
    ({ host } = await startedHost(deployment()));
    assert.deepEqual(host.declaredToolsets(), [
      { name: "broken", description: "Never works.", default: false, always: false, extensions: ["broken"] },
      { name: "core", title: "Core", instructions: "Be brief.", default: true, always: true, extensions: ["core-ext"] },
      { name: "library", default: false, always: false, extensions: ["library"] },
      {
        name: "spaces",
        title: "Spaces",
        description: "Search spaces.",
        instructions: "Search before you create.",
        default: true,
        always: false,
        extensions: ["spaces"],
      },
    ]);
  });
});

describe("offeredTools()", () => {
  it("lists the tools on offer with tool extensions applied, for all toolsets or the given ones", async () => {
    ({ host } = await startedHost([
      ...deployment(),
      { name: "zz-narrower", toolExtensions: [{ tool: "find_book", title: "Find a Book", description: "Finds one book by title." }] },
    ]));
    assert.deepEqual(host.offeredTools(), [
      { name: "find_book", toolset: "library", extension: "library", title: "Find a Book", description: "Finds one book by title." },
      { name: "ping", toolset: "core", extension: "core-ext" },
      { name: "search_spaces", toolset: "spaces", extension: "spaces", title: "Search Spaces", description: "Finds spaces." },
    ]);
    assert.deepEqual(
      host.offeredTools(["library", "core"]).map((t) => t.name),
      ["find_book", "ping"],
    );
    assert.deepEqual(host.offeredTools([]), []);
  });
});

describe("activeFor()", () => {
  it("resolves a selection against the declared toolsets without building", async () => {
    let onServerCalls = 0;
    ({ host } = await startedHost([
      ...deployment(),
      { name: "watcher", toolsets: [{ name: "watch", default: false }], onServer: () => void (onServerCalls += 1) },
    ]));
    assert.deepEqual(host.activeFor(parseSelection("")), { active: ["core", "spaces"], unknown: [] });
    assert.deepEqual(host.activeFor(parseSelection("library&nosuch")), { active: ["core", "library", "spaces"], unknown: ["nosuch"] });
    assert.deepEqual(host.activeFor(parseSelection("only=library&without=core")), { active: ["core", "library"], unknown: [] });
    assert.deepEqual(host.activeFor(parseSelection("watch")), { active: ["core", "spaces", "watch"], unknown: [] });
    assert.equal(onServerCalls, 0);
  });
});

describe("instructionsFor()", () => {
  const toolsets: McpExtension = {
    name: "docs",
    toolsets: [{ name: "zeta", title: "Zeta Tools", instructions: "  Use zeta last.  " }, { name: "alpha", instructions: "Use alpha first." }, { name: "mid" }],
    // Instructions reach a build only for toolsets it serves something of (issue 10 item 6).
    tools: [textTool("alpha_tool", { toolset: "alpha" }), textTool("zeta_tool", { toolset: "zeta" })],
  };

  it("puts the host's instructions first, then each active toolset's under its title or name, sorted by name", async () => {
    ({ host } = await startedHost([toolsets], { instructions: "You are a test host." }));
    assert.equal(host.instructionsFor(["zeta", "mid", "alpha"]), "You are a test host.\n\n## alpha\n\nUse alpha first.\n\n## Zeta Tools\n\nUse zeta last.");
    assert.equal(host.instructionsFor(["mid"]), "You are a test host.");
  });

  it("gives no instructions at all when neither the host nor an active toolset has any", async () => {
    ({ host } = await startedHost([toolsets]));
    assert.equal(host.instructionsFor(["mid"]), undefined);
    assert.equal(host.instructionsFor([]), undefined);
    assert.equal((await build(host, "only=mid")).instructions, undefined);
  });

  it("sends a toolset's instructions only to the selections that include it", async () => {
    ({ host } = await startedHost([toolsets], { instructions: "Host." }));
    for (const era of ["legacy", "modern"] as const) {
      const onlyAlpha = await connectInProcess(host, "only=alpha", { era });
      const all = await connectInProcess(host, "", { era });
      const none = await connectInProcess(host, "only=mid", { era });
      try {
        assert.equal(onlyAlpha.client.getInstructions(), "Host.\n\n## alpha\n\nUse alpha first.", era);
        assert.equal(all.client.getInstructions(), "Host.\n\n## alpha\n\nUse alpha first.\n\n## Zeta Tools\n\nUse zeta last.", era);
        assert.equal(none.client.getInstructions(), "Host.", era);
      } finally {
        await Promise.all([onlyAlpha.close(), all.close(), none.close()]);
      }
    }
  });
});

describe("describe()", () => {
  it("answers with the exact JSON of /toolsets: toolsets, active, tools, unknown, extensions, unavailable", async () => {
    ({ host } = await startedHost(deployment()));
    const answer = await host.describe(parseSelection("nosuch&without=library"));
    assert.deepEqual(answer, {
      toolsets: [
        { name: "broken", title: "broken", description: "Never works.", default: false, always: false, active: false, extensions: ["broken"] },
        { name: "core", title: "Core", default: true, always: true, active: true, extensions: ["core-ext"] },
        { name: "library", title: "library", default: false, always: false, active: false, extensions: ["library"] },
        { name: "spaces", title: "Spaces", description: "Search spaces.", default: true, always: false, active: true, extensions: ["spaces"] },
      ],
      active: ["core", "spaces"],
      tools: ["list_server_toolsets", "ping", "search_spaces"],
      unknown: ["nosuch"],
      extensions: [
        {
          name: "broken",
          status: "failed",
          error: "[extension broken] setup threw; the extension is quarantined: no database",
          code: "EXTENSION_SETUP_FAILED",
        },
        { name: "core-ext", version: "2.0.0", status: "ready" },
        { name: "library", status: "ready" },
        { name: "spaces", version: "1.2.0", status: "ready" },
      ],
      unavailable: [],
    });
  });

  it("reports the toolsets a selection turns on and the tools they give", async () => {
    ({ host } = await startedHost(deployment()));
    const answer = await host.describe(parseSelection("only=library"));
    assert.deepEqual(answer.active, ["core", "library"]);
    assert.deepEqual(answer.tools, ["find_book", "list_server_toolsets", "ping"]);
    assert.deepEqual(answer.unknown, []);
    assert.deepEqual(
      answer.toolsets.filter((t) => t.active).map((t) => t.name),
      ["core", "library"],
    );
  });
});
