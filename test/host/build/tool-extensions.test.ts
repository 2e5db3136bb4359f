// Tool extensions (docs/design.md §4 rule 7): applied in load order — the later title and description win, the last
// `wrap` is the outermost and runs first — and after extension it is still one tool. Extending a tool nobody
// offers does nothing. A tool extension that throws, or whose `wrap` returns a non-function, leaves that tool
// out (never served half-extended), logged as TOOL_EXTENSION_FAILED naming both extensions.
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { McpExtension, ToolExtension } from "../../../src/extension/types.js";
import type { McpHost } from "../../../src/host/host.js";
import type { LogRecord } from "../../../src/logger.js";
import { connectInProcess } from "../../helpers/in-process.js";
import { build, callOk, logsWithCode, startedHost, textTool } from "../../helpers/kit.js";

let host: McpHost | undefined;
let records: LogRecord[] = [];
afterEach(async () => {
  await host?.stop();
  host = undefined;
});

const bystander: McpExtension = { name: "bystander", tools: [textTool("bystander_tool")] };

function owner(calls: string[] = []): McpExtension {
  return {
    name: "owner",
    tools: [
      textTool("search", {
        description: "Searches.",
        annotations: { readOnlyHint: true },
        handler: () => {
          calls.push("handler");
          return { content: [{ type: "text", text: "found" }] };
        },
      }),
      textTool("browse"),
    ],
  };
}

function tracer(name: string, calls: string[], extra: Partial<ToolExtension> = {}): McpExtension {
  return {
    name,
    toolExtensions: [
      {
        tool: "search",
        description: `Searches, as ${name} says.`,
        wrap: (next) => async (args, ctx) => {
          calls.push(name);
          return next(args, ctx);
        },
        ...extra,
      },
    ],
  };
}

describe("tool extensions in load order", () => {
  it("lets the later description win and runs the last wrap first, and the tool stays one tool", async () => {
    const calls: string[] = [];
    // Passed out of order: load order is by name, so ext-b applies before ext-c.
    ({ host, records } = await startedHost([
      tracer("ext-c", calls, { annotations: { idempotentHint: true } }),
      owner(calls),
      tracer("ext-b", calls, { title: "Search (b)" }),
      bystander,
    ]));
    for (const era of ["legacy", "modern"] as const) {
      const { client, close } = await connectInProcess(host, "", { era });
      try {
        const tools = (await client.listTools()).tools;
        assert.deepEqual(
          tools.map((t) => t.name),
          ["browse", "bystander_tool", "list_server_toolsets", "search"],
        );
        const search = tools.find((t) => t.name === "search")!;
        assert.equal(search.description, "Searches, as ext-c says.");
        assert.equal(search.title, "Search (b)");
        assert.deepEqual(search.annotations, { readOnlyHint: true, idempotentHint: true });
        calls.length = 0;
        assert.equal(await callOk(client, "search"), "found");
        assert.deepEqual(calls, ["ext-c", "ext-b", "handler"]);
      } finally {
        await close();
      }
    }
    assert.deepEqual(
      host.offeredTools().filter((t) => t.name === "search"),
      [{ name: "search", toolset: "owner", extension: "owner", title: "Search (b)", description: "Searches, as ext-c says." }],
    );
    assert.deepEqual(logsWithCode(records, "TOOL_EXTENSION_FAILED"), []);
  });

  it("does nothing when it extends a tool nobody offers", async () => {
    const ghost: McpExtension = {
      name: "ghost",
      toolExtensions: [
        {
          tool: "nobody_offers_this",
          description: "never seen",
          wrap: () => {
            throw new Error("never applied");
          },
        },
      ],
    };
    ({ host, records } = await startedHost([ghost, owner(), bystander]));
    assert.deepEqual(
      host.offeredTools().map((t) => t.name),
      ["browse", "bystander_tool", "search"],
    );
    assert.deepEqual((await build(host, "")).toolNames, ["browse", "bystander_tool", "list_server_toolsets", "search"]);
    assert.deepEqual(logsWithCode(records, "TOOL_EXTENSION_FAILED"), []);
    assert.deepEqual(
      host.declaredToolsets().map((t) => t.name),
      ["bystander", "ghost", "owner"],
    );
  });
});

describe("a tool extension that fails", () => {
  const cases: Array<[string, ToolExtension["wrap"], string]> = [
    [
      "wrap throws",
      () => {
        throw new Error("cannot narrow");
      },
      "cannot narrow",
    ],
    ["wrap returns a non-function", (() => "not a handler") as unknown as ToolExtension["wrap"], "wrap() returned string, not a handler function"],
    ["wrap returns nothing", (() => undefined) as unknown as ToolExtension["wrap"], "wrap() returned undefined, not a handler function"],
  ];
  for (const [label, wrap, reason] of cases) {
    it(`leaves the tool out when ${label}, naming both extensions, while everything else serves`, async () => {
      const narrower: McpExtension = { name: "narrower", toolExtensions: [{ tool: "search", description: "narrowed", wrap: wrap! }] };
      ({ host, records } = await startedHost([owner(), narrower, bystander]));
      const { client, close } = await connectInProcess(host, "");
      try {
        assert.deepEqual(
          (await client.listTools()).tools.map((t) => t.name),
          ["browse", "bystander_tool", "list_server_toolsets"],
        );
        await assert.rejects(client.callTool({ name: "search", arguments: {} }), /Unknown tool "search"/);
        assert.equal(await callOk(client, "browse"), "browse ok");
        assert.equal(await callOk(client, "bystander_tool"), "bystander_tool ok");
      } finally {
        await close();
      }
      assert.deepEqual(
        logsWithCode(records, "TOOL_EXTENSION_FAILED").map((r) => ({ level: r.level, message: r.message, data: r.data })),
        [
          {
            level: "warn",
            message: `[extension narrower] tool extension of "search" (offered by extension "owner") failed, so the tool is left out: ${reason}`,
            data: { code: "TOOL_EXTENSION_FAILED", extension: "narrower", tool: "search", offeredBy: "owner" },
          },
        ],
      );
      assert.deepEqual(
        host.offeredTools().map((t) => t.name),
        ["browse", "bystander_tool"],
      );
    });
  }

  it("leaves the tool out even when an earlier tool extension of it succeeded", async () => {
    const calls: string[] = [];
    const failing: McpExtension = {
      name: "z-failing",
      toolExtensions: [
        {
          tool: "search",
          wrap: () => {
            throw new Error("late failure");
          },
        },
      ],
    };
    ({ host, records } = await startedHost([owner(calls), tracer("a-fine", calls), failing, bystander]));
    assert.deepEqual((await build(host, "")).toolNames, ["browse", "bystander_tool", "list_server_toolsets"]);
    assert.deepEqual(
      logsWithCode(records, "TOOL_EXTENSION_FAILED").map((r) => r.data?.extension),
      ["z-failing"],
    );
  });
});
