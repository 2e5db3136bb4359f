// One `close` listener per response (issue 28 step 1): every part of the serving path that must know when a response
// closes — the drain's in-flight count, the caller's limits, the access line, the endpoint's in-flight count, the
// abort of the handler's signal — shares the one listener of onResponseClose (src/http/edge/connection-tracker.ts)
// instead of adding its own. Counted on the real node responses of a real served host, for a 2026-07-28 call and
// list and for a 2025-era initialize.
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { McpExtension } from "../../src/extension/types.js";
import { Cleanup, LEGACY_POST_HEADERS, legacyInitialize, raw, serveHost } from "../helpers/http-host.js";

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

const extensions: McpExtension[] = [
  { name: "a", toolsets: [{ name: "a" }], tools: [{ name: "echo", handler: () => ({ content: [{ type: "text", text: "echo" }] }) }] },
];

const MODERN_META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
const MODERN_HEADERS = { ...LEGACY_POST_HEADERS, "mcp-protocol-version": "2026-07-28" };

/** Counts the `close` listeners added to each response the server makes, in the order the requests came. */
function countCloseListeners(server: import("node:http").Server): number[] {
  const counts: number[] = [];
  server.prependListener("request", (_req: IncomingMessage, res: ServerResponse) => {
    const index = counts.push(0) - 1;
    // `once` adds its listener through `on`: count the outermost call only.
    let adding = false;
    for (const method of ["on", "once", "addListener", "prependListener", "prependOnceListener"] as const) {
      const original = res[method].bind(res) as (event: string | symbol, listener: (...args: unknown[]) => void) => ServerResponse;
      res[method] = ((event: string | symbol, listener: (...args: unknown[]) => void) => {
        if (adding) return original(event, listener);
        adding = true;
        try {
          if (event === "close") counts[index]! += 1;
          return original(event, listener);
        } finally {
          adding = false;
        }
      }) as ServerResponse[typeof method];
    }
  });
  return counts;
}

describe("close listeners", () => {
  it("adds one close listener to each MCP response, in both eras", async () => {
    const { served, url } = await serveHost(cleanup, extensions);
    const counts = countCloseListeners(served.http);
    const call = await raw({
      url,
      method: "POST",
      headers: { ...MODERN_HEADERS, "mcp-method": "tools/call", "mcp-name": "echo" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo", arguments: {}, _meta: MODERN_META } }),
    });
    assert.equal(call.status, 200, call.text);
    assert.match(call.text, /"text":"echo"/);
    const list = await raw({
      url,
      method: "POST",
      headers: { ...MODERN_HEADERS, "mcp-method": "tools/list" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list", params: { _meta: MODERN_META } }),
    });
    assert.equal(list.status, 200, list.text);
    const initialize = await raw({ url, method: "POST", headers: LEGACY_POST_HEADERS, body: legacyInitialize() });
    assert.equal(initialize.status, 200, initialize.text);
    assert.equal(counts.length, 3);
    assert.deepEqual(counts, [1, 1, 1], `close listeners per response: ${counts.join(", ")}`);
  });
});
