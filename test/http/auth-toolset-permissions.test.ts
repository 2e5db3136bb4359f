// Toolset permissions (docs/design.md §9; issue 9 item 5) with `toolsetScopes: { admin: ["mcp:admin"] }`: a toolset the
// token's scopes do not cover leaves the active set (its tools, instructions and toolset entry with it); a
// selection that names one gets 403 insufficient_scope naming the scopes it needs — or, with
// onInsufficientScope "omit", is served without it; a call to a tool outside the caller's active set is an
// unknown tool whatever the URL asks; and list_server_toolsets and /toolsets describe what this caller may reach.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { ProtocolError } from "@modelcontextprotocol/client";
import { ToolsetPermissions } from "../../src/http/auth/toolset-permissions.js";
import { authTestFile, bearer } from "../helpers/auth-host.js";
import { connectV2, LEGACY_POST_HEADERS, legacyInitialize, listedTools, raw, type V2Era, modernBody, modernHeaders } from "../helpers/http-host.js";

const file = authTestFile();
const { cleanup } = file;

const READER = { sub: "reader", scope: "mcp:read" };
const ADMIN = { sub: "root", scope: "mcp:read mcp:admin" };

async function toolsetsAnswer(client: { callTool(p: { name: string; arguments: Record<string, unknown> }): Promise<unknown> }) {
  const result = (await client.callTool({ name: "list_server_toolsets", arguments: {} })) as { structuredContent: Record<string, unknown> };
  const { toolsets, active, tools } = result.structuredContent as { toolsets: Array<{ name: string }>; active: string[]; tools: string[] };
  return { toolsets: toolsets.map((t) => t.name), active, tools };
}

describe("ToolsetPermissions", () => {
  it("lets a token reach a toolset only with every scope it lists; unlisted toolsets are open", () => {
    const permissions = new ToolsetPermissions({ admin: ["mcp:admin"], billing: ["mcp:billing", "mcp:admin"] });
    assert.deepEqual(permissions.permitted(["admin", "billing", "notes"], ["mcp:read"]), ["notes"]);
    assert.deepEqual(permissions.permitted(["admin", "billing", "notes"], ["mcp:admin"]), ["admin", "notes"]);
    assert.deepEqual(permissions.permitted(["admin", "billing", "notes"], ["mcp:billing", "mcp:admin"]), ["admin", "billing", "notes"]);
    assert.deepEqual(permissions.scopesFor(["notes", "billing", "admin"]), ["mcp:billing", "mcp:admin"]);
    assert.deepEqual(permissions.guardedToolsets, ["admin", "billing"]);
    assert.equal(new ToolsetPermissions().guarded, false);
  });

  it("refuses scope lists that cannot work, naming the key", () => {
    assert.throws(() => new ToolsetPermissions({ admin: [] }), {
      code: "AUTH_CONFIG_INVALID",
      message: "auth.toolsetScopes.admin must be a non-empty list of scope names (no spaces, quotes or backslashes)",
    });
    assert.throws(() => new ToolsetPermissions({ admin: ["two words"] }), { code: "AUTH_CONFIG_INVALID" });
    assert.throws(() => new ToolsetPermissions(["admin"] as never), { code: "AUTH_CONFIG_INVALID" });
  });
});

