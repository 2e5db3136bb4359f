// The HTTP edge (docs/design.md §8, issue 3 part 5): Host and Origin checks on by default (loopback always allowed,
// widened by allowedHosts/allowedOrigins), CORS only when configured and then with the MCP headers allowed and
// exposed, a body-size limit (413), malformed JSON (400, -32700), an unknown session (404), GET with no stream
// (405), unknown paths (404), and bugs answered with a bare -32603 that carries nothing internal — while a tool
// that throws is still an isError result, not an HTTP error.
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { McpExtension } from "../../src/extension/types.js";
import type { ServerFactory } from "../../src/host/built-server.js";
import { Cleanup, LEGACY_POST_HEADERS, connectV1, connectV2, errorText, legacyInitialize, raw, rawLegacyInitialize, serveHost } from "../helpers/http-host.js";

const extensions: McpExtension[] = [
  {
    name: "a",
    toolsets: [{ name: "a" }],
    tools: [
      { name: "fine", handler: () => ({ content: [{ type: "text", text: "fine" }] }) },
      {
        name: "explode",
        handler: () => {
          throw new Error("the widget is out of sprockets");
        },
      },
    ],
  },
];

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

const INTERNAL_ERROR = { jsonrpc: "2.0", error: { code: -32603, message: "Internal error" }, id: null };

function headerList(value: string | string[] | undefined): string[] {
  return String(value ?? "")
    .split(",")
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
}

describe("DNS-rebinding protection", { timeout: 30_000 }, () => {
  it("refuses a Host that is not loopback with 403, and allows loopback hosts", async () => {
    const { url, baseUrl } = await serveHost(cleanup, extensions);
    const port = baseUrl.port;
    for (const path of ["/mcp?only=a", "/healthz", "/toolsets"]) {
      const refused = await raw({
        url: new URL(path, baseUrl),
        method: path.startsWith("/mcp") ? "POST" : "GET",
        headers: { ...LEGACY_POST_HEADERS, host: `evil.example.com:${port}` },
        body: path.startsWith("/mcp") ? legacyInitialize() : undefined,
      });
      assert.equal(refused.status, 403, path);
      assert.deepEqual(refused.json, {
        jsonrpc: "2.0",
        error: { code: -32000, message: 'Forbidden: Host "evil.example.com" is not allowed. Add it to http.allowedHosts to serve it.' },
        id: null,
      });
    }
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, `127.1.2.3:${port}`]) {
      assert.equal((await rawLegacyInitialize(url, { host })).status, 200, host);
    }
  });

  it("allows the hosts in allowedHosts and still refuses others", async () => {
    const { url, baseUrl } = await serveHost(cleanup, extensions, { http: { allowedHosts: ["mcp.example.com"] } });
    const allowed = await rawLegacyInitialize(url, { host: `mcp.example.com:${baseUrl.port}` });
    assert.equal(allowed.status, 200);
    assert.equal(allowed.json.result.serverInfo.name, "test-host");
    assert.equal((await raw({ url: new URL("/healthz", baseUrl), headers: { host: "MCP.example.com" } })).status, 200);
    assert.equal((await raw({ url: new URL("/healthz", baseUrl), headers: { host: "other.example.com" } })).status, 403);
  });

  it("refuses a foreign Origin with 403, allows loopback origins and those in allowedOrigins", async () => {
    const { url } = await serveHost(cleanup, extensions, { http: { allowedOrigins: ["https://app.example.com"] } });
    const refused = await rawLegacyInitialize(url, { origin: "http://evil.example.com" });
    assert.equal(refused.status, 403);
    assert.deepEqual(refused.json, {
      jsonrpc: "2.0",
      error: {
        code: -32000,
        message: 'Forbidden: Origin "http://evil.example.com" is not allowed. Add it to http.allowedOrigins, or to http.cors for a browser app, to serve it.',
      },
      id: null,
    });
    assert.equal((await rawLegacyInitialize(url, { origin: "https://app.example.com" })).status, 200);
    assert.equal((await rawLegacyInitialize(url, { origin: "http://localhost:5173" })).status, 200);
    assert.equal((await rawLegacyInitialize(url, { origin: "null" })).status, 403);
  });

  it("refuses a foreign Origin when allowedOrigins is not configured", async () => {
    const { url } = await serveHost(cleanup, extensions);
    assert.equal((await rawLegacyInitialize(url, { origin: "http://evil.example.com" })).status, 403);
    assert.equal((await rawLegacyInitialize(url, { origin: "https://app.example.com" })).status, 403);
  });
});

