// Tool-search mode and read-only through the gateway (docs/serving.md): upstream tools are found by find_tools and
// called by call_tool like the host's own; a destructive upstream tool called through call_tool is still approved by
// the downstream client first (the approval lives in the gateway's handler, which call_tool reaches); read-only keeps
// only the upstream tools annotated readOnlyHint: true.
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { ElicitRequestParams } from "@modelcontextprotocol/client";
import { CallToolResultSchema, ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { Cleanup, connectV1, connectV2, listedTools } from "../helpers/http-host.js";
import { ANNOTATED_TOOLS } from "../helpers/registry/harness.js";
import { everythingServer, legacyServer, serveGateway, stderrOf, textOf } from "./gateway-kit.js";

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

const servers = () => ({ fx: legacyServer("fx", { tools: ANNOTATED_TOOLS }, { approval: "destructive" }), every: everythingServer() });
const APPROVE = { action: "accept", content: { approve: true } } as const;

describe("tool-search mode through the gateway", { timeout: 60_000 }, () => {
  it("finds and calls an upstream tool through find_tools and call_tool", async () => {
    const { at } = await serveGateway(cleanup, { servers: servers() });
    for (const era of ["legacy", "modern"] as const) {
      const { client } = await connectV2(cleanup, at("only=fx,every&search"), era);
      assert.deepEqual(await listedTools(client), ["call_tool", "find_tools"], era);
      const found = (await client.callTool({ name: "find_tools", arguments: { query: "echo back a message", limit: 3 } })) as {
        structuredContent?: { tools: Array<{ name: string; toolset: string; inputSchema: { properties?: Record<string, unknown> } }> };
      };
      const echo = found.structuredContent?.tools[0];
      assert.equal(echo?.name, "echo", era);
      assert.equal(echo?.toolset, "every", era);
      assert.ok(echo?.inputSchema.properties?.message !== undefined, `${era}: the upstream's full input schema`);
      const called = await client.callTool({ name: "call_tool", arguments: { name: "echo", arguments: { message: "through the gateway" } } });
      assert.match(textOf(called), /through the gateway/, era);
    }
  });

  it("asks the downstream client to approve a destructive upstream tool called through call_tool", async () => {
    const { at, records } = await serveGateway(cleanup, { servers: servers() });
    const asked: ElicitRequestParams[] = [];
    const modern = await connectV2(cleanup, at("only=fx&search"), "modern", {
      clientOptions: { capabilities: { elicitation: { form: {} } } },
      setup: (c) =>
        c.setRequestHandler("elicitation/create", async (request) => {
          asked.push(request.params);
          return APPROVE;
        }),
    });
    assert.equal(textOf(await modern.client.callTool({ name: "call_tool", arguments: { name: "wipe", arguments: { path: "/tmp/x" } } })), "ran");
    const v1 = await connectV1(cleanup, at("only=fx&search"), {
      capabilities: { elicitation: { form: {} } },
      setup: (c) =>
        c.setRequestHandler(ElicitRequestSchema, async (request) => {
          asked.push(request.params as ElicitRequestParams);
          return APPROVE as never;
        }),
    });
    assert.equal(textOf(await v1.client.callTool({ name: "call_tool", arguments: { name: "wipe", arguments: {} } }, CallToolResultSchema)), "ran");
    assert.deepEqual(
      asked.map((a) => a.message),
      [
        'Allow tool "wipe" on server "fx" to run (it may change or delete things)? Arguments: {"path":"/tmp/x"}',
        'Allow tool "wipe" on server "fx" to run (it may change or delete things)? Arguments: {}',
      ],
    );
    assert.equal(records.filter(stderrOf("fx", "call:wipe")).length, 2);
  });

  it("keeps only the upstream tools annotated read-only with readonly", async () => {
    const { at } = await serveGateway(cleanup, { servers: servers() });
    const { client } = await connectV2(cleanup, at("only=fx&readonly"), "modern");
    assert.deepEqual(await listedTools(client), ["list_server_toolsets", "look"]);
  });
});
