// docs/gateway.md "Forwarded calls": which downstream requests the gateway forwards on the upstream connection's raw
// channel and which take the full path, seen from the upstream (a forwarded request carries the channel's own
// progress token, `mcp-host-fwd-<n>`; a client round's is a number) — and that both give the same answer through the
// host, for SDK v2 clients in both eras and the v1 client. Every fallback runs a real client through it: a client
// that can answer a 2025 upstream's questions, approval, a tool with an outputSchema, a 2026-07-28 upstream's
// input_required retry.
import assert from "node:assert/strict";
import { afterEach, describe, it } from "node:test";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { Cleanup, connectV1 } from "../helpers/http-host.js";
import { legacyServer, modernServer, serveGateway, textOf } from "./gateway-kit.js";

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

const MODERN = "2026-07-28";
const CAPABILITIES = { elicitation: { form: {} }, sampling: {}, roots: {} };
const TOOLS = ["echo", "meta", "mixed", "is_error", "reject", "structured_ok", "structured_bad", "ask_elicitation"];

type Call = (name: string, args?: Record<string, unknown>, meta?: Record<string, unknown>) => Promise<any>;

/** The token the upstream saw for a `meta` call: "forwarded" or "client round". */
function pathOf(result: unknown): "forwarded" | "client round" {
  const token = JSON.parse(textOf(result))._meta?.progressToken;
  if (typeof token === "string" && token.startsWith("mcp-host-fwd-")) return "forwarded";
  assert.equal(typeof token, "number", `a client round's progress token: ${JSON.stringify(token)}`);
  return "client round";
}

/** The same answer with the upstream-seen progress token left out. */
function withoutToken(result: unknown): unknown {
  const r = result as { content: Array<{ text: string }> };
  const seen = JSON.parse(r.content[0]!.text);
  delete seen._meta.progressToken;
  return { ...r, content: [{ ...r.content[0], text: seen }] };
}

async function v2(url: URL, era: "modern" | "legacy", capable: boolean): Promise<Call> {
  const client = new Client(
    { name: `v2-${era}`, version: "1" },
    { ...(capable ? { capabilities: CAPABILITIES } : {}), ...(era === "modern" ? { versionNegotiation: { mode: { pin: MODERN } } } : {}) },
  );
  if (capable)
    client.setRequestHandler("elicitation/create", async (request) => {
      const approval = "approve" in ((request.params as { requestedSchema?: { properties?: object } }).requestedSchema?.properties ?? {});
      const content: Record<string, string | boolean> = approval ? { approve: true } : { name: "Ada" };
      return { action: "accept" as const, content };
    });
  const transport = new StreamableHTTPClientTransport(url);
  await client.connect(transport);
  cleanup.add(async () => {
    if (transport.sessionId) await transport.terminateSession().catch(() => {});
    await client.close();
  });
  return (name, args = {}, meta) => client.callTool({ name, arguments: args, ...(meta ? { _meta: meta } : {}) });
}

async function v1(url: URL, capable: boolean): Promise<Call> {
  const { client } = await connectV1(cleanup, url, capable ? { capabilities: CAPABILITIES, setup: () => {} } : {});
  return (name, args = {}, meta) => client.callTool({ name, arguments: args, ...(meta ? { _meta: meta } : {}) }, CallToolResultSchema);
}

describe("the gateway's forwarding path", { timeout: 60_000 }, () => {
  it("forwards a first-round call from a client that cannot answer questions; the same answers as the full path", async () => {
    const { at } = await serveGateway(cleanup, { servers: { fx: legacyServer("fx", { tools: TOOLS }) } });
    const url = at("only=fx");
    const kinds: Array<[string, (capable: boolean) => Promise<Call>]> = [
      ["v2 2026-07-28", (c) => v2(url, "modern", c)],
      ["v2 2025", (c) => v2(url, "legacy", c)],
      ["v1", (c) => v1(url, c)],
    ];
    for (const [label, connect] of kinds) {
      const forwarded = await connect(false);
      const full = await connect(true); // could answer the 2025 upstream's questions: the full path, which can pause
      const meta = { "example/trace": "t-1" };
      const [a, b] = [await forwarded("meta", { q: 1 }, meta), await full("meta", { q: 1 }, meta)];
      assert.equal(pathOf(a), "forwarded", label);
      assert.equal(pathOf(b), "client round", label);
      assert.deepEqual(withoutToken(a), withoutToken(b), label);
      for (const tool of ["echo", "mixed", "is_error", "reject", "structured_ok", "structured_bad", "nosuch"]) {
        const args = tool === "echo" ? { text: "hi" } : {};
        const [x, y] = await Promise.all([forwarded(tool, args).catch((e: Error) => e.message), full(tool, args).catch((e: Error) => e.message)]);
        assert.deepEqual(x, y, `${label}: ${tool}`);
      }
    }
  });

  it("takes the full path for approval, and runs the approved call", async () => {
    const { at } = await serveGateway(cleanup, { servers: { fx: legacyServer("fx", { tools: ["meta"] }, { approval: "always" }) } });
    for (const era of ["modern", "legacy"] as const) {
      const call = await v2(at("only=fx"), era, true);
      assert.equal(pathOf(await call("meta")), "client round", era);
    }
  });

  it("runs a 2025 upstream's pushed question and a 2026-07-28 upstream's input_required retry through the full path", async () => {
    const { at } = await serveGateway(cleanup, { servers: { fx: legacyServer("fx", { tools: ["ask_elicitation"] }), up: modernServer("up") } });
    for (const era of ["modern", "legacy"] as const) {
      const legacyAsks = await v2(at("only=fx"), era, true);
      assert.equal(textOf(await legacyAsks("ask_elicitation")), 'elicitation:accept:{"name":"Ada"}', era);
      // The first round is forwarded; the upstream's input_required comes back, the client answers, the retry carries state.
      const modernAsks = await v2(at("only=up"), era, true);
      assert.equal(textOf(await modernAsks("ask_elicitation")), 'elicitation:accept:{"name":"Ada"}:state-1', era);
    }
  });

  it("checks a tool's structured output on the full path even for a client that cannot answer questions", async () => {
    const { at } = await serveGateway(cleanup, { servers: { fx: legacyServer("fx", { tools: ["structured_bad"] }) } });
    const call = await v2(at("only=fx"), "modern", false);
    const result = await call("structured_bad");
    assert.equal(result.isError, true);
    assert.match(result.content[0].text, /does not match its outputSchema/);
  });
});
