// What one caller may ask of the MCP endpoint (docs/design.md §16, issue 11 build 3): a request rate (a bucket of
// http.callerBurst refilled at http.callerRequestsPerSecond; off by default) and requests in flight at once
// (http.callerMaxConcurrent, 128 by default; streams do not count) — beyond either, 429 with Retry-After and a
// JSON-RPC error naming the limit. The caller is the token's subject when auth is on (two subjects behind one
// address are two callers), else the client address. On a manual clock: the host's, which the app follows.
import { after, afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { HTTP_DEFAULTS } from "../../src/http/edge/http-defaults.js";
import type { AuthorizationServer } from "../fixtures/auth/authorization-server.js";
import { authorizationServerFor, bearer, LeakWatch, serveAuthHost } from "../helpers/auth-host.js";
import { Cleanup, connectV1, LEGACY_POST_HEADERS, legacyInitialize, raw, serveHost, watchLegacyStreams } from "../helpers/http-host.js";
import { gatedExtension } from "../helpers/gated-tool.js";
import { ManualClock } from "../helpers/manual-clock.js";

const cleanup = new Cleanup();
const watch = new LeakWatch();
const servers: AuthorizationServer[] = [];
afterEach(() => cleanup.run());
after(() => watch.assertClean(servers.flatMap((s) => s.issuedTokens())));

const MODERN_META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
const MODERN_HEADERS = { ...LEGACY_POST_HEADERS, "mcp-protocol-version": "2026-07-28" };

function modernCall(url: URL, name: string, headers: Record<string, string> = {}) {
  return raw({
    url,
    method: "POST",
    headers: { ...MODERN_HEADERS, "mcp-method": "tools/call", "mcp-name": name, ...headers },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: {}, _meta: MODERN_META } }),
  });
}

function modernList(url: URL, headers: Record<string, string> = {}) {
  return raw({
    url,
    method: "POST",
    headers: { ...MODERN_HEADERS, "mcp-method": "tools/list", ...headers },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: MODERN_META } }),
  });
}

describe("caller limits", { timeout: 30_000 }, () => {
  it("pins the defaults: no rate limit, a burst of 100 when one is set, 128 requests in flight", () => {
    assert.deepEqual(
      { rate: HTTP_DEFAULTS.callerRequestsPerSecond, burst: HTTP_DEFAULTS.callerBurst, concurrent: HTTP_DEFAULTS.callerMaxConcurrent },
      { rate: 0, burst: 100, concurrent: 128 },
    );
  });

  it("refuses requests over a caller's rate with 429 and Retry-After, and serves it again once its bucket refills", async () => {
    const clock = new ManualClock();
    const { url } = await serveHost(cleanup, [gatedExtension().extension], { host: { clock }, http: { callerRequestsPerSecond: 2, callerBurst: 3 } });
    for (let i = 0; i < 3; i++) assert.equal((await modernList(url)).status, 200, `request ${i + 1}`);
    const refused = await modernList(url);
    assert.equal(refused.status, 429);
    assert.equal(refused.headers["retry-after"], "1");
    assert.deepEqual(refused.json, {
      jsonrpc: "2.0",
      error: {
        code: -32000,
        message: "Too many requests: this caller may send 2 requests a second, 3 at once (http.callerRequestsPerSecond, http.callerBurst); retry after 1 s.",
      },
      id: null,
    });
    // The health route is not the MCP endpoint: it answers whatever the bucket holds.
    assert.equal((await raw({ url: new URL("/healthz", url) })).status, 200);
    await clock.advance(500);
    assert.equal((await modernList(url)).status, 200);
    assert.equal((await modernList(url)).status, 429);
  });

  it("refuses a caller's request beyond callerMaxConcurrent in flight with 429; a stream does not count", async () => {
    const streams = watchLegacyStreams();
    const gated = gatedExtension();
    const { url } = await serveHost(cleanup, [gated.extension], { http: { callerMaxConcurrent: 2 }, host: { serverFactory: streams.serverFactory } });
    // A legacy session's GET stream stays open by design: it is not a request in flight.
    await connectV1(cleanup, url);
    await streams.opened(1);
    const calls = [modernCall(url, "wait"), modernCall(url, "wait")];
    await gated.started(2);
    const refused = await modernList(url);
    assert.equal(refused.status, 429);
    assert.equal(refused.headers["retry-after"], "1");
    assert.equal(
      refused.json.error.message,
      "Too many requests at once: this caller may have 2 requests in flight (http.callerMaxConcurrent); retry after 1 s.",
    );
    gated.releaseAll();
    for (const call of await Promise.all(calls)) assert.equal(call.status, 200);
    assert.equal((await modernList(url)).status, 200);
  });

  it("counts the token's subject as the caller when auth is on: two subjects behind one address are two callers", async () => {
    const as = await authorizationServerFor(cleanup);
    servers.push(as);
    // Started now: the tokens' expiry is read on this clock too (the app hands it to the verifier).
    const clock = new ManualClock(Date.now());
    const served = await serveAuthHost(cleanup, watch, as, { http: { clock, callerRequestsPerSecond: 1, callerBurst: 1 } });
    const alice = bearer(await served.token({ sub: "alice" }));
    const bob = bearer(await served.token({ sub: "bob" }));
    const init = (headers: Record<string, string>) =>
      raw({ url: served.url, method: "POST", headers: { ...LEGACY_POST_HEADERS, ...headers }, body: legacyInitialize() });
    assert.equal((await init(alice)).status, 200);
    assert.equal((await init(alice)).status, 429);
    assert.equal((await init(bob)).status, 200);
  });
});
