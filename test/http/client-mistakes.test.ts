// A client's mistake is never a 500 (docs/design.md §16, issue 11 defect 2): a Content-Encoding the server does not
// serve or a body that is not what its coding says, a charset other than UTF-8, JSON nested beyond http.maxJsonDepth
// (refused before anything re-serialises it: 30 KB of brackets used to overflow the SDK's stack), a Host header
// that is no host — each a 4xx with a JSON-RPC error body, in both eras; an absolute-form request target is served.
// None of them leaves an error line in the log.
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
import type { McpExtension } from "../../src/extension/types.js";
import type { LogRecord } from "../../src/logger.js";
import { jsonDepth } from "../../src/http/edge/json-body.js";
import { Cleanup, LEGACY_POST_HEADERS, legacyInitialize, raw, serveHost } from "../helpers/http-host.js";
import { rawRequest } from "../helpers/raw-http.js";

const extensions: McpExtension[] = [
  {
    name: "a",
    toolsets: [{ name: "a" }],
    tools: [{ name: "echo", handler: (args) => ({ content: [{ type: "text", text: JSON.stringify(args) }] }) }],
  },
];

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

const MODERN_META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };

/** A request of each era: its headers and a body whose `arguments` can carry any value. */
const ERAS = {
  legacy: {
    headers: { ...LEGACY_POST_HEADERS },
    body: (value: unknown = 1) =>
      value === 1
        ? legacyInitialize()
        : JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { ...JSON.parse(legacyInitialize()).params, value } }),
  },
  modern: {
    headers: { ...LEGACY_POST_HEADERS, "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "echo" },
    body: (value: unknown = 1) =>
      JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo", arguments: { value }, _meta: MODERN_META } }),
  },
} as const;

function errorLines(records: readonly LogRecord[]): string[] {
  return records.filter((r) => r.level === "error").map((r) => r.message);
}

/** A value nested `depth` levels deep (the request envelope adds its own levels around it). */
function nested(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = i % 2 === 0 ? [value] : { a: value };
  return value;
}

/** The body of `era` whose whole nesting is exactly `depth` levels. */
function bodyOfDepth(era: keyof typeof ERAS, depth: number): string {
  for (let k = 1; k < depth; k++) {
    const body = ERAS[era].body(nested(k));
    if (jsonDepth(body, 1_000) === depth) return body;
  }
  throw new Error(`no ${era} body of depth ${depth}`);
}

/** The body of `era` with `levels` of brackets as its argument, written as text (JSON.stringify would overflow). */
function bracketBody(era: keyof typeof ERAS, levels: number): string {
  return ERAS[era].body("@").replace('"@"', `${"[".repeat(levels)}${"]".repeat(levels)}`);
}

function assertServed(response: { status: number; json: any; text: string }, era: keyof typeof ERAS): void {
  assert.equal(response.status, 200, response.text);
  if (era === "legacy") assert.equal(response.json.result.serverInfo.name, "test-host");
  else assert.equal(response.json.result.isError, undefined, response.text);
}

