// A caller sees what it may reach, and nothing of the rest (issue 17 class 9, docs/design.md §9): with toolset
// permissions on, a narrow token's /toolsets, list_server_toolsets, operator-page data and /healthz name only the
// extensions and upstreams of toolsets it may reach — never another extension's error (which may say where its
// database lives) or another upstream's name. The family: every view, for a narrow token and a wide one.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import type { ExtensionContext, McpExtension } from "../../src/extension/types.js";
import { authTestFile, bearer } from "../helpers/auth-host.js";
import { connectV2, raw } from "../helpers/http-host.js";

const file = authTestFile();
const { cleanup } = file;

const SECRET_ERROR = "cannot reach the billing database at db-7.internal:5432";
const extensions: McpExtension[] = [
  { name: "notes", toolsets: [{ name: "notes" }], tools: [{ name: "read_note", handler: () => ({ content: [{ type: "text", text: "n" }] }) }] },
  {
    name: "billing",
    toolsets: [{ name: "billing", default: false }],
    tools: [{ name: "refund", handler: () => ({ content: [{ type: "text", text: "r" }] }) }],
    setup: () => {
      throw new Error(SECRET_ERROR);
    },
  },
  {
    name: "gateway-like",
    toolsets: [{ name: "payroll-upstream", default: false }],
    tools: [{ name: "pay", handler: () => ({ content: [{ type: "text", text: "p" }] }) }],
    setup: (ctx: ExtensionContext) =>
      ctx.reportUnavailable([{ server: "payroll-upstream", phase: "connect", code: "MCP_SERVER_UNREACHABLE", message: "payroll is down" }]),
  },
];

const NARROW = { sub: "reader", scope: "mcp:read" };
const WIDE = { sub: "root", scope: "mcp:read mcp:billing mcp:payroll" };

/** Everything of `text` that names the guarded toolsets' extensions or upstreams. */
function leaks(text: string): string[] {
  return ["billing", "db-7.internal", "payroll", "gateway-like"].filter((word) => text.includes(word));
}

describe("a narrow token's view", { timeout: 60_000 }, () => {
  it("names only the extensions and upstreams of toolsets it may reach, in every view", async () => {
    const served = await file.serve({
      extensions,
      auth: { toolsetScopes: { billing: ["mcp:billing"], "payroll-upstream": ["mcp:payroll"] } },
      http: { ui: { path: "/ops" } },
    });
    const views = async (token: string): Promise<Record<string, string>> => {
      const headers = bearer(token);
      const { client } = await connectV2(cleanup, served.url, "modern", { headers });
      const tool = await client.callTool({ name: "list_server_toolsets", arguments: {} });
      return {
        "/toolsets": (await raw({ url: new URL("/toolsets", served.baseUrl), headers })).text,
        "/healthz": (await raw({ url: new URL("/healthz", served.baseUrl), headers })).text,
        "operator overview": (await raw({ url: new URL("/ops/_ui/overview", served.baseUrl), headers })).text,
        "operator explorer": (await raw({ url: new URL("/ops/_ui/explore?q=", served.baseUrl), headers })).text,
        list_server_toolsets: JSON.stringify(tool.structuredContent),
      };
    };
    const narrow = await views(await served.token(NARROW));
    const leaked = Object.entries(narrow).flatMap(([view, text]) => leaks(text).map((word) => `${view}: ${word}`));
    assert.deepEqual(leaked, []);
    assert.equal(JSON.parse(narrow["/healthz"]!).status, "degraded", "the status is still the whole host's");
    assert.match(narrow["/toolsets"]!, /"notes"/);
    // A token that reaches them sees them all.
    const wide = await views(await served.token(WIDE));
    for (const view of ["/toolsets", "/healthz", "operator overview", "list_server_toolsets"]) {
      for (const word of ["billing", "db-7.internal", "payroll"]) assert.ok(wide[view]!.includes(word), `${view} shows ${word} to a wide token`);
    }
  });
});
