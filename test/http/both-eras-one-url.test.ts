// Both protocol eras at one URL (docs/design.md §8, issue 3 part 1): the SDK v2 client in its default (2025 handshake),
// pinned (2026-07-28) and auto modes and the SDK v1 client all see the same tools for the same selection —
// whether it comes from the query or the X-MCP-Toolsets header — and can call them; /toolsets answers describe()
// for that selection; /healthz reports ok or degraded; strict mode refuses unknown names with 400.
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { McpExtension } from "../../src/extension/types.js";
import { Cleanup, callText, connectV1, connectV2, listedTools, raw, rawLegacyInitialize, serveHost, type ToolClient } from "../helpers/http-host.js";

const alpha: McpExtension = {
  name: "alpha",
  version: "1.0.0",
  toolsets: [{ name: "a", title: "Alpha", description: "Alpha tools" }],
  tools: [
    {
      name: "a_echo",
      inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
      handler: (args) => ({ content: [{ type: "text", text: `a:${String(args.text)}` }] }),
    },
  ],
};
const beta: McpExtension = {
  name: "beta",
  toolsets: [{ name: "b", default: false }],
  tools: [{ name: "b_ping", handler: () => ({ content: [{ type: "text", text: "pong" }] }) }],
};
const core: McpExtension = {
  name: "core",
  toolsets: [{ name: "core", always: true, default: false }],
  tools: [{ name: "core_info", handler: (_args, ctx) => ({ content: [{ type: "text", text: `${ctx.era}:${ctx.selection.active.join(",")}` }] }) }],
};
const broken: McpExtension = {
  name: "broken",
  toolsets: [{ name: "broken", default: false }],
  tools: [{ name: "never", handler: () => ({ content: [] }) }],
  setup: () => {
    throw new Error("the database is not there");
  },
};

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

type ClientKind = "v2 default (legacy)" | "v2 pinned 2026-07-28" | "v2 auto" | "v1";
const KINDS: ClientKind[] = ["v2 default (legacy)", "v2 pinned 2026-07-28", "v2 auto", "v1"];

async function connectKind(kind: ClientKind, url: URL, headers?: Record<string, string>): Promise<{ client: ToolClient; era: string }> {
  if (kind === "v1") {
    const { client, transport } = await connectV1(cleanup, url, headers ? { headers } : {});
    assert.match(transport.sessionId ?? "", /^[0-9a-f-]{36}$/, "a v1 client gets a legacy session");
    return { client, era: "legacy" };
  }
  const era = kind === "v2 default (legacy)" ? "legacy" : kind === "v2 auto" ? "auto" : "modern";
  const { client } = await connectV2(cleanup, url, era, headers ? { headers } : {});
  return { client, era: client.getProtocolEra() ?? "?" };
}

const SELECTIONS: Array<{ label: string; query: string; headers?: Record<string, string>; tools: string[]; active: string }> = [
  { label: "?only=a", query: "only=a", tools: ["a_echo", "core_info", "list_server_toolsets"], active: "a,core" },
  { label: "?a&b", query: "a&b", tools: ["a_echo", "b_ping", "core_info", "list_server_toolsets"], active: "a,b,core" },
  {
    label: "X-MCP-Toolsets: only=b",
    query: "",
    headers: { "X-MCP-Toolsets": "only=b" },
    tools: ["b_ping", "core_info", "list_server_toolsets"],
    active: "b,core",
  },
];

