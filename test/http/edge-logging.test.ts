// The log says what happened at the right level (docs/design.md §16, issue 11 defect 3): a client that abandons its
// upload is a debug line, not an "unexpected error"; a client's mistake the SDK refuses is a debug line; a bug
// behind a 2026-07-28 answer — which used to leave no line at the default level — is an error line with the detail.
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { McpExtension } from "../../src/extension/types.js";
import type { ServerFactory } from "../../src/host/built-server.js";
import { createLogger, type LogRecord } from "../../src/logger.js";
import { Cleanup, LEGACY_POST_HEADERS, raw, serveHost } from "../helpers/http-host.js";
import { postHead, RawSocket } from "../helpers/raw-http.js";

const extensions: McpExtension[] = [
  { name: "a", toolsets: [{ name: "a" }], tools: [{ name: "echo", handler: () => ({ content: [{ type: "text", text: "echo" }] }) }] },
];

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

/** A debug-level logger whose records a test can wait for. */
function watchedLogger() {
  const records: LogRecord[] = [];
  const waiters: Array<{ pattern: RegExp; resolve: (r: LogRecord) => void }> = [];
  const logger = createLogger({
    level: "debug",
    sink: (record) => {
      records.push(record);
      for (const w of waiters.filter((w) => w.pattern.test(record.message))) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(record);
      }
    },
  });
  const record = (pattern: RegExp) => {
    const seen = records.find((r) => pattern.test(r.message));
    return seen ? Promise.resolve(seen) : new Promise<LogRecord>((resolve) => waiters.push({ pattern, resolve }));
  };
  return { logger, records, record };
}

const MODERN_HEADERS = { ...LEGACY_POST_HEADERS, "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/list" };
const MODERN_LIST = JSON.stringify({
  jsonrpc: "2.0",
  id: 3,
  method: "tools/list",
  params: { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} } },
});

describe("what the edge logs", { timeout: 30_000 }, () => {
  it("logs a client that abandons its upload at debug, not as an unexpected error", async () => {
    const { logger, records, record } = watchedLogger();
    const { served, baseUrl } = await serveHost(cleanup, extensions, { host: { logger } });
    const arrived = new Promise<void>((resolve) => served.http.once("request", () => resolve()));
    const client = new RawSocket(Number(baseUrl.port));
    await client.send(`${postHead("/mcp", { host: `127.0.0.1:${baseUrl.port}`, ...LEGACY_POST_HEADERS }, 10_000)}{"jsonrpc":"2.0",`);
    await arrived;
    client.destroy();
    const line = await record(/went away|request aborted/);
    assert.equal(line.level, "debug");
    assert.equal(line.message, "the client of POST /mcp went away before its request was read");
    assert.deepEqual(
      records.filter((r) => r.level === "error" || r.level === "warn"),
      [],
    );
  });

  it("logs a request the SDK refuses as the client's mistake at debug", async () => {
    const { logger, records, record } = watchedLogger();
    const { url } = await serveHost(cleanup, extensions, { host: { logger } });
    const refused = await raw({ url, method: "POST", headers: { ...MODERN_HEADERS, "mcp-method": "tools/call" }, body: MODERN_LIST });
    assert.equal(refused.status, 400);
    const line = await record(/Rejected inbound request/);
    assert.equal(line.level, "debug");
    assert.deepEqual(
      records.filter((r) => r.level === "error"),
      [],
    );
  });

  it("logs a bug behind a 2026-07-28 answer at error, with the detail, and sends nothing internal", async () => {
    const { logger, records, record } = watchedLogger();
    // A deployment's middleware with a bug: it leaves the request with a Host no URL can be made of.
    const serverFactory: ServerFactory = ({ handler }) => {
      return (req, res, next) => {
        req.headers.host = "127.0.0.1:99999";
        return handler(req, res, next);
      };
    };
    const { url } = await serveHost(cleanup, extensions, { host: { logger, serverFactory } });
    const answer = await raw({ url, method: "POST", headers: MODERN_HEADERS, body: MODERN_LIST });
    assert.equal(answer.status, 500);
    assert.deepEqual(answer.json, { jsonrpc: "2.0", error: { code: -32603, message: "Internal server error" }, id: 3 });
    const line = await record(/could not be served|internal error/);
    assert.equal(line.level, "error");
    assert.match(line.message, /^selection "a": a 2026-07-28 request could not be served: .*URL/);
    assert.equal(typeof line.data?.stack, "string");
    assert.ok(records.every((r) => r.level !== "error" || r === line));
  });
});
