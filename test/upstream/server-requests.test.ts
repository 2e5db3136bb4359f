// docs/design.md §10.11 / §11: an upstream's server-to-client requests during a call are answered by the downstream client
// of that call, in both eras: a 2025 upstream's pushed elicitation / sampling / roots request pauses the call and
// reaches the client as `input_required` (a 2026-07-28 client answers and calls again; on a 2025 session the host
// sends it as a real request); a 2026-07-28 upstream's own `input_required` reaches a 2026-07-28 client as the tool's
// own, its state sealed by the host, handed back upstream on the retry — and a tampered state is refused.
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as V1Transport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CallToolResultSchema, CreateMessageRequestSchema, ElicitRequestSchema, ListRootsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { Cleanup, errorText, lastRpcMessage } from "../helpers/http-host.js";
import { legacyServer, modernServer, serveGateway, textOf } from "./gateway-kit.js";

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

const MODERN = "2026-07-28";
const CAPABILITIES = { elicitation: { form: {} }, sampling: {}, roots: {} };

interface Asker {
  label: string;
  call(name: string): Promise<unknown>;
}

/** Clients that answer elicitation with `name`, sampling with a text naming themselves, roots with one root. */
async function askers(url: URL, name: string): Promise<Asker[]> {
  const out: Asker[] = [];
  for (const era of ["modern", "legacy"] as const) {
    const client = new Client(
      { name: era, version: "1" },
      { capabilities: CAPABILITIES, ...(era === "modern" ? { versionNegotiation: { mode: { pin: MODERN } } } : {}) },
    );
    client.setRequestHandler("elicitation/create", async () => ({ action: "accept", content: { name } }));
    client.setRequestHandler("sampling/createMessage", async () => ({
      role: "assistant",
      content: { type: "text", text: `from ${era}` },
      model: `model-${era}`,
    }));
    client.setRequestHandler("roots/list", async () => ({ roots: [{ uri: `file:///${era}` }] }));
    const transport = new StreamableHTTPClientTransport(url);
    await client.connect(transport);
    cleanup.add(async () => {
      if (transport.sessionId) await transport.terminateSession().catch(() => {});
      await client.close();
    });
    out.push({ label: `v2 ${era}`, call: (tool) => client.callTool({ name: tool, arguments: {} }) });
  }
  const v1 = new V1Client({ name: "v1", version: "1" }, { capabilities: CAPABILITIES });
  v1.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept", content: { name } }));
  v1.setRequestHandler(CreateMessageRequestSchema, async () => ({ role: "assistant", content: { type: "text", text: "from v1" }, model: "model-v1" }));
  v1.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [{ uri: "file:///v1" }] }));
  const transport = new V1Transport(url);
  await v1.connect(transport);
  cleanup.add(async () => {
    await transport.terminateSession().catch(() => {});
    await v1.close();
  });
  out.push({ label: "v1", call: (tool) => v1.callTool({ name: tool, arguments: {} }, CallToolResultSchema) });
  return out;
}

/** One raw 2026-07-28 tools/call (to see and to tamper with what a client would send back). */
async function modernCall(
  url: URL,
  id: number,
  name: string,
  params: Record<string, unknown> = {},
): Promise<{ result?: any; error?: { code: number; message: string } }> {
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": MODERN,
      "mcp-method": "tools/call",
      "mcp-name": name,
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: {
        name,
        arguments: {},
        ...params,
        _meta: { "io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": CAPABILITIES },
      },
    }),
  });
  return lastRpcMessage(await response.text());
}

