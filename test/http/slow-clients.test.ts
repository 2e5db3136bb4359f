// Slow and greedy clients hold little (docs/design.md §16, issue 11 defect 5): headers must arrive within
// http.headersTimeoutMs (10 s, not Node's 60 s) and a whole request within http.requestTimeoutMs (30 s, not 300 s),
// else 408 and the socket is closed; an idle keep-alive socket lasts http.keepAliveTimeoutMs; connections are capped
// in all (http.maxConnections) and per client address (http.maxConnectionsPerAddress), a connection over a cap
// closed at once while the others are served, and said in the log at most once a minute (on the host's clock).
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { Socket } from "node:net";
import type { McpExtension } from "../../src/extension/types.js";
import { Cleanup, LEGACY_POST_HEADERS, legacyInitialize, serveHost } from "../helpers/http-host.js";
import { ManualClock } from "../helpers/manual-clock.js";
import { postHead, RawSocket } from "../helpers/raw-http.js";

const extensions: McpExtension[] = [
  { name: "a", toolsets: [{ name: "a" }], tools: [{ name: "echo", handler: () => ({ content: [{ type: "text", text: "echo" }] }) }] },
];

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

function open(port: number): RawSocket {
  const socket = new RawSocket(port);
  cleanup.add(() => socket.destroy());
  return socket;
}

function initializeRequest(port: number): string {
  const body = legacyInitialize();
  return postHead("/mcp", { host: `127.0.0.1:${port}`, ...LEGACY_POST_HEADERS }, Buffer.byteLength(body)) + body;
}

/** Counts the server's own sockets that closed, so a test can wait until the server has let one go. */
function watchServerSockets(served: { http: import("node:http").Server }): { closed(count: number): Promise<void> } {
  let closed = 0;
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  served.http.on("connection", (socket: Socket) =>
    socket.once("close", () => {
      closed += 1;
      for (const w of waiters.filter((w) => w.count <= closed)) w.resolve();
    }),
  );
  return { closed: (count) => (closed >= count ? Promise.resolve() : new Promise((resolve) => waiters.push({ count, resolve }))) };
}

describe("slow clients", { timeout: 30_000 }, () => {
  it("pins the defaults: 10 s for headers, 30 s for a request, 5 s keep-alive, 4096 connections", async () => {
    const { served } = await serveHost(cleanup, extensions);
    assert.deepEqual(
      {
        headersTimeout: served.http.headersTimeout,
        requestTimeout: served.http.requestTimeout,
        keepAliveTimeout: served.http.keepAliveTimeout,
        maxConnections: served.http.maxConnections,
      },
      { headersTimeout: 10_000, requestTimeout: 30_000, keepAliveTimeout: 5_000, maxConnections: 4_096 },
    );
  });

  it("answers a socket that never finishes its headers with 408 and closes it", async () => {
    const { baseUrl, url } = await serveHost(cleanup, extensions, { http: { headersTimeoutMs: 1_000, requestTimeoutMs: 2_000 } });
    const slow = open(Number(baseUrl.port));
    await slow.send(`POST /mcp HTTP/1.1\r\nhost: 127.0.0.1:${baseUrl.port}\r\ncontent-type: application/json\r\n`);
    const end = await slow.ended;
    assert.equal(end.how, "closed", end.error);
    assert.match(end.received, /^HTTP\/1\.1 408 Request Timeout\r\n/);
    const fine = await fetch(url, { method: "POST", headers: LEGACY_POST_HEADERS, body: legacyInitialize() });
    assert.equal(fine.status, 200);
  });

  it("answers a request whose body never completes with 408 and closes it", async () => {
    const { baseUrl } = await serveHost(cleanup, extensions, { http: { headersTimeoutMs: 1_000, requestTimeoutMs: 1_500 } });
    const slow = open(Number(baseUrl.port));
    await slow.send(`${postHead("/mcp", { host: `127.0.0.1:${baseUrl.port}`, ...LEGACY_POST_HEADERS }, 1_000)}{"jsonrpc":`);
    const end = await slow.ended;
    assert.match(end.received, /^HTTP\/1\.1 408 Request Timeout\r\n/);
  });

  it("closes a connection beyond maxConnectionsPerAddress at once, and serves the others", async () => {
    const { baseUrl, served, records } = await serveHost(cleanup, extensions, { http: { maxConnectionsPerAddress: 2 } });
    const port = Number(baseUrl.port);
    const sockets = watchServerSockets(served);
    const first = open(port);
    const second = open(port);
    await Promise.all([first.connected, second.connected]);
    const third = open(port);
    const refused = await third.ended;
    assert.equal(refused.received, "");
    await sockets.closed(1);
    await first.send(initializeRequest(port));
    await first.receivedMatches(/"serverInfo"/);
    assert.match(first.received, /^HTTP\/1\.1 200 OK\r\n/);
    assert.deepEqual(
      records.filter((r) => r.level === "warn").map((r) => r.message),
      ["refused 1 connection since the last such line: one client address holds its most connections (http.maxConnectionsPerAddress 2)"],
    );
    // Once one of the two is gone, a new connection is served.
    second.destroy();
    await sockets.closed(2);
    const fourth = open(port);
    await fourth.send(initializeRequest(port));
    await fourth.receivedMatches(/"serverInfo"/);
  });

  it("says so in the log at most once a minute, on the host's clock, counting the refusals since the last line", async () => {
    const clock = new ManualClock();
    const { baseUrl, records } = await serveHost(cleanup, extensions, { host: { clock }, http: { maxConnectionsPerAddress: 1 } });
    const port = Number(baseUrl.port);
    const kept = open(port);
    await kept.connected;
    const refuse = async () => assert.equal((await open(port).ended).received, "");
    const lines = () => records.filter((r) => r.data?.code === "HTTP_CONNECTION_LIMIT").map((r) => r.message);
    const line = (count: number) =>
      `refused ${count} connection${count === 1 ? "" : "s"} since the last such line: one client address holds its most connections (http.maxConnectionsPerAddress 1)`;
    await refuse();
    assert.deepEqual(lines(), [line(1)]);
    await refuse();
    await clock.advance(59_999);
    await refuse();
    assert.deepEqual(lines(), [line(1)], "nothing more within the minute");
    await clock.advance(1);
    await refuse();
    assert.deepEqual(lines(), [line(1), line(3)]);
  });

  it("closes a connection beyond maxConnections at once", async () => {
    const { baseUrl } = await serveHost(cleanup, extensions, { http: { maxConnections: 2 } });
    const port = Number(baseUrl.port);
    const first = open(port);
    const second = open(port);
    await Promise.all([first.connected, second.connected]);
    await first.send(initializeRequest(port));
    await first.receivedMatches(/"serverInfo"/);
    const third = open(port);
    const refused = await third.ended;
    assert.equal(refused.received, "");
    await second.send(initializeRequest(port));
    await second.receivedMatches(/"serverInfo"/);
  });
});
