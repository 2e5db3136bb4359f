// §10.11: sampling, elicitation and roots requests from upstreams go to the per-call relay, else the spec's handler,
// else the registry's (sync or async), else are refused with a JSON-RPC error the upstream sees; a handler's error
// never crashes anything. Both eras: pushed requests (2025) and input_required rounds (2026-07-28).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ServerSpec, registryErrorCode, toText, type ServerRequestContext, type UpstreamRequest } from "../../../src/registry/index.js";
import { ModernHttpFixture } from "../../fixtures/upstream/http-fixtures.js";
import { everythingStdio, legacyStdio, modernStdio, registryHarness } from "../../helpers/registry/harness.js";

const ASKING = { tools: ["ask_sampling", "ask_elicitation", "ask_roots", "echo"] };

describe("server-to-client requests, 2025 era (pushed)", () => {
  const h = registryHarness();

  it("answers with the spec's handlers, sync or async, and tells them who asks", async () => {
    const seen: ServerRequestContext[] = [];
    const registry = h.make([
      legacyStdio("fx", ASKING, {
        sampling: (params, ctx) => {
          seen.push(ctx);
          return `hello (${params.messages.length} message)`;
        },
        elicitation: async () => ({ action: "accept", content: { name: "Ada" } }),
        roots: async () => [{ uri: "file:///a" }, { uri: "file:///b" }],
      }),
    ]);
    assert.equal(toText(await registry.callTool("ask_sampling")), "sampling:hello (1 message):mcp-host");
    assert.equal(toText(await registry.callTool("ask_elicitation")), 'elicitation:accept:{"name":"Ada"}');
    assert.equal(toText(await registry.callTool("ask_roots")), "roots:file:///a,file:///b");
    // The context's signal is aborted once the call it belongs to has ended.
    assert.deepEqual(
      seen.map((c) => [c.server, c.tool, c.signal?.aborted]),
      [["fx", "ask_sampling", true]],
    );
  });

  it("falls back to the registry's handler, and prefers the spec's when both exist", async () => {
    const registry = h.make([legacyStdio("own", ASKING, { elicitation: () => ({ action: "decline" }) }), legacyStdio("shared", ASKING)], {
      elicitation: () => ({ action: "accept", content: { name: "registry" } }),
    });
    assert.equal(toText(await registry.callTool("own__ask_elicitation")), "elicitation:decline:null");
    assert.equal(toText(await registry.callTool("shared__ask_elicitation")), 'elicitation:accept:{"name":"registry"}');
  });

  it("turns a failing handler into a JSON-RPC error the upstream sees, and carries on", async () => {
    const registry = h.make([
      legacyStdio("fx", ASKING, {
        elicitation: () => {
          throw new Error("boom");
        },
        sampling: async () => {
          throw new Error("no model today");
        },
      }),
    ]);
    assert.equal(toText(await registry.callTool("ask_elicitation")), "elicitation refused: -32603 MCP error -32603: elicitation handler failed: boom");
    assert.equal(toText(await registry.callTool("ask_sampling")), "sampling refused: -32603 MCP error -32603: sampling handler failed: no model today");
    assert.deepEqual(
      h.records.filter((r) => r.level === "warn").map((r) => [r.prefix, r.message, r.data]),
      [
        [["fx"], "the elicitation handler failed", { error: "boom" }],
        [["fx"], "the sampling handler failed", { error: "no model today" }],
      ],
    );
    assert.equal(toText(await registry.callTool("echo", { text: "still fine" })), "still fine");
  });

  it("refuses with a JSON-RPC error when a kind is accepted but nobody handles it, and declares nothing it cannot answer", async () => {
    const tools = [...ASKING.tools, "client_caps"];
    const registry = h.make([legacyStdio("accepting", { tools }, { accept: ["sampling"] }), legacyStdio("plain", { tools }, { roots: () => [] })]);
    assert.equal(
      toText(await registry.callTool("accepting__ask_sampling")),
      'sampling refused: -32601 MCP error -32601: this client has no sampling handler for server "accepting"; the request is refused',
    );
    assert.deepEqual(JSON.parse(toText(await registry.callTool("accepting__client_caps"))), { sampling: {} });
    assert.deepEqual(JSON.parse(toText(await registry.callTool("plain__client_caps"))), { roots: {} });
    assert.equal(toText(await registry.callTool("plain__ask_sampling")), "sampling refused: -32601 MCP error -32601: Method not found"); // nothing declared, the SDK refuses
  });

  it("prefers the per-call relay, and falls back when it returns undefined", async () => {
    const relayed: UpstreamRequest[] = [];
    const registry = h.make([legacyStdio("fx", ASKING, { elicitation: () => ({ action: "accept", content: { name: "spec" } }) })]);
    const viaRelay = await registry.callTool(
      "ask_elicitation",
      {},
      {
        onServerRequest: (request) => {
          relayed.push(request);
          return { action: "accept", content: { name: "downstream" } };
        },
      },
    );
    assert.equal(toText(viaRelay), 'elicitation:accept:{"name":"downstream"}');
    assert.deepEqual(
      relayed.map((r) => [r.method, r.server, r.tool, r.params.message]),
      [["elicitation/create", "fx", "ask_elicitation", "Name?"]],
    );
    const fallback = await registry.callTool("ask_elicitation", {}, { onServerRequest: () => undefined });
    assert.equal(toText(fallback), 'elicitation:accept:{"name":"spec"}');
  });

  it("answers server-everything's sampling request", async () => {
    const registry = h.make([everythingStdio("everything", { sampling: (params) => `echo of ${params.maxTokens} tokens` })]);
    await registry.connect();
    await registry.listTools();
    const result = await registry.callTool("trigger-sampling-request", { prompt: "hi", maxTokens: 7 });
    assert.deepEqual(JSON.parse(toText(result).replace(/^LLM sampling result: \n/, "")), {
      model: "mcp-host",
      role: "assistant",
      content: { type: "text", text: "echo of 7 tokens" },
    });
  });
});