describe("upstream questions reach the downstream client of the call", { timeout: 60_000 }, () => {
  it("a 2025 upstream's pushed elicitation, sampling and roots requests are answered by the client, in both eras", async () => {
    const { at } = await serveGateway(cleanup, { servers: { fx: legacyServer("fx", { tools: ["ask_elicitation", "ask_sampling", "ask_roots"] }) } });
    for (const asker of await askers(at("only=fx"), "Grace")) {
      const who = asker.label === "v1" ? "v1" : asker.label.slice(3);
      assert.equal(textOf(await asker.call("ask_elicitation")), 'elicitation:accept:{"name":"Grace"}', asker.label);
      assert.equal(textOf(await asker.call("ask_sampling")), `sampling:from ${who}:model-${who}`, asker.label);
      assert.equal(textOf(await asker.call("ask_roots")), `roots:file:///${who}`, asker.label);
    }
  });

  it("a 2026-07-28 upstream's input_required is answered by the client, in both eras, the upstream getting its state back", async () => {
    const { at } = await serveGateway(cleanup, { servers: { up: modernServer("up") } });
    for (const asker of await askers(at("only=up"), "Ada")) {
      const who = asker.label === "v1" ? "v1" : asker.label.slice(3);
      assert.equal(textOf(await asker.call("ask_elicitation")), 'elicitation:accept:{"name":"Ada"}:state-1', asker.label);
      assert.equal(textOf(await asker.call("ask_sampling")), `sampling:from ${who}`, asker.label);
      assert.equal(textOf(await asker.call("ask_roots")), `roots:file:///${who}`, asker.label);
    }
  });

  it("hands a 2026-07-28 client the upstream's input_required as the tool's own, sealed, and refuses a tampered retry", async () => {
    const { url } = await serveGateway(cleanup, { servers: { up: modernServer("up") } });
    const first = await modernCall(url, 1, "ask_elicitation");
    assert.equal(first.result?.resultType, "input_required");
    assert.deepEqual(Object.keys(first.result.inputRequests), ["who"], "the upstream's own request, under its own key");
    assert.equal(first.result.inputRequests.who.method, "elicitation/create");
    const state = String(first.result.requestState);
    assert.match(state, /^v1\./, "sealed by the host");
    assert.notEqual(state, "state-1");

    const answers = { who: { action: "accept", content: { name: "Lin" } } };
    const retry = await modernCall(url, 2, "ask_elicitation", { requestState: state, inputResponses: answers });
    assert.deepEqual(retry.result?.content, [{ type: "text", text: 'elicitation:accept:{"name":"Lin"}:state-1' }]);

    const [version, body, mac] = state.split(".");
    // The sealed payload: the gateway's state (`v`), its single-use id and issue time.
    const forged = JSON.parse(Buffer.from(body!, "base64url").toString("utf8")) as { p: { v: string } };
    forged.p.v = forged.p.v.replace("state-1", "state-forged");
    const tampered = `${version}.${Buffer.from(JSON.stringify(forged)).toString("base64url")}.${mac}`;
    const refused = await modernCall(url, 3, "ask_elicitation", { requestState: tampered, inputResponses: answers });
    assert.equal(refused.error?.code, -32602);
  });

  it("refuses clearly when the client cannot answer what the upstream asks", async () => {
    const { at } = await serveGateway(cleanup, { servers: { fx: legacyServer("fx", { tools: ["ask_elicitation"] }), up: modernServer("up") } });
    for (const era of ["modern", "legacy"] as const) {
      const client = new Client({ name: era, version: "1" }, era === "modern" ? { versionNegotiation: { mode: { pin: MODERN } } } : {});
      const transport = new StreamableHTTPClientTransport(at("fx&up"));
      await client.connect(transport);
      cleanup.add(async () => {
        if (transport.sessionId) await transport.terminateSession().catch(() => {});
        await client.close();
      });
      const legacyAsked = textOf(await client.callTool({ name: "fx__ask_elicitation", arguments: {} }));
      assert.match(legacyAsked, /^elicitation refused: -32601 /, `${era}: the 2025 upstream saw its request refused`);
      const modernAsked = errorText(await client.callTool({ name: "up__ask_elicitation", arguments: {} }));
      assert.equal(modernAsked, 'tool "ask_elicitation" on server "up" asked the client for elicitation, which this client did not declare it can answer', era);
    }
  });
});