describe("both eras at one URL", { timeout: 30_000 }, () => {
  for (const selection of SELECTIONS) {
    it(`gives every client the same tools and working calls for ${selection.label}`, async () => {
      const { at } = await serveHost(cleanup, [alpha, beta, core]);
      const seen: Record<string, unknown> = {};
      for (const kind of KINDS) {
        const { client, era } = await connectKind(kind, at(selection.query), selection.headers);
        const expectedEra = kind === "v2 default (legacy)" || kind === "v1" ? "legacy" : "modern";
        assert.equal(era, expectedEra, `${kind} negotiated the ${expectedEra} era`);
        const tools = await listedTools(client);
        const calls = [await callText(client, "core_info")];
        if (tools.includes("a_echo")) calls.push(await callText(client, "a_echo", { text: "hi" }));
        if (tools.includes("b_ping")) calls.push(await callText(client, "b_ping"));
        seen[kind] = { tools, calls };
      }
      const calls = (era: string) => [
        `${era}:${selection.active}`,
        ...(selection.tools.includes("a_echo") ? ["a:hi"] : []),
        ...(selection.tools.includes("b_ping") ? ["pong"] : []),
      ];
      assert.deepEqual(seen, {
        "v2 default (legacy)": { tools: selection.tools, calls: calls("legacy") },
        "v2 pinned 2026-07-28": { tools: selection.tools, calls: calls("modern") },
        "v2 auto": { tools: selection.tools, calls: calls("modern") },
        v1: { tools: selection.tools, calls: calls("legacy") },
      });
    });
  }

  it("answers GET /toolsets with describe() of the same selection, from the query or the header", async () => {
    const { baseUrl } = await serveHost(cleanup, [alpha, beta, core]);
    const toolsets = (active: string[]) => [
      { name: "a", title: "Alpha", description: "Alpha tools", default: true, always: false, active: active.includes("a"), extensions: ["alpha"] },
      { name: "b", title: "b", default: false, always: false, active: active.includes("b"), extensions: ["beta"] },
      { name: "core", title: "core", default: false, always: true, active: true, extensions: ["core"] },
    ];
    const extensions = [
      { name: "alpha", version: "1.0.0", status: "ready" },
      { name: "beta", status: "ready" },
      { name: "core", status: "ready" },
    ];
    const onlyA = await raw({ url: new URL("/toolsets?only=a", baseUrl) });
    assert.equal(onlyA.status, 200);
    assert.match(String(onlyA.headers["content-type"]), /^application\/json/);
    assert.deepEqual(onlyA.json, {
      toolsets: toolsets(["a"]),
      active: ["a", "core"],
      tools: ["a_echo", "core_info", "list_server_toolsets"],
      unknown: [],
      extensions,
      unavailable: [],
    });
    const both = await raw({ url: new URL("/toolsets?a&b&nosuch", baseUrl) });
    assert.deepEqual(both.json, {
      toolsets: toolsets(["a", "b"]),
      active: ["a", "b", "core"],
      tools: ["a_echo", "b_ping", "core_info", "list_server_toolsets"],
      unknown: ["nosuch"],
      extensions,
      unavailable: [],
    });
    const byHeader = await raw({ url: new URL("/toolsets", baseUrl), headers: { "X-MCP-Toolsets": "only=b" } });
    assert.deepEqual(byHeader.json, {
      toolsets: toolsets(["b"]),
      active: ["b", "core"],
      tools: ["b_ping", "core_info", "list_server_toolsets"],
      unknown: [],
      extensions,
      unavailable: [],
    });
  });

  it("answers /healthz with ok while every extension is ready", async () => {
    const { baseUrl } = await serveHost(cleanup, [alpha, core]);
    const health = await raw({ url: new URL("/healthz", baseUrl) });
    assert.equal(health.status, 200);
    assert.deepEqual(health.json, { status: "ok", service: "test-host", extensions: { failed: [] }, upstreams: { unavailable: [] } });
  });

  it("answers /healthz with degraded (still 200) and the quarantined extension, and keeps serving the others", async () => {
    const { baseUrl, at } = await serveHost(cleanup, [alpha, broken, core]);
    const health = await raw({ url: new URL("/healthz", baseUrl) });
    assert.equal(health.status, 200);
    assert.deepEqual(health.json, {
      status: "degraded",
      service: "test-host",
      extensions: {
        failed: [
          { name: "broken", code: "EXTENSION_SETUP_FAILED", error: "[extension broken] setup threw; the extension is quarantined: the database is not there" },
        ],
      },
      upstreams: { unavailable: [] },
    });
    const { client } = await connectV2(cleanup, at("broken&a"), "modern");
    assert.deepEqual(await listedTools(client), ["a_echo", "core_info", "list_server_toolsets"]);
  });

  it("refuses unknown toolset names in strict mode with 400, -32602 and the declared toolsets, and serves known ones", async () => {
    const { at, baseUrl } = await serveHost(cleanup, [alpha, beta, core], { http: { selection: { strict: true } } });
    const refused = await rawLegacyInitialize(at("only=a,nosuch"));
    assert.equal(refused.status, 400);
    assert.deepEqual(refused.json, {
      jsonrpc: "2.0",
      id: null,
      error: {
        code: -32602,
        message:
          'unknown toolset "nosuch" in the selection; declared toolsets: "a", "b", "core". Use one of the declared names, or turn off selection.strict to serve unknown names with a warning.',
        data: { declared: ["a", "b", "core"] },
      },
    });
    const byHeader = await rawLegacyInitialize(at(""), { "X-MCP-Toolsets": "b,other" });
    assert.equal(byHeader.status, 400);
    assert.equal(byHeader.json.error.code, -32602);
    assert.match(byHeader.json.error.message, /^unknown toolset "other" in the selection/);
    const described = await raw({ url: new URL("/toolsets?nosuch", baseUrl) });
    assert.equal(described.status, 400);
    assert.equal(described.json.error.code, -32602);
    assert.deepEqual(described.json.error.data, { declared: ["a", "b", "core"] });
    await assert.rejects(connectV1(cleanup, at("nosuch")));
    const { client } = await connectV2(cleanup, at("only=a"), "modern");
    assert.deepEqual(await listedTools(client), ["a_echo", "core_info", "list_server_toolsets"]);
  });
});