describe("server-to-client requests, 2026-07-28 era (input_required)", () => {
  const h = registryHarness();
  const handlers = {
    sampling: () => "hi there",
    elicitation: async () => ({ action: "accept" as const, content: { name: "Ada" } }),
    roots: () => [{ uri: "file:///r" }],
  };

  it("answers every round over stdio and echoes the request state", async () => {
    const registry = h.make([modernStdio("m", {}, { era: "modern", ...handlers })]);
    assert.equal(toText(await registry.callTool("ask_elicitation")), 'elicitation:accept:{"name":"Ada"}:state-1');
    assert.equal(toText(await registry.callTool("ask_sampling")), "sampling:hi there");
    assert.equal(toText(await registry.callTool("ask_roots")), "roots:file:///r");
  });

  it("answers over HTTP and routes to the per-call relay", async () => {
    const http = await new ModernHttpFixture({ name: "m" }).start();
    try {
      const registry = h.make([ServerSpec.http("m", http.url, handlers)]);
      assert.equal(toText(await registry.callTool("ask_elicitation")), 'elicitation:accept:{"name":"Ada"}:state-1');
      const relayed = await registry.callTool("ask_elicitation", {}, { onServerRequest: () => ({ action: "decline" }) });
      assert.equal(toText(relayed), "elicitation:decline:null:state-1");
    } finally {
      await http.stop();
    }
  });

  it("fails only the call when a handler fails, naming server and tool", async () => {
    const registry = h.make([
      modernStdio(
        "m",
        {},
        {
          era: "modern",
          elicitation: () => {
            throw new Error("boom");
          },
        },
      ),
    ]);
    const result = await registry.callTool("ask_elicitation");
    assert.equal(registryErrorCode(result), "MCP_CALL_FAILED");
    assert.equal(
      toText(result),
      'tool "ask_elicitation" on server "m" failed: the server asked for elicitation/create and it was refused: elicitation handler failed: boom',
    );
    assert.equal(toText(await registry.callTool("echo", { text: "fine" })), "fine");
  });
});