describe("CORS", { timeout: 30_000 }, () => {
  it("answers a preflight with the MCP headers allowed, and exposes the session, version and auth headers, when configured", async () => {
    const origin = "https://app.example.com";
    const { url } = await serveHost(cleanup, extensions, { http: { cors: { origin: [origin] }, allowedOrigins: [origin] } });
    const preflight = await raw({
      url: new URL(`${url.href}?only=a`),
      method: "OPTIONS",
      headers: {
        origin,
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type, authorization, mcp-session-id, mcp-method, x-mcp-toolsets",
      },
    });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers["access-control-allow-origin"], origin);
    // The MCP headers the preflight asked for, exactly (reflected: Mcp-Param-<name> headers cannot be listed ahead).
    assert.deepEqual(headerList(preflight.headers["access-control-allow-headers"]), [
      "content-type",
      "authorization",
      "mcp-session-id",
      "mcp-method",
      "x-mcp-toolsets",
    ]);
    assert.match(String(preflight.headers["access-control-allow-methods"]), /POST/);

    const post = await rawLegacyInitialize(url, { origin });
    assert.equal(post.status, 200);
    assert.equal(post.headers["access-control-allow-origin"], origin);
    assert.deepEqual(headerList(post.headers["access-control-expose-headers"]), ["mcp-session-id", "mcp-protocol-version", "www-authenticate"]);

    const stranger = await raw({ url, method: "OPTIONS", headers: { origin: "https://other.example.com", "access-control-request-method": "POST" } });
    assert.equal(stranger.headers["access-control-allow-origin"], undefined);
  });

  it("sends no CORS headers when CORS is not configured", async () => {
    const { url } = await serveHost(cleanup, extensions);
    const origin = "http://localhost:5173";
    const preflight = await raw({
      url,
      method: "OPTIONS",
      headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "mcp-session-id" },
    });
    assert.equal(preflight.headers["access-control-allow-origin"], undefined);
    assert.equal(preflight.headers["access-control-allow-headers"], undefined);
    const post = await rawLegacyInitialize(url, { origin });
    assert.equal(post.status, 200);
    assert.equal(post.headers["access-control-allow-origin"], undefined);
    assert.equal(post.headers["access-control-expose-headers"], undefined);
  });
});

