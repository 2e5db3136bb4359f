// docs/design.md §10.12 / §11: with `approval: destructive`, the downstream client is asked (elicitation, in both eras)
// before a destructive upstream tool runs; an approval runs it, a refusal or a declined question refuses it
// (MCP_TOOL_DENIED), and a client that cannot be asked gets a clear refusal. `deniedTools` hides and refuses.
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { Client, StreamableHTTPClientTransport, type ElicitRequestParams, type ElicitResult } from "@modelcontextprotocol/client";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as V1Transport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CallToolResultSchema, ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { registryErrorCode } from "../../src/registry/index.js";
import { Cleanup, errorText } from "../helpers/http-host.js";
import { ANNOTATED_TOOLS } from "../helpers/registry/harness.js";
import { legacyServer, serveGateway, stderrOf, textOf } from "./gateway-kit.js";

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

type Answer = (params: ElicitRequestParams) => ElicitResult;

interface Caller {
  label: string;
  asked: ElicitRequestParams[];
  call(name: string, args?: Record<string, unknown>): Promise<any>;
}

async function caller(url: URL, kind: "modern" | "legacy" | "v1", answer: Answer | undefined): Promise<Caller> {
  const asked: ElicitRequestParams[] = [];
  const capabilities = answer ? { elicitation: { form: {} } } : {};
  const respond = (params: ElicitRequestParams) => {
    asked.push(params);
    return answer!(params);
  };
  if (kind === "v1") {
    const client = new V1Client({ name: "v1", version: "1" }, { capabilities });
    if (answer) client.setRequestHandler(ElicitRequestSchema, async (request) => respond(request.params as ElicitRequestParams) as never);
    const transport = new V1Transport(url);
    await client.connect(transport);
    cleanup.add(async () => {
      await transport.terminateSession().catch(() => {});
      await client.close();
    });
    return { label: kind, asked, call: (name, args = {}) => client.callTool({ name, arguments: args }, CallToolResultSchema) };
  }
  const client = new Client(
    { name: kind, version: "1" },
    { capabilities, ...(kind === "modern" ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {}) },
  );
  if (answer) client.setRequestHandler("elicitation/create", async (request) => respond(request.params));
  const transport = new StreamableHTTPClientTransport(url);
  await client.connect(transport);
  cleanup.add(async () => {
    if (transport.sessionId) await transport.terminateSession().catch(() => {});
    await client.close();
  });
  return { label: `v2 ${kind}`, asked, call: (name, args = {}) => client.callTool({ name, arguments: args }) };
}

const KINDS = ["modern", "legacy", "v1"] as const;

describe("approval of destructive upstream tools", { timeout: 60_000 }, () => {
  const servers = () => ({ fx: legacyServer("fx", { tools: ANNOTATED_TOOLS }, { approval: "destructive", deniedTools: ["plain"] }) });

  it("asks the client before a destructive tool runs, and runs it when approved", async () => {
    const { at, records } = await serveGateway(cleanup, { servers: servers() });
    for (const [i, kind] of KINDS.entries()) {
      const c = await caller(at("only=fx"), kind, () => ({ action: "accept", content: { approve: true } }));
      assert.equal(textOf(await c.call("wipe", { path: "/tmp/x" })), "ran", c.label);
      assert.equal(c.asked.length, 1, c.label);
      assert.equal(c.asked[0]!.message, 'Allow tool "wipe" on server "fx" to run (it may change or delete things)? Arguments: {"path":"/tmp/x"}', c.label);
      assert.deepEqual((c.asked[0] as { requestedSchema?: unknown }).requestedSchema, {
        type: "object",
        properties: { approve: { type: "boolean", title: "Approve", description: "Let the tool run" } },
        required: ["approve"],
      });
      assert.equal(textOf(await c.call("edit")), "ran", `${c.label}: readOnlyHint false counts as destructive`);
      assert.equal(c.asked.length, 2, c.label);
      for (const safe of ["look", "safe_write"]) assert.equal(textOf(await c.call(safe)), "ran", `${c.label}: ${safe} needs no approval`);
      assert.equal(c.asked.length, 2, `${c.label}: nothing else was asked`);
      assert.equal(records.filter(stderrOf("fx", "call:wipe")).length, i + 1);
    }
  });

  it("refuses the call when the client declines or does not approve, and the tool never runs", async () => {
    const { at, records } = await serveGateway(cleanup, { servers: servers() });
    for (const kind of KINDS) {
      for (const answer of [() => ({ action: "decline" }) as ElicitResult, () => ({ action: "accept", content: { approve: false } }) as ElicitResult]) {
        const c = await caller(at("only=fx"), kind, answer);
        const result = await c.call("wipe");
        assert.equal(errorText(result), 'the call to tool "wipe" on server "fx" was not approved', c.label);
        assert.equal(registryErrorCode(result), "MCP_TOOL_DENIED");
      }
    }
    assert.equal(records.filter(stderrOf("fx", "call:wipe")).length, 0, "the upstream never ran it");
  });

  it("refuses clearly when the client cannot be asked", async () => {
    const { at, records } = await serveGateway(cleanup, { servers: servers() });
    for (const kind of KINDS) {
      const c = await caller(at("only=fx"), kind, undefined);
      const result = await c.call("wipe");
      assert.equal(
        errorText(result),
        'tool "wipe" on server "fx" needs approval (approval: "destructive") and this client cannot be asked (it did not declare elicitation); the call was refused',
        c.label,
      );
      assert.equal(registryErrorCode(result), "MCP_TOOL_DENIED", c.label);
      assert.equal(textOf(await c.call("look")), "ran", `${c.label}: a read-only tool still runs`);
    }
    assert.equal(records.filter(stderrOf("fx", "call:wipe")).length, 0);
  });

  it("hides the tools deniedTools names and refuses calls to them", async () => {
    const { at } = await serveGateway(cleanup, { servers: servers() });
    const c = await caller(at("only=fx"), "modern", () => ({ action: "accept", content: { approve: true } }));
    const client = new Client({ name: "lister", version: "1" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
    await client.connect(new StreamableHTTPClientTransport(at("only=fx")));
    cleanup.add(() => client.close());
    assert.deepEqual((await client.listTools()).tools.map((t) => t.name).sort(), ["edit", "list_server_toolsets", "look", "safe_write", "wipe"]);
    await assert.rejects(c.call("plain"), /Unknown tool "plain"/);
  });
});
