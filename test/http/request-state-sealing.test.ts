// Multi-round-trip request state is attacker-controlled (it round-trips through the client), so the host signs
// what a handler returns with inputRequired(...) and verifies it on the retry: the handler reads back exactly
// its own state, and a retry with tampered state is refused with -32602 before the handler runs.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import * as z from "zod";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { acceptedContent, defineExtension, defineTool, inputRequired, silentLogger } from "../../src/index.js";
import { buildHost, listenHost } from "../../src/entries/host.js";
import type { ListeningHost } from "../../src/entries/host.js";
import { lastRpcMessage } from "../helpers/http-host.js";

const Name = z.object({ name: z.string() });
let handlerSawTamperedRetry = false;

const extension = defineExtension({
  name: "stateful",
  tools: [
    defineTool({
      name: "greet_twice",
      handler: (_args, ctx) => {
        const answer = acceptedContent(ctx.inputResponses, "who", Name);
        const state = ctx.requestState<string>();
        if (state !== undefined && state !== "asked-once") handlerSawTamperedRetry = true;
        if (!answer)
          return inputRequired({ inputRequests: { who: inputRequired.elicit({ message: "Name?", requestedSchema: Name }) }, requestState: "asked-once" });
        return { content: [{ type: "text", text: `hello ${answer.name}, state=${state}` }] };
      },
    }),
  ],
});

const MODERN = "2026-07-28";
function modernCall(url: URL, id: number, params: Record<string, unknown>): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": MODERN,
      "mcp-method": "tools/call",
      "mcp-name": "greet_twice",
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: {
        name: "greet_twice",
        arguments: {},
        ...params,
        _meta: { "io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {} } } },
      },
    }),
  });
}

async function rpcBody(response: Response): Promise<{ result?: Record<string, unknown>; error?: { code: number; message: string } }> {
  return lastRpcMessage(await response.text());
}

describe("request state sealing", () => {
  let served: ListeningHost;
  before(async () => {
    const host = buildHost([extension], { name: "sealing", logger: silentLogger });
    await host.start();
    served = await listenHost(host, { port: 0 });
  });
  after(async () => {
    await served.close();
  });

  it("hands the handler back exactly the state it returned, through a real modern client's retry", async () => {
    const client = new Client({ name: "c", version: "1" }, { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: MODERN } } });
    client.setRequestHandler("elicitation/create", async () => ({ action: "accept", content: { name: "Ada" } }));
    await client.connect(new StreamableHTTPClientTransport(served.url));
    try {
      const result = await client.callTool({ name: "greet_twice", arguments: {} });
      assert.deepEqual(result.content, [{ type: "text", text: "hello Ada, state=asked-once" }]);
    } finally {
      await client.close();
    }
  });

  it("sends the state signed, not as the handler wrote it", async () => {
    const first = await rpcBody(await modernCall(served.url, 1, {}));
    assert.equal(first.result?.resultType, "input_required");
    const state = first.result?.requestState;
    assert.equal(typeof state, "string");
    assert.notEqual(state, "asked-once");
    assert.match(String(state), /^v1\./);
  });

  it("refuses a retry whose state was tampered with, before the handler runs", async () => {
    const first = await rpcBody(await modernCall(served.url, 2, {}));
    const state = String(first.result?.requestState);
    const [version, body, mac] = state.split(".");
    const forged = JSON.parse(Buffer.from(body!, "base64url").toString("utf8")) as { p: unknown };
    forged.p = "approved-by-admin";
    const tampered = `${version}.${Buffer.from(JSON.stringify(forged)).toString("base64url")}.${mac}`;
    const retry = await rpcBody(
      await modernCall(served.url, 3, { requestState: tampered, inputResponses: { who: { action: "accept", content: { name: "Eve" } } } }),
    );
    assert.equal(retry.error?.code, -32602);
    assert.equal(handlerSawTamperedRetry, false);
  });
});
