// CORS as a real browser does it (issue 10 item 3): a page served from another origin calls mcp-host with fetch in
// headless Chromium. Chromium sends its own preflight (Mcp-Method, Mcp-Name, MCP-Protocol-Version, Mcp-Param-*,
// Authorization are no CORS-safelisted headers), reads the answer, and reads the exposed Mcp-Session-Id of a 2025
// session — which only works when the preflight and the response carry exactly the headers a browser honours. A
// page of an origin that is not configured gets nothing, and no tool runs for it. The page's origins are names
// Chromium resolves to 127.0.0.1 (--host-resolver-rules): not loopback names, so nothing is allowed by default.
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { McpExtension } from "../../src/extension/types.js";
import { openPage } from "../helpers/browser.js";
import { Cleanup, serveHost } from "../helpers/http-host.js";

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

const RESOLVE = "--host-resolver-rules=MAP app.example.test 127.0.0.1, MAP stranger.example.test 127.0.0.1";

function weather(calls: string[]): McpExtension[] {
  return [
    {
      name: "weather",
      toolsets: [{ name: "weather" }],
      tools: [
        {
          name: "forecast",
          inputSchema: { type: "object", properties: { city: { type: "string" } } },
          handler: (args: { city?: string }) => {
            calls.push(args.city ?? "");
            return { content: [{ type: "text", text: `sunny in ${args.city ?? "?"}` }] };
          },
        },
      ],
    },
  ];
}

/** A page server for the browser app: an empty HTML page at `/`, on 127.0.0.1:0. */
async function appServer(): Promise<{ port: number }> {
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end("<!doctype html><title>app</title><p>app</p>");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanup.add(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { port: (server.address() as AddressInfo).port };
}

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "browser", version: "1" },
};

/** What the page's script reports of one fetch: the status and body, or the error the browser gave. */
type Outcome = { ok: true; status: number; body: unknown; sessionId: string | null } | { ok: false; error: string };

describe("CORS from a real browser", { timeout: 120_000 }, () => {
  it("lets a configured origin's page call a tool in both eras and read the exposed session id", async () => {
    const calls: string[] = [];
    const app = await appServer();
    const appOrigin = `http://app.example.test:${app.port}`;
    const { url } = await serveHost(cleanup, weather(calls), { http: { cors: { origin: [appOrigin] } } });
    const { page, errors } = await openPage(cleanup, new URL(`${appOrigin}/`), { args: [RESOLVE] });

    const modern = (await page.evaluate(
      async ({ endpoint, meta }) => {
        try {
          const response = await fetch(endpoint, {
            method: "POST",
            headers: {
              "content-type": "application/json",
              accept: "application/json, text/event-stream",
              authorization: "Bearer not-checked-here",
              "mcp-protocol-version": "2026-07-28",
              "mcp-method": "tools/call",
              "mcp-name": "forecast",
              "x-mcp-toolsets": "only=weather",
            },
            body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "forecast", arguments: { city: "Paris" }, _meta: meta } }),
          });
          return { ok: true, status: response.status, body: await response.json(), sessionId: response.headers.get("mcp-session-id") };
        } catch (error) {
          return { ok: false, error: String(error) };
        }
      },
      { endpoint: url.href, meta: META },
    )) as Outcome;
    assert.equal(modern.ok, true, JSON.stringify(modern));
    if (!modern.ok) return;
    assert.equal(modern.status, 200);
    assert.deepEqual((modern.body as { result: { content: unknown } }).result.content, [{ type: "text", text: "sunny in Paris" }]);

    const legacy = (await page.evaluate(
      async ({ endpoint }) => {
        const headers = { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" };
        try {
          const init = await fetch(`${endpoint}?only=weather`, {
            method: "POST",
            headers,
            body: JSON.stringify({
              jsonrpc: "2.0",
              id: 1,
              method: "initialize",
              params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "browser", version: "1" } },
            }),
          });
          const sessionId = init.headers.get("mcp-session-id");
          await init.text();
          if (sessionId === null) return { ok: true, status: init.status, body: null, sessionId };
          const session = { ...headers, "mcp-session-id": sessionId };
          await fetch(`${endpoint}?only=weather`, {
            method: "POST",
            headers: session,
            body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
          });
          const call = await fetch(`${endpoint}?only=weather`, {
            method: "POST",
            headers: session,
            body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "forecast", arguments: { city: "Oslo" } } }),
          });
          const text = await call.text();
          // A 2025 session may answer with an SSE event; its data line holds the JSON-RPC answer.
          const data = text.startsWith("{") ? text : (/^data: (.*)$/m.exec(text)?.[1] ?? "null");
          return { ok: true, status: call.status, body: JSON.parse(data), sessionId };
        } catch (error) {
          return { ok: false, error: String(error) };
        }
      },
      { endpoint: url.href },
    )) as Outcome;
    assert.equal(legacy.ok, true, JSON.stringify(legacy));
    if (!legacy.ok) return;
    assert.match(legacy.sessionId ?? "", /^[\w-]{16,}$/, "the browser can read Mcp-Session-Id");
    assert.equal(legacy.status, 200);
    assert.deepEqual((legacy.body as { result: { content: unknown } }).result.content, [{ type: "text", text: "sunny in Oslo" }]);
    assert.deepEqual(calls, ["Paris", "Oslo"]);
    assert.deepEqual(errors, []);
  });

  it("gives a page of another origin nothing, and runs no tool for it", async () => {
    const calls: string[] = [];
    const app = await appServer();
    const { url } = await serveHost(cleanup, weather(calls), { http: { cors: { origin: [`http://app.example.test:${app.port}`] } } });
    const { page } = await openPage(cleanup, new URL(`http://stranger.example.test:${app.port}/`), { args: [RESOLVE] });
    const outcome = (await page.evaluate(
      async ({ endpoint, meta }) => {
        try {
          const response = await fetch(endpoint, {
            method: "POST",
            headers: { "content-type": "application/json", "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "forecast" },
            body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "forecast", arguments: { city: "Rome" }, _meta: meta } }),
          });
          return { ok: true, status: response.status, body: await response.text(), sessionId: null };
        } catch (error) {
          return { ok: false, error: String(error) };
        }
      },
      { endpoint: url.href, meta: META },
    )) as Outcome;
    assert.deepEqual(outcome, { ok: false, error: "TypeError: Failed to fetch" });
    assert.deepEqual(calls, []);
  });
});