describe("bad input never gets a 500", { timeout: 30_000 }, () => {
  it("answers a body over maxBodyBytes with 413", async () => {
    const { url } = await serveHost(cleanup, extensions, { http: { maxBodyBytes: 1024 } });
    const big = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { padding: "x".repeat(2048) } });
    const response = await raw({ url, method: "POST", headers: LEGACY_POST_HEADERS, body: big });
    assert.equal(response.status, 413);
    assert.deepEqual(response.json, {
      jsonrpc: "2.0",
      error: { code: -32600, message: "Request body too large: the limit is 1024 bytes (http.maxBodyBytes)." },
      id: null,
    });
    assert.equal((await rawLegacyInitialize(url)).status, 200, "a body under the limit is served");
  });

  it("answers malformed JSON with 400 and a JSON-RPC parse error (-32700)", async () => {
    const { url } = await serveHost(cleanup, extensions);
    const response = await raw({ url, method: "POST", headers: LEGACY_POST_HEADERS, body: '{"jsonrpc": "2.0", "id": 1, "method": ' });
    assert.equal(response.status, 400);
    assert.deepEqual(response.json, { jsonrpc: "2.0", error: { code: -32700, message: "Parse error: the request body is not valid JSON." }, id: null });
  });

  it("answers a POST that is not JSON with 415 and says what to send", async () => {
    const { url } = await serveHost(cleanup, extensions);
    const response = await raw({ url, method: "POST", headers: { ...LEGACY_POST_HEADERS, "content-type": "text/plain" }, body: "hello" });
    assert.equal(response.status, 415);
    assert.deepEqual(response.json, {
      jsonrpc: "2.0",
      error: { code: -32700, message: 'Unsupported Media Type: an MCP request is a JSON-RPC message sent with "Content-Type: application/json".' },
      id: null,
    });
  });

  it("answers an unknown session with 404", async () => {
    const { url } = await serveHost(cleanup, extensions);
    const response = await raw({
      url,
      method: "POST",
      headers: { ...LEGACY_POST_HEADERS, "mcp-session-id": "00000000-0000-4000-8000-000000000000" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
    });
    assert.equal(response.status, 404);
    assert.equal(response.json.error.code, -32001);
    assert.match(response.json.error.message, /^Session not found/);
  });

  it("answers GET and DELETE without a session with 405 and Allow: POST", async () => {
    const { url } = await serveHost(cleanup, extensions);
    for (const method of ["GET", "DELETE"]) {
      const response = await raw({ url, method, headers: { accept: "text/event-stream" } });
      assert.equal(response.status, 405, method);
      assert.equal(response.headers.allow, "POST");
      assert.deepEqual(response.json, {
        jsonrpc: "2.0",
        error: { code: -32000, message: `Method not allowed: ${method} needs a 2025-era session (Mcp-Session-Id); the 2026-07-28 protocol uses POST only.` },
        id: null,
      });
    }
  });

  it("answers unknown paths with 404 JSON that points at the endpoint", async () => {
    const { baseUrl } = await serveHost(cleanup, extensions);
    const response = await raw({ url: new URL("/nope", baseUrl) });
    assert.equal(response.status, 404);
    assert.deepEqual(response.json, {
      jsonrpc: "2.0",
      error: { code: -32601, message: "Not found: GET /nope. The MCP endpoint is /mcp; see also /toolsets and /healthz." },
      id: null,
    });
  });
});

describe("bugs", { timeout: 30_000 }, () => {
  for (const how of ["throws", "rejects"] as const) {
    it(`answers a handler that ${how} a non-MCP error with 500 and a bare -32603, and logs it`, async () => {
      const serverFactory: ServerFactory = () =>
        how === "throws"
          ? () => {
              throw new Error("secret internal detail in /srv/app/internal.js");
            }
          : async () => {
              throw new Error("secret internal detail in /srv/app/internal.js");
            };
      const { url, records } = await serveHost(cleanup, extensions, { host: { serverFactory } });
      const response = await rawLegacyInitialize(url);
      assert.equal(response.status, 500);
      assert.deepEqual(response.json, INTERNAL_ERROR);
      assert.doesNotMatch(response.text, /secret|internal\.js|at /);
      assert.ok(
        records.some((r) => r.level === "error" && r.message.includes("secret internal detail")),
        "the bug is logged server-side",
      );
    });
  }

  it("turns a tool that throws into an isError result carrying its message, in both eras", async () => {
    const { url } = await serveHost(cleanup, extensions);
    const { client: v1 } = await connectV1(cleanup, url);
    assert.equal(errorText(await v1.callTool({ name: "explode", arguments: {} })), "the widget is out of sprockets");
    for (const era of ["legacy", "modern"] as const) {
      const { client } = await connectV2(cleanup, url, era);
      assert.equal(errorText(await client.callTool({ name: "explode", arguments: {} })), "the widget is out of sprockets", era);
      assert.deepEqual(
        (await client.callTool({ name: "fine", arguments: {} })).content,
        [{ type: "text", text: "fine" }],
        `${era}: the connection still serves`,
      );
    }
  });
});
