// Slow and broken clients against the real `mcp-host serve` (docs/design.md §16): a slowloris crowd that never finishes
// its headers, bodies sent half-way, clients that reset mid-request or leave before the answer, and more
// connections from one address than it may hold. Each is answered (408) or closed in bounded time, none is logged
// as an error, and a well-behaved client is served all along.
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { Cleanup } from "../helpers/cleanup.js";
import { postHead, RawSocket, type SocketEnd } from "../helpers/raw-http.js";
import { messageOf, modernCall } from "./kit/mcp-requests.js";
import { count, figure, histogram } from "./kit/report.js";
import { scaled } from "./kit/scale.js";
import { serveCli, type ServedCli } from "./kit/served.js";

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

const CROWD = scaled(60, 600);
const CONFIG = `http:\n  headersTimeoutMs: 1000\n  requestTimeoutMs: 2000\n  maxConnections: 4000\n  maxConnectionsPerAddress: ${CROWD + 100}\n`;

function open(served: ServedCli): RawSocket {
  const socket = new RawSocket(served.port);
  cleanup.add(() => socket.destroy());
  return socket;
}

/** What came back first on each socket: its status line, or nothing. */
function firstLines(ends: readonly SocketEnd[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const end of ends) count(counts, `${end.received.split("\r\n")[0] || "(nothing)"} / ${end.how}`);
  return counts;
}

async function assertServing(served: ServedCli): Promise<void> {
  const answer = await messageOf(await modernCall(served.url, "echo", { text: "still serving" }));
  assert.deepEqual(answer.result.content, [{ type: "text", text: "echo: still serving" }]);
}

const HEADERS = (served: ServedCli) => ({
  host: `127.0.0.1:${served.port}`,
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
});

describe("slow and broken clients", { timeout: 120_000 }, () => {
  it(`answers a slowloris crowd of ${CROWD} with 408 within the header timeout, serving others meanwhile`, async () => {
    const served = await serveCli(cleanup, CONFIG);
    const crowd = Array.from({ length: CROWD }, () => open(served));
    await Promise.all(crowd.map((s) => s.send(`POST /mcp HTTP/1.1\r\nhost: 127.0.0.1:${served.port}\r\nx-slow: `)));
    for (let i = 0; i < 5; i++) await assertServing(served);
    const ends = await Promise.all(crowd.map((s) => s.ended));
    figure("slowloris", `${CROWD} sockets that never finish their headers: ${histogram(firstLines(ends))}`);
    assert.deepEqual([...firstLines(ends).keys()], ["HTTP/1.1 408 Request Timeout / closed"]);
    await assertServing(served);
  });

  it("answers bodies sent half-way with 408 within the request timeout", async () => {
    const served = await serveCli(cleanup, CONFIG);
    const halves = Array.from({ length: scaled(30, 300) }, () => open(served));
    await Promise.all(halves.map((s) => s.send(`${postHead("/mcp", HEADERS(served), 400)}{"jsonrpc":"2.0","id":1,`)));
    await assertServing(served);
    const ends = await Promise.all(halves.map((s) => s.ended));
    figure("half-sent bodies", histogram(firstLines(ends)));
    assert.deepEqual([...firstLines(ends).keys()], ["HTTP/1.1 408 Request Timeout / closed"]);
  });

  it("shrugs off clients that reset mid-request or leave before their answer", async () => {
    const served = await serveCli(cleanup, CONFIG);
    const rounds = scaled(100, 1_000);
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: {
        name: "pause",
        arguments: { ms: 50 },
        _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} },
      },
    });
    const modern = { ...HEADERS(served), "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "pause" };
    for (let i = 0; i < rounds; i += 20) {
      await Promise.all(
        Array.from({ length: 20 }, async (_, j) => {
          const socket = open(served);
          if (j % 2 === 0) await socket.send(postHead("/mcp", modern, Buffer.byteLength(body)) + body.slice(0, 30));
          else await socket.send(postHead("/mcp", modern, Buffer.byteLength(body)) + body);
          socket.destroy();
          await socket.ended;
        }),
      );
    }
    await assertServing(served);
    assert.ok(served.alive());
    assert.doesNotMatch(served.cli.stderr, /^error /m);
    figure("resets", `${rounds} clients reset mid-body or before their answer; the server logged no error`);
  });

  it("closes connections beyond the per-address cap at once and serves the ones it holds", async () => {
    const served = await serveCli(cleanup, "http:\n  maxConnectionsPerAddress: 40\n  headersTimeoutMs: 1000\n");
    const held = Array.from({ length: 40 }, () => open(served));
    await Promise.all(held.map((s) => s.connected));
    const over = Array.from({ length: 20 }, () => open(served));
    const refused = await Promise.all(over.map((s) => s.ended));
    figure("connection cap", `40 held, 20 over the cap: ${histogram(firstLines(refused))}`);
    assert.ok(refused.every((e) => e.received === ""));
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/list",
      params: { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} } },
    });
    await held[0]!.send(
      postHead("/mcp", { ...HEADERS(served), "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/list" }, Buffer.byteLength(body)) + body,
    );
    await held[0]!.receivedMatches(/\r\n\r\n/);
    assert.match(held[0]!.received, /^HTTP\/1\.1 200 OK/);
  });
});
