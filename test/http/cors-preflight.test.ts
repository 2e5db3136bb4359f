// CORS that works from a browser (docs/design.md §8, issue 10 item 3): a configured CORS origin is an allowed origin,
// so the browser's preflight (OPTIONS with Origin and Access-Control-Request-*) gets 204 with that origin and the
// very headers it asked for — `Mcp-Param-*` is no header name a browser accepts, so the request's own are
// reflected when they are MCP headers — and the real cross-origin request that follows is served. The same holds
// for CORS put in a serverFactory (the documented way), and a stranger origin is still refused.
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import cors from "cors";
import express from "express";
import type { McpExtension } from "../../src/extension/types.js";
import { bearerAuth, jwtVerifier } from "../../src/http/auth/index.js";
import { mcpCors } from "../../src/http/mcp/cors.js";
import { type AuthorizationServer, startAuthorizationServer } from "../fixtures/auth/authorization-server.js";
import { AUDIENCE, bearer } from "../helpers/auth-host.js";
import { Cleanup, raw, serveHost } from "../helpers/http-host.js";

const APP = "https://app.example.com";
const extensions: McpExtension[] = [
  {
    name: "weather",
    toolsets: [{ name: "weather" }],
    tools: [{ name: "forecast", handler: () => ({ content: [{ type: "text", text: "sunny" }] }) }],
  },
];

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

async function authorizationServer(): Promise<AuthorizationServer> {
  const as = await startAuthorizationServer();
  cleanup.add(() => as.close());
  return as;
}

/** What a browser sends before a cross-origin 2026-07-28 tools/call (Mcp-Param-City mirrors a tool argument). */
const PREFLIGHT_HEADERS = {
  origin: APP,
  "access-control-request-method": "POST",
  "access-control-request-headers": "authorization,content-type,mcp-method,mcp-name,mcp-param-city,mcp-protocol-version,x-mcp-toolsets",
};

/** A 2026-07-28 tools/call as a browser would POST it after the preflight. */
function modernCall(origin: string, extra: Record<string, string> = {}) {
  return {
    method: "POST",
    headers: {
      origin,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": "forecast",
      "x-mcp-toolsets": "only=weather",
      ...extra,
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: {
        name: "forecast",
        arguments: {},
        _meta: {
          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientCapabilities": {},
          "io.modelcontextprotocol/clientInfo": { name: "browser", version: "1" },
        },
      },
    }),
  };
}

function headerList(value: string | string[] | undefined): string[] {
  return String(value ?? "")
    .split(",")
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean)
    .sort();
}