for (const era of ["legacy", "modern"] as const) {
  describe(`client mistakes, ${era} era`, { timeout: 30_000 }, () => {
    it("serves gzip, deflate and br bodies; refuses x-bogus and a gzip header on a plain body with 415", async () => {
      const { url, records } = await serveHost(cleanup, extensions);
      const body = ERAS[era].body();
      for (const [coding, encoded] of [
        ["gzip", gzipSync(body)],
        ["deflate", deflateSync(body)],
        ["br", brotliCompressSync(body)],
      ] as const) {
        assertServed(await raw({ url, method: "POST", headers: { ...ERAS[era].headers, "content-encoding": coding }, body: encoded }), era);
      }
      const bogus = await raw({ url, method: "POST", headers: { ...ERAS[era].headers, "content-encoding": "x-bogus" }, body });
      assert.equal(bogus.status, 415);
      assert.equal(bogus.headers["accept-encoding"], "gzip, deflate, br");
      assert.deepEqual(bogus.json, {
        jsonrpc: "2.0",
        error: {
          code: -32700,
          message: 'Unsupported Media Type: the Content-Encoding "x-bogus" is not served; send the body as it is, or in gzip, deflate, br.',
        },
        id: null,
      });
      const notGzip = await raw({ url, method: "POST", headers: { ...ERAS[era].headers, "content-encoding": "gzip" }, body });
      assert.equal(notGzip.status, 415);
      assert.deepEqual(notGzip.json, {
        jsonrpc: "2.0",
        error: { code: -32700, message: 'Unsupported Media Type: the body could not be decoded as "gzip" (its Content-Encoding).' },
        id: null,
      });
      assert.deepEqual(errorLines(records), []);
    });

    it("refuses a charset other than UTF-8 with 415, and serves UTF-8 in any case", async () => {
      const { url, records } = await serveHost(cleanup, extensions);
      for (const charset of ["latin1", "iso-8859-1", "utf-16"]) {
        const refused = await raw({
          url,
          method: "POST",
          headers: { ...ERAS[era].headers, "content-type": `application/json; charset=${charset}` },
          body: ERAS[era].body(),
        });
        assert.equal(refused.status, 415, charset);
        assert.deepEqual(refused.json, {
          jsonrpc: "2.0",
          error: { code: -32700, message: `Unsupported Media Type: the charset "${charset}" is not served; send JSON in UTF-8.` },
          id: null,
        });
      }
      for (const charset of ["utf-8", "UTF-8"]) {
        assertServed(
          await raw({ url, method: "POST", headers: { ...ERAS[era].headers, "content-type": `application/json; charset=${charset}` }, body: ERAS[era].body() }),
          era,
        );
      }
      assert.deepEqual(errorLines(records), []);
    });

    it("refuses JSON nested beyond http.maxJsonDepth with 400 — 30 KB of brackets included — and serves it at the limit", async () => {
      const { url, records } = await serveHost(cleanup, extensions, { http: { maxJsonDepth: 40 } });
      assertServed(await raw({ url, method: "POST", headers: ERAS[era].headers, body: bodyOfDepth(era, 40) }), era);
      const brackets = bracketBody(era, 15_000);
      assert.ok(brackets.length > 30_000);
      for (const body of [bodyOfDepth(era, 41), brackets]) {
        const refused = await raw({ url, method: "POST", headers: ERAS[era].headers, body });
        assert.equal(refused.status, 400);
        assert.deepEqual(refused.json, {
          jsonrpc: "2.0",
          error: { code: -32700, message: "Parse error: the JSON body nests deeper than 40 levels (http.maxJsonDepth)." },
          id: null,
        });
      }
      assert.deepEqual(errorLines(records), []);
    });

    it("refuses 30 KB of brackets at the default depth limit (64) too", async () => {
      const { url, records } = await serveHost(cleanup, extensions);
      const refused = await raw({ url, method: "POST", headers: ERAS[era].headers, body: bracketBody(era, 15_000) });
      assert.equal(refused.status, 400);
      assert.equal(refused.json.error.message, "Parse error: the JSON body nests deeper than 64 levels (http.maxJsonDepth).");
      assert.deepEqual(errorLines(records), []);
    });

    it("serves an absolute-form request target, and checks the Host it names", async () => {
      const { url, baseUrl, records } = await serveHost(cleanup, extensions);
      const port = Number(baseUrl.port);
      const served = await rawRequest({ port, target: `http://127.0.0.1:${port}/mcp`, method: "POST", headers: ERAS[era].headers, body: ERAS[era].body() });
      assertServed(served, era);
      const withQuery = await rawRequest({
        port,
        target: `http://localhost:${port}/mcp?only=a`,
        method: "POST",
        headers: ERAS[era].headers,
        body: ERAS[era].body(),
      });
      assertServed(withQuery, era);
      // RFC 9112 §3.2.2: the target's authority replaces the Host header, so the DNS-rebinding check sees it.
      const foreign = await rawRequest({ port, target: "http://evil.example.com/mcp", method: "POST", headers: ERAS[era].headers, body: ERAS[era].body() });
      assert.equal(foreign.status, 403);
      assert.match(foreign.json.error.message, /Host "evil\.example\.com" is not allowed/);
      assert.equal((await raw({ url, method: "POST", headers: ERAS[era].headers, body: ERAS[era].body() })).status, 200);
      assert.deepEqual(errorLines(records), []);
    });

    it("refuses a Host header that is no host with 400", async () => {
      const { url, records } = await serveHost(cleanup, extensions);
      for (const host of ["127.0.0.1:99999", "127.0.0.1:80/x", "127.0.0.1 x"]) {
        const refused = await raw({ url, method: "POST", headers: { ...ERAS[era].headers, host }, body: ERAS[era].body() });
        assert.equal(refused.status, 400, host);
        assert.equal(refused.json.error.code, -32600, host);
        assert.match(refused.json.error.message, /^Bad Request: the Host header (is not a host name|has a port beyond 65535)\.$/, host);
      }
      assert.deepEqual(errorLines(records), []);
    });
  });
}