describe("toolset permissions on a served host", { timeout: 60_000 }, () => {
  for (const era of ["legacy", "modern"] as const satisfies readonly V2Era[]) {
    it(`leaves a toolset the token does not reach out of the default selection, its tools, instructions and description (${era})`, async () => {
      const served = await file.serve();
      const reader = await connectV2(cleanup, served.url, era, { headers: bearer(await served.token(READER)) });
      assert.deepEqual(await listedTools(reader.client), ["list_server_toolsets", "read_note", "whoami"]);
      assert.equal(reader.client.getInstructions(), undefined, "admin's instructions are not sent");
      assert.deepEqual(await toolsetsAnswer(reader.client), {
        toolsets: ["extra", "notes"],
        active: ["notes"],
        tools: ["list_server_toolsets", "read_note", "whoami"],
      });
      const admin = await connectV2(cleanup, served.url, era, { headers: bearer(await served.token(ADMIN)) });
      assert.deepEqual(await listedTools(admin.client), ["list_server_toolsets", "read_note", "whoami", "wipe"]);
      assert.equal(admin.client.getInstructions(), "## Administration\n\nUse wipe with care.");
      assert.deepEqual(await toolsetsAnswer(admin.client), {
        toolsets: ["admin", "extra", "notes"],
        active: ["admin", "notes"],
        tools: ["list_server_toolsets", "read_note", "whoami", "wipe"],
      });
    });
  }

  it("answers 403 insufficient_scope to a selection that names a toolset the token does not reach, in the query or the header", async () => {
    const served = await file.serve();
    const reader = bearer(await served.token(READER));
    const origin = served.baseUrl.origin;
    const cases: Array<[string, Record<string, string>]> = [
      ["/mcp?only=admin", {}],
      ["/mcp?admin", {}],
      ["/mcp?toolsets=admin,extra", {}],
      ["/mcp", { "x-mcp-toolsets": "only=notes,admin" }],
    ];
    for (const [path, extra] of cases) {
      for (const [era, request] of [
        ["legacy", { headers: LEGACY_POST_HEADERS, body: legacyInitialize() }],
        ["modern", { headers: modernHeaders("tools/call", "wipe"), body: modernBody("tools/call", { name: "wipe", arguments: {} }) }],
      ] as const) {
        const refused = await raw({
          url: new URL(path, served.baseUrl),
          method: "POST",
          headers: { ...request.headers, ...extra, ...reader },
          body: request.body,
        });
        assert.equal(refused.status, 403, `${path} ${era}`);
        // Every scope the named selection needs (the required ones too): the client asks for their union and steps up.
        const needed = "mcp:read mcp:admin";
        assert.equal(
          refused.headers["www-authenticate"],
          `Bearer error="insufficient_scope", error_description="The access token lacks a required scope", scope="${needed}", resource_metadata="${origin}/.well-known/oauth-protected-resource${path}"`,
          `${path} ${era}`,
        );
        assert.deepEqual(refused.json, {
          jsonrpc: "2.0",
          error: {
            code: -32000,
            message: `Forbidden: the access token lacks a scope this request needs (it needs: ${needed}). Request a token with these scopes and retry.`,
          },
          id: null,
        });
      }
    }
    assert.deepEqual(served.runs, []);
    const info = served.records.filter((r) => r.message.startsWith("the selection names toolsets this caller's token does not reach; refused"));
    assert.equal(info.length, 8);
    assert.deepEqual(info[0]?.data, { toolsets: ["admin"], subject: "reader" });
  });

  it('serves a selection without the toolsets the token does not reach with onInsufficientScope: "omit"', async () => {
    const served = await file.serve({ auth: { onInsufficientScope: "omit" } });
    const reader = bearer(await served.token(READER));
    const only = await connectV2(cleanup, served.at("only=admin"), "modern", { headers: reader });
    assert.deepEqual(await listedTools(only.client), ["list_server_toolsets"]);
    const added = await connectV2(cleanup, served.at("admin&extra"), "legacy", { headers: reader });
    assert.deepEqual(await listedTools(added.client), ["extra_tool", "list_server_toolsets", "read_note", "whoami"]);
    assert.deepEqual(served.runs, []);
  });

  it("treats a call to a tool outside the caller's active set as an unknown tool, whatever the URL asks", async () => {
    const served = await file.serve({ auth: { onInsufficientScope: "omit" } });
    const reader = bearer(await served.token(READER));
    for (const query of ["", "only=admin", "admin", "toolsets=admin"]) {
      for (const name of ["wipe", "admin__wipe", "admin.wipe"]) {
        const response = await raw({
          url: served.at(query),
          method: "POST",
          headers: { ...modernHeaders("tools/call", name), ...reader },
          body: modernBody("tools/call", { name, arguments: {} }),
        });
        assert.equal(response.status, 200, `${query} ${name}`);
        assert.equal(response.json.error.code, -32602, `${query} ${name}`);
        assert.match(response.json.error.message, new RegExp(`^Unknown tool "${name.replace(".", "\\.")}"`));
      }
    }
    const client = await connectV2(cleanup, served.at("only=admin"), "legacy", { headers: reader });
    await assert.rejects(client.client.callTool({ name: "wipe", arguments: {} }), (error: unknown) => error instanceof ProtocolError && error.code === -32602);
    assert.deepEqual(served.runs, [], "wipe never ran");
  });

  it("describes at /toolsets what this caller may reach", async () => {
    const served = await file.serve();
    const describe = async (claims: Record<string, unknown>, query = "") => {
      const response = await raw({ url: new URL(`/toolsets${query}`, served.baseUrl), headers: bearer(await served.token(claims)) });
      assert.equal(response.status, 200, response.text);
      return { toolsets: response.json.toolsets.map((t: { name: string }) => t.name), active: response.json.active, tools: response.json.tools };
    };
    assert.deepEqual(await describe(READER), { toolsets: ["extra", "notes"], active: ["notes"], tools: ["list_server_toolsets", "read_note", "whoami"] });
    assert.deepEqual(await describe(READER, "?only=admin"), { toolsets: ["extra", "notes"], active: [], tools: ["list_server_toolsets"] });
    assert.deepEqual(await describe(ADMIN), {
      toolsets: ["admin", "extra", "notes"],
      active: ["admin", "notes"],
      tools: ["list_server_toolsets", "read_note", "whoami", "wipe"],
    });
  });

  it("warns at start about toolset scopes that name no declared toolset (a misspelt name guards nothing)", async () => {
    const served = await file.serve({ auth: { toolsetScopes: { admin: ["mcp:admin"], admni: ["mcp:admin"] } } });
    const warning = served.records.find((r) => r.message.startsWith("auth.toolsetScopes names toolsets no extension declares"));
    assert.equal(warning?.message, "auth.toolsetScopes names toolsets no extension declares (admni); check the names, a misspelt one guards nothing");
    assert.equal(warning?.level, "warn");
  });
});