describe("CORS from a browser", { timeout: 30_000 }, () => {
  it("answers the preflight of a configured origin (no allowedOrigins needed) with the headers it asked for, then serves the request", async () => {
    const { url } = await serveHost(cleanup, extensions, { http: { cors: { origin: [APP] } } });
    const preflight = await raw({ url: new URL(`${url.href}?only=weather`), method: "OPTIONS", headers: PREFLIGHT_HEADERS });
    assert.equal(preflight.status, 204, preflight.text);
    assert.equal(preflight.headers["access-control-allow-origin"], APP);
    assert.deepEqual(headerList(preflight.headers["access-control-allow-headers"]), [
      "authorization",
      "content-type",
      "mcp-method",
      "mcp-name",
      "mcp-param-city",
      "mcp-protocol-version",
      "x-mcp-toolsets",
    ]);
    assert.ok(!String(preflight.headers["access-control-allow-headers"]).includes("*"), "no wildcard a browser would not honour");
    assert.match(String(preflight.headers["access-control-allow-methods"]), /POST/);
    assert.match(String(preflight.headers.vary), /Origin/i);

    const call = await raw({ url: new URL(`${url.href}?only=weather`), ...modernCall(APP) });
    assert.equal(call.status, 200, call.text);
    assert.equal(call.headers["access-control-allow-origin"], APP);
    assert.deepEqual(headerList(call.headers["access-control-expose-headers"]), ["mcp-protocol-version", "mcp-session-id", "www-authenticate"]);
    assert.deepEqual(call.json.result.content, [{ type: "text", text: "sunny" }]);
  });

  it("does not allow a header that is not an MCP header", async () => {
    const { url } = await serveHost(cleanup, extensions, { http: { cors: { origin: [APP] } } });
    const preflight = await raw({
      url,
      method: "OPTIONS",
      headers: { ...PREFLIGHT_HEADERS, "access-control-request-headers": "content-type,x-evil,mcp-method" },
    });
    assert.equal(preflight.status, 204);
    assert.deepEqual(headerList(preflight.headers["access-control-allow-headers"]), ["content-type", "mcp-method"]);
  });

  it("still refuses an origin that is neither configured for CORS nor allowed, preflight and request alike", async () => {
    const { url } = await serveHost(cleanup, extensions, { http: { cors: { origin: [APP] } } });
    const stranger = "https://other.example.com";
    const preflight = await raw({ url, method: "OPTIONS", headers: { ...PREFLIGHT_HEADERS, origin: stranger } });
    assert.equal(preflight.status, 403);
    assert.equal(preflight.headers["access-control-allow-origin"], undefined);
    const call = await raw({ url, ...modernCall(stranger) });
    assert.equal(call.status, 403);
    assert.equal(
      call.json.error.message,
      `Forbidden: Origin "${stranger}" is not allowed. Add it to http.allowedOrigins, or to http.cors for a browser app, to serve it.`,
    );
  });

  it("treats `cors: true` (any origin, what --cors * sets) as allowing every origin", async () => {
    const { url } = await serveHost(cleanup, extensions, { http: { cors: true } });
    const anywhere = "https://anywhere.example.net";
    const preflight = await raw({ url, method: "OPTIONS", headers: { ...PREFLIGHT_HEADERS, origin: anywhere } });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers["access-control-allow-origin"], anywhere);
    const call = await raw({ url, ...modernCall(anywhere) });
    assert.equal(call.status, 200, call.text);
  });

  it("lets CORS in a serverFactory (the cors package, as documented) answer the preflight and serve the request", async () => {
    const { url } = await serveHost(cleanup, extensions, {
      host: {
        serverFactory: ({ handler }) =>
          express.Router().use(cors({ origin: [APP], exposedHeaders: ["Mcp-Session-Id", "MCP-Protocol-Version", "WWW-Authenticate"] }), handler),
      },
    });
    const preflight = await raw({ url: new URL(`${url.href}?only=weather`), method: "OPTIONS", headers: PREFLIGHT_HEADERS });
    assert.equal(preflight.status, 204, preflight.text);
    assert.equal(preflight.headers["access-control-allow-origin"], APP);
    const call = await raw({ url: new URL(`${url.href}?only=weather`), ...modernCall(APP) });
    assert.equal(call.status, 200, call.text);
    assert.equal(call.headers["access-control-allow-origin"], APP);
    assert.deepEqual(call.json.result.content, [{ type: "text", text: "sunny" }]);
    const stranger = await raw({ url, ...modernCall("https://other.example.com") });
    assert.equal(stranger.status, 403, "the factory's CORS did not accept it, so the Origin check refuses it");
  });

  it("with auth on, passes the preflight without a token, while the request needs one; the refusal is readable cross-origin", async () => {
    const as = await authorizationServer();
    const { url } = await serveHost(cleanup, extensions, {
      http: { cors: { origin: [APP] }, auth: { issuer: as.issuer, audience: AUDIENCE, jwksUri: as.jwksUri } },
    });
    const target = new URL(`${url.href}?only=weather`);
    const preflight = await raw({ url: target, method: "OPTIONS", headers: PREFLIGHT_HEADERS });
    assert.equal(preflight.status, 204, preflight.text);
    assert.equal(preflight.headers["access-control-allow-origin"], APP);
    assert.ok(headerList(preflight.headers["access-control-allow-headers"]).includes("authorization"));

    const anonymous = await raw({ url: target, ...modernCall(APP) });
    assert.equal(anonymous.status, 401);
    assert.equal(anonymous.headers["access-control-allow-origin"], APP, "the browser may read the 401");
    assert.ok(headerList(anonymous.headers["access-control-expose-headers"]).includes("www-authenticate"), "…and its challenge");
    assert.match(String(anonymous.headers["www-authenticate"]), /resource_metadata="[^"]+\/\.well-known\/oauth-protected-resource\/mcp\?only=weather"/);

    const withToken = await raw({ url: target, ...modernCall(APP, bearer(await as.mint())) });
    assert.equal(withToken.status, 200, withToken.text);
    assert.equal(withToken.headers["access-control-allow-origin"], APP);
    assert.deepEqual(withToken.json.result.content, [{ type: "text", text: "sunny" }]);
  });

  it("serves a serverFactory with mcpCors and bearerAuth (the recipe for a deployment's own chain) the same way", async () => {
    const as = await authorizationServer();
    const verifier = jwtVerifier({ issuer: as.issuer, audience: AUDIENCE, jwksUri: as.jwksUri });
    const { url } = await serveHost(cleanup, extensions, {
      host: { serverFactory: ({ handler }) => express.Router().use(mcpCors({ origin: [APP] }), bearerAuth({ verifier }), handler) },
    });
    const target = new URL(`${url.href}?only=weather`);
    const preflight = await raw({ url: target, method: "OPTIONS", headers: PREFLIGHT_HEADERS });
    assert.equal(preflight.status, 204, preflight.text);
    assert.equal(preflight.headers["access-control-allow-origin"], APP);
    assert.deepEqual(headerList(preflight.headers["access-control-allow-headers"]), headerList(PREFLIGHT_HEADERS["access-control-request-headers"]));
    const anonymous = await raw({ url: target, ...modernCall(APP) });
    assert.equal(anonymous.status, 401);
    assert.equal(anonymous.headers["access-control-allow-origin"], APP);
    const withToken = await raw({ url: target, ...modernCall(APP, bearer(await as.mint())) });
    assert.equal(withToken.status, 200, withToken.text);
    assert.equal(withToken.headers["access-control-allow-origin"], APP);
  });
});
