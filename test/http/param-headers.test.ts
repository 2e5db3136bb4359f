// The Mcp-Param-* headers of a 2026-07-28 tools/call (SEP-2243, docs/serving.md): a tool that marks an argument
// `x-mcp-header` has it mirrored into a header, and the host refuses a call whose header is missing, not canonical
// base64, or disagrees with the body — 400 with -32020 naming the header, before the handler runs — while a
// matching call (plain, base64, a number compared as a number) and any 2025-era call are served. The declarations
// are read from the wire schema: only properties reached through `properties` count.
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { paramHeaderMismatch, paramHeadersOf } from "../../src/host/protocol/param-headers.js";
import type { McpExtension } from "../../src/extension/types.js";
import { Cleanup, callText, connectV2, modernBody, modernHeaders, raw, serveHost } from "../helpers/http-host.js";

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

let calls = 0;
const routed: McpExtension = {
  name: "routed",
  tools: [
    {
      name: "deploy",
      inputSchema: {
        type: "object",
        properties: {
          region: { type: "string", "x-mcp-header": "Region" },
          replicas: { type: "integer", "x-mcp-header": "Replicas" },
          note: { type: "string" },
        },
        required: ["region"],
      },
      handler: (args) => {
        calls += 1;
        return { content: [{ type: "text", text: `deployed to ${String(args.region)}` }] };
      },
    },
  ],
};

function deploy(url: URL, args: Record<string, unknown>, headers: Record<string, string>) {
  return raw({
    url,
    method: "POST",
    headers: { ...modernHeaders("tools/call", "deploy"), ...headers },
    body: modernBody("tools/call", { name: "deploy", arguments: args }, 7),
  });
}

describe("Mcp-Param headers (SEP-2243)", () => {
  it("reads declarations from `properties` chains only, each with its header name and type", () => {
    assert.deepEqual(
      paramHeadersOf({
        type: "object",
        properties: {
          a: { type: "string", "x-mcp-header": "A" },
          nested: { type: "object", properties: { b: { type: "boolean", "x-mcp-header": "B" } } },
          list: { type: "array", items: { type: "string", "x-mcp-header": "NotReached" } },
          bad: { type: "string", "x-mcp-header": "has space" },
        },
        anyOf: [{ properties: { c: { type: "string", "x-mcp-header": "NotReachedEither" } } }],
      }),
      [
        { path: ["a"], name: "A", type: "string" },
        { path: ["nested", "b"], name: "B", type: "boolean" },
      ],
    );
    const declarations = paramHeadersOf(routed.tools![0]!.inputSchema);
    const header = (values: Record<string, string>) => (name: string) => values[name];
    assert.equal(
      paramHeaderMismatch(declarations, { region: "eu", replicas: 3 }, header({ "Mcp-Param-Region": "eu", "Mcp-Param-Replicas": "3.0" })),
      undefined,
    );
    assert.equal(paramHeaderMismatch(declarations, { region: null }, header({ "Mcp-Param-Region": "ignored" })), undefined);
    assert.deepEqual(paramHeaderMismatch(declarations, { region: "eu", replicas: 3 }, header({ "Mcp-Param-Region": "eu", "Mcp-Param-Replicas": "4" })), {
      header: "Mcp-Param-Replicas",
      problem: 'the Mcp-Param-Replicas header says "4" but the body carries replicas=3',
    });
  });

  it("serves a 2026 call whose headers agree, and refuses one whose header is missing, wrong or malformed, before its handler runs", async () => {
    const { url } = await serveHost(cleanup, [routed]);
    const ok = await deploy(url, { region: "eu-west", replicas: 2 }, { "mcp-param-region": "eu-west", "mcp-param-replicas": "2" });
    assert.equal(ok.status, 200, ok.text);
    assert.match(ok.text, /deployed to eu-west/);
    const before = calls;
    for (const [headers, problem] of [
      [{ "mcp-param-replicas": "2" }, 'the body carries region="eu-west" but the Mcp-Param-Region header is absent'],
      [{ "mcp-param-region": "us-east", "mcp-param-replicas": "2" }, 'the Mcp-Param-Region header says "us-east" but the body carries region="eu-west"'],
      [
        { "mcp-param-region": "=?base64?ZXUtd2VzdA?=", "mcp-param-replicas": "2" },
        "the Mcp-Param-Region header holds a =?base64?…?= value that is not canonical base64 of UTF-8 text",
      ],
    ] as const) {
      const refused = await deploy(url, { region: "eu-west", replicas: 2 }, headers);
      assert.equal(refused.status, 400, refused.text);
      assert.deepEqual(JSON.parse(refused.text), {
        jsonrpc: "2.0",
        id: 7,
        error: {
          code: -32020,
          message: `Bad Request: the request headers and body disagree: ${problem}`,
          data: { mismatch: { header: problem.includes("Replicas") ? "Mcp-Param-Replicas" : "Mcp-Param-Region", problem } },
        },
      });
    }
    assert.equal(calls, before, "no refused call reached the handler");
  });

  it("leaves 2025-era calls alone: they have no Mcp-Param headers to send", async () => {
    const { url } = await serveHost(cleanup, [routed]);
    const { client } = await connectV2(cleanup, url, "legacy");
    assert.equal(await callText(client, "deploy", { region: "eu-west" }), "deployed to eu-west");
  });

  it("is what an SDK v2 client sends: a pinned 2026 client's call passes", async () => {
    const { url } = await serveHost(cleanup, [routed]);
    const { client } = await connectV2(cleanup, url, "modern");
    assert.equal(await callText(client, "deploy", { region: "zürich", replicas: 1 }), "deployed to zürich");
  });
});
