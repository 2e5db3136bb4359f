// Each protocol era gets its own error codes (docs/design.md §16, issue 11 build 5): a resource that does not exist is
// -32002 for a 2025-11-25 client (that revision's code) and -32602 (Invalid params) for a 2026-07-28 one — whether
// no extension offers the URI, or a template's handler says so with resourceNotFound().
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { resourceNotFound } from "../../src/index.js";
import type { McpExtension } from "../../src/extension/types.js";
import { Cleanup, connectV1, connectV2, LEGACY_POST_HEADERS, raw, rawLegacyInitialize, serveHost } from "../helpers/http-host.js";

const extensions: McpExtension[] = [
  {
    name: "notes",
    toolsets: [{ name: "notes" }],
    resourceTemplates: [
      {
        uriTemplate: "notes://{id}",
        name: "note",
        read: (uri, variables) => {
          if (variables.id !== "alpha") throw resourceNotFound(uri, `No note "${String(variables.id)}"`);
          return { contents: [{ uri, text: "first note" }] };
        },
      },
    ],
  },
];

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

function codeOf(error: unknown): { code: number; message: string } {
  const e = error as { code?: number; message?: string };
  return { code: e.code ?? 0, message: String(e.message) };
}

async function refusal(read: () => Promise<unknown>): Promise<{ code: number; message: string }> {
  try {
    await read();
  } catch (error) {
    return codeOf(error);
  }
  assert.fail("the read should have been refused");
}

/** What the server put on the wire for a resources/read (the SDK v2 client turns either code into one error class). */
async function wireError(url: URL, uri: string, era: "legacy" | "modern"): Promise<{ code: number; message: string; data?: unknown }> {
  if (era === "legacy") {
    const session = String((await rawLegacyInitialize(url)).headers["mcp-session-id"]);
    const answer = await raw({
      url,
      method: "POST",
      headers: { ...LEGACY_POST_HEADERS, "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 5, method: "resources/read", params: { uri } }),
    });
    return answer.json.error;
  }
  const answer = await raw({
    url,
    method: "POST",
    headers: { ...LEGACY_POST_HEADERS, "mcp-protocol-version": "2026-07-28", "mcp-method": "resources/read", "mcp-name": uri },
    body: JSON.stringify({ jsonrpc: "2.0", id: 5, method: "resources/read", params: { uri, _meta: MODERN_META } }),
  });
  return answer.json.error;
}

const MODERN_META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };

describe("resource not found, per era", { timeout: 30_000 }, () => {
  it("answers a 2025-11-25 client with -32002, on the wire and as the v1 client sees it", async () => {
    const { url } = await serveHost(cleanup, extensions);
    assert.deepEqual(await wireError(url, "other://x", "legacy"), { code: -32002, message: "Resource not found: other://x", data: { uri: "other://x" } });
    assert.deepEqual(await wireError(url, "notes://beta", "legacy"), { code: -32002, message: 'No note "beta"', data: { uri: "notes://beta" } });
    const { client } = await connectV1(cleanup, url);
    assert.equal((await client.readResource({ uri: "notes://alpha" })).contents[0]?.uri, "notes://alpha");
    const missing = await refusal(() => client.readResource({ uri: "other://x" }));
    assert.equal(missing.code, -32002);
    assert.match(missing.message, /Resource not found: other:\/\/x/);
  });

  it("answers a 2026-07-28 client with -32602", async () => {
    const { url } = await serveHost(cleanup, extensions);
    assert.deepEqual(await wireError(url, "other://x", "modern"), { code: -32602, message: "Resource not found: other://x", data: { uri: "other://x" } });
    assert.deepEqual(await wireError(url, "notes://beta", "modern"), { code: -32602, message: 'No note "beta"', data: { uri: "notes://beta" } });
    const { client } = await connectV2(cleanup, url, "modern");
    const declined = await refusal(() => client.readResource({ uri: "notes://beta" }));
    assert.equal(declined.code, -32602);
  });

  it("leaves other -32602 errors of a 2025-11-25 session alone", async () => {
    const { url } = await serveHost(cleanup, extensions);
    const { client } = await connectV1(cleanup, url);
    const unknownPrompt = await refusal(() => client.getPrompt({ name: "nope" }));
    assert.equal(unknownPrompt.code, -32602);
  });
});
