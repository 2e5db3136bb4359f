// serverFactory guards every selection (docs/design.md §7, issue 3 part 4): middleware a deployment adds around the
// host's MCP handler runs for every selection — whatever the query, the X-MCP-Toolsets header, an unknown name,
// a trailing slash, the HTTP method or the protocol era — so no URL reaches the MCP handler without it.
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import express from "express";
import type { McpExtension } from "../../src/extension/types.js";
import type { ServerFactory } from "../../src/host/built-server.js";
import { Cleanup, LEGACY_POST_HEADERS, callText, connectV1, connectV2, legacyInitialize, listedTools, raw, serveHost } from "../helpers/http-host.js";

const text = (t: string) => ({ content: [{ type: "text" as const, text: t }] });
const extensions: McpExtension[] = [
  { name: "a", toolsets: [{ name: "a" }], tools: [{ name: "a_tool", handler: () => text("a") }] },
  { name: "b", toolsets: [{ name: "b", default: false }], tools: [{ name: "b_tool", handler: () => text("b") }] },
];

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

/** A factory whose middleware refuses requests without `X-Api-Key: open-sesame`, counting what got through. */
function guardedFactory() {
  const reached: string[] = [];
  const keys: string[] = [];
  const serverFactory: ServerFactory = ({ key, handler }) => {
    keys.push(key);
    return express.Router().use(
      (req, res, next) => {
        if (req.headers["x-api-key"] !== "open-sesame") {
          res.status(401).json({ jsonrpc: "2.0", error: { code: -32001, message: "missing API key" }, id: null });
          return;
        }
        next();
      },
      (req, res, next) => {
        reached.push(`${req.method} ${key}`);
        return handler(req, res, next);
      },
    );
  };
  return { serverFactory, reached, keys };
}

const MODERN_HEADERS = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  "mcp-protocol-version": "2026-07-28",
  "mcp-method": "tools/list",
};
const modernToolsList = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "tools/list",
  params: {
    _meta: {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": {},
      "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
    },
  },
});

describe("serverFactory", { timeout: 30_000 }, () => {
  it("puts its middleware in front of every selection, URL, method and era: nothing reaches the MCP handler without it", async () => {
    const guard = guardedFactory();
    const { url, baseUrl } = await serveHost(cleanup, extensions, { host: { serverFactory: guard.serverFactory } });
    const attempts: Array<{ label: string; url: URL; method: string; headers: Record<string, string>; body?: string }> = [];
    const targets: Array<[string, URL, Record<string, string>]> = [
      ["?only=a", new URL(`${url.href}?only=a`), {}],
      ["?b", new URL(`${url.href}?b`), {}],
      ["?a&b", new URL(`${url.href}?a&b`), {}],
      ["X-MCP-Toolsets: only=b", url, { "X-MCP-Toolsets": "only=b" }],
      ["?nosuch", new URL(`${url.href}?nosuch`), {}],
      ["?only=", new URL(`${url.href}?only=`), {}],
      ["no selection", url, {}],
      ["/mcp/ (trailing slash)", new URL("/mcp/", baseUrl), {}],
      ["/mcp/?only=b", new URL("/mcp/?only=b", baseUrl), {}],
      ["/MCP (case)", new URL("/MCP?only=a", baseUrl), {}],
    ];
    for (const [label, target, headers] of targets) {
      attempts.push({
        label: `${label} legacy initialize`,
        url: target,
        method: "POST",
        headers: { ...LEGACY_POST_HEADERS, ...headers },
        body: legacyInitialize(),
      });
      attempts.push({ label: `${label} modern tools/list`, url: target, method: "POST", headers: { ...MODERN_HEADERS, ...headers }, body: modernToolsList });
      attempts.push({ label: `${label} GET`, url: target, method: "GET", headers: { accept: "text/event-stream", "mcp-session-id": "x", ...headers } });
      attempts.push({ label: `${label} DELETE`, url: target, method: "DELETE", headers: { "mcp-session-id": "x", ...headers } });
    }
    const statuses: Record<string, number> = {};
    for (const attempt of attempts) {
      const response = await raw(attempt);
      statuses[attempt.label] = response.status;
      if (response.status === 401) assert.deepEqual(response.json, { jsonrpc: "2.0", error: { code: -32001, message: "missing API key" }, id: null });
    }
    assert.deepEqual(statuses, Object.fromEntries(attempts.map((a) => [a.label, 401])));
    assert.deepEqual(guard.reached, []);
    assert.deepEqual([...new Set(guard.keys)].sort(), ["", "a", "a,b", "b"], "every selection built was made by the factory");

    await assert.rejects(connectV1(cleanup, new URL(`${url.href}?only=b`)));
    await assert.rejects(connectV2(cleanup, new URL(`${url.href}?only=b`), "legacy"));
    await assert.rejects(connectV2(cleanup, new URL(`${url.href}?only=b`), "modern", { clientOptions: {} }).then((c) => c.client.listTools()));
    assert.deepEqual(guard.reached, []);
  });

  it("serves every selection, era and client once the middleware lets the request through", async () => {
    const guard = guardedFactory();
    const { url, baseUrl } = await serveHost(cleanup, extensions, { host: { serverFactory: guard.serverFactory } });
    const headers = { "X-Api-Key": "open-sesame" };
    const v1 = await connectV1(cleanup, new URL(`${url.href}?only=b`), { headers });
    assert.deepEqual(await listedTools(v1.client), ["b_tool", "list_server_toolsets"]);
    const legacy = await connectV2(cleanup, new URL("/mcp/?a&b", baseUrl), "legacy", { headers });
    assert.deepEqual(await listedTools(legacy.client), ["a_tool", "b_tool", "list_server_toolsets"]);
    const modern = await connectV2(cleanup, url, "modern", { headers: { ...headers, "X-MCP-Toolsets": "only=b" } });
    assert.deepEqual(await listedTools(modern.client), ["b_tool", "list_server_toolsets"]);
    assert.equal(await callText(modern.client, "b_tool"), "b");
    assert.ok(guard.reached.includes("POST b") && guard.reached.includes("POST a,b"));
  });
});
