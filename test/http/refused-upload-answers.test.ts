// A refused upload still gets its answer (issue 26 part 4, docs/design.md §16): an answer sent before the body was
// read — 413 for a body over http.maxBodyBytes, 401 before a byte of the body — is followed by a lingering close: the
// rest of the body is read and dropped (at most twice http.maxBodyBytes, for at most 5 s on the app's clock), so the
// client, still sending, reads its status and JSON-RPC error instead of a reset. Real clients: fetch (undici), the SDK
// clients of both generations and eras, and a client that reads only once it has sent everything (as Python's
// http.client does), with and without `Connection: close` — the one that lost every such answer before. The bounds
// hold: a body beyond them is cut off, and so is a sender that stops dripping.
import assert from "node:assert/strict";
import { connect, type Socket } from "node:net";
import { afterEach, describe, it } from "node:test";
import type { McpExtension } from "../../src/extension/types.js";
import { LINGER } from "../../src/http/edge/http-defaults.js";
import { Cleanup, connectV1, connectV2, modernHeaders, serveHost } from "../helpers/http-host.js";
import { ManualClock } from "../helpers/manual-clock.js";

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

const echo: McpExtension = {
  name: "echo",
  tools: [{ name: "echo", inputSchema: { type: "object" }, handler: () => ({ content: [{ type: "text", text: "ok" }] }) }],
};
const AUTH = {
  issuer: "https://issuer.example",
  audience: "https://mcp.example/mcp",
  hs256Secret: "a-test-secret-of-at-least-32-bytes!",
  algorithms: ["HS256"],
};
const MiB = 1024 * 1024;
const TOO_LARGE = { jsonrpc: "2.0", error: { code: -32600, message: "Request body too large: the limit is 4194304 bytes (http.maxBodyBytes)." }, id: null };

/** What a client that reads only after sending its whole request saw: the status line and body, or how it failed. */
interface Seen {
  status?: string;
  headers?: string;
  body?: string;
  failed?: string;
  /** Bytes of the body it managed to send. */
  sent: number;
}

/**
 * Sends the request head and `size` bytes of body, and only then reads the answer (to the connection's end, or to
 * the end of a body of known length). `drip` stops after that many body bytes instead and resolves with the socket.
 */
function sendThenRead(url: URL, size: number, headers: Record<string, string>): Promise<Seen> {
  return new Promise((resolve) => {
    const socket = connect(Number(url.port), url.hostname);
    cleanup.add(() => void socket.destroy());
    socket.pause();
    const seen: Seen = { sent: 0 };
    let text = "";
    const done = () => {
      const end = text.indexOf("\r\n\r\n");
      if (end >= 0) {
        seen.status = text.slice(0, text.indexOf("\r\n"));
        seen.headers = text.slice(0, end).toLowerCase();
        seen.body = dechunked(seen.headers, text.slice(end + 4));
      }
      resolve(seen);
      socket.destroy();
    };
    socket.on("error", (error: NodeJS.ErrnoException) => {
      seen.failed = error.code ?? error.message;
      done();
    });
    const head = Object.entries({ host: url.host, "content-length": String(size), ...headers })
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join("");
    socket.write(`POST ${url.pathname} HTTP/1.1\r\n${head}\r\n`);
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const writeMore = () => {
      while (seen.sent < size) {
        const part = chunk.subarray(0, Math.min(chunk.length, size - seen.sent));
        seen.sent += part.length;
        if (!socket.write(part)) return void socket.once("drain", writeMore);
      }
      // All of it is written: now read the answer, up to the end of its body.
      socket.on("data", (data: Buffer) => {
        text += data.toString("utf8");
        const end = text.indexOf("\r\n\r\n");
        if (end < 0) return;
        const length = /content-length: (\d+)/i.exec(text.slice(0, end));
        const body = text.slice(end + 4);
        if (length ? Buffer.byteLength(body) >= Number(length[1]) : body.endsWith("0\r\n\r\n")) done();
      });
      socket.on("end", done);
      socket.resume();
    };
    writeMore();
  });
}

/** A body as sent: as it is, or its chunks joined (`Transfer-Encoding: chunked`). */
function dechunked(headers: string, body: string): string {
  if (!headers.includes("\r\ntransfer-encoding: chunked")) return body;
  let out = "";
  for (let at = 0; ; ) {
    const line = body.indexOf("\r\n", at);
    const size = Number.parseInt(body.slice(at, line), 16);
    if (!(size > 0)) return out;
    out += body.slice(line + 2, line + 2 + size);
    at = line + 2 + size + 2;
  }
}

function postHeaders(extra: Record<string, string> = {}): Record<string, string> {
  return { ...modernHeaders("tools/list"), ...extra };
}

describe("an answer sent before the body was read", { timeout: 120_000 }, () => {
  it("reaches fetch: 413 with its JSON-RPC error for bodies around and beyond the socket buffers", async () => {
    const { url } = await serveHost(cleanup, [echo]);
    for (const size of [4 * MiB + 1, 5 * MiB, 6 * MiB, 8 * MiB]) {
      const response = await fetch(url, { method: "POST", headers: postHeaders(), body: Buffer.alloc(size, 0x20) });
      assert.equal(response.status, 413, `${size} bytes`);
      assert.deepEqual(await response.json(), TOO_LARGE, `${size} bytes`);
    }
    // And a body sent without a length (chunked), refused once 4 MiB have come.
    const chunked = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 5 * 16; i++) controller.enqueue(new Uint8Array(64 * 1024).fill(0x20));
        controller.close();
      },
    });
    const response = await fetch(url, { method: "POST", headers: postHeaders(), body: chunked, duplex: "half" } as RequestInit);
    assert.equal(response.status, 413);
    assert.deepEqual(await response.json(), TOO_LARGE);
  });

  it("reaches the SDK clients (v2 in both eras, v1), which go on working afterwards", async () => {
    const { url } = await serveHost(cleanup, [echo]);
    const clients = {
      "v2 modern": (await connectV2(cleanup, url, "modern")).client,
      "v2 legacy": (await connectV2(cleanup, url, "legacy")).client,
      v1: (await connectV1(cleanup, url)).client,
    };
    for (const [name, client] of Object.entries(clients)) {
      for (const size of [4 * MiB, 5 * MiB]) {
        await assert.rejects(
          client.callTool({ name: "echo", arguments: { big: "x".repeat(size) } }),
          (error: Error) => error.message.includes("Request body too large: the limit is 4194304 bytes (http.maxBodyBytes)."),
          `${name}, ${size} bytes`,
        );
      }
      const result = (await client.callTool({ name: "echo", arguments: {} })) as { content: Array<{ text: string }> };
      assert.equal(result.content[0]!.text, "ok", `${name} goes on`);
    }
  });

  it("reaches a client that reads only once it has sent everything, with and without Connection: close", async () => {
    const { url } = await serveHost(cleanup, [echo]);
    for (const size of [5 * MiB, 8 * MiB]) {
      for (const close of [false, true]) {
        const seen = await sendThenRead(url, size, postHeaders(close ? { connection: "close" } : {}));
        assert.equal(seen.failed, undefined, `${size} bytes, close ${close}: the client sent all and read its answer`);
        assert.equal(seen.status, "HTTP/1.1 413 Payload Too Large");
        assert.deepEqual(JSON.parse(seen.body!), TOO_LARGE);
      }
    }
  });

  it("lets an unauthenticated upload read its 401 and WWW-Authenticate (fetch; and sent in full, then read)", async () => {
    const { url } = await serveHost(cleanup, [echo], { http: { auth: AUTH } });
    const response = await fetch(url, { method: "POST", headers: postHeaders(), body: Buffer.alloc(2 * MiB, 0x20) });
    assert.equal(response.status, 401);
    assert.match(
      response.headers.get("www-authenticate") ?? "",
      /^Bearer .*resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource\/mcp"/,
    );
    await response.text();
    for (const size of [2 * MiB, 5 * MiB]) {
      const seen = await sendThenRead(url, size, postHeaders({ connection: "close" }));
      assert.equal(seen.failed, undefined, `${size} bytes: the client sent all and read its answer`);
      assert.equal(seen.status, "HTTP/1.1 401 Unauthorized");
      assert.match(seen.headers!, /\r\nwww-authenticate: bearer /);
    }
  });
});

describe("the lingering close's bounds", { timeout: 60_000 }, () => {
  it("cuts off a body more than twice http.maxBodyBytes past the answer", async () => {
    // 64 KiB allowed, so at most 128 KiB are read after the 401; the client offers 64 MiB. Before, the whole of it
    // was read and dropped (Node reads a keep-alive request's unread body to its end).
    const { url } = await serveHost(cleanup, [echo], { http: { auth: AUTH, maxBodyBytes: 64 * 1024 } });
    const seen = await sendThenRead(url, 64 * MiB, postHeaders());
    assert.ok(seen.failed !== undefined, `the connection was cut off (${seen.status ?? "no answer read"})`);
    assert.ok(seen.sent < 64 * MiB, `the client could not send the whole body: ${seen.sent} bytes`);
  });

  it("cuts off a sender that stops sending, once LINGER.ms have passed on the app's clock", async () => {
    const clock = new ManualClock();
    const { url } = await serveHost(cleanup, [echo], { host: { clock }, http: { auth: AUTH } });
    const idle = clock.timers;
    const socket: Socket = connect(Number(url.port), url.hostname);
    cleanup.add(() => void socket.destroy());
    const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
    socket.on("error", () => {});
    let text = "";
    const answered = new Promise<void>((resolve) =>
      socket.on("data", (data: Buffer) => {
        text += data.toString("utf8");
        if (text.includes("\r\n\r\n")) resolve();
      }),
    );
    const head = Object.entries({ host: url.host, "content-length": "100000", ...postHeaders() }).map(([n, v]) => `${n}: ${v}\r\n`);
    socket.write(`POST ${url.pathname} HTTP/1.1\r\n${head.join("")}\r\n${" ".repeat(1000)}`);
    await answered;
    assert.match(text, /^HTTP\/1\.1 401 /);
    // The rest never comes: the lingering close waits LINGER.ms on the clock, and not a moment more.
    await clock.waitForTimers(idle + 1);
    await clock.advance(LINGER.ms - 1);
    assert.equal(socket.destroyed || socket.readableEnded, false, "still open before the bound");
    await clock.advance(1);
    await closed;
  });

  it("leaves nothing on a keep-alive connection once each early-answered body has been read", async () => {
    // Before: each early answer added a `close` listener to the connection that stayed until it closed, so twelve
    // refused uploads on one keep-alive connection held twelve (and Node warned of a leak at eleven).
    const { url, served } = await serveHost(cleanup, [echo], { http: { auth: AUTH } });
    const connections: Socket[] = [];
    served.http.on("connection", (socket: Socket) => connections.push(socket));
    const client = connect(Number(url.port), url.hostname);
    cleanup.add(() => void client.destroy());
    let text = "";
    let answers = 0;
    let next: (() => void) | undefined;
    client.on("data", (data: Buffer) => {
      text += data.toString("utf8");
      // Each 401's body is a JSON object of known length: count the heads, wake the writer per answer.
      const heads = text.split("HTTP/1.1 401 ").length - 1;
      if (heads > answers) {
        answers = heads;
        next?.();
      }
    });
    const head = Object.entries({ host: url.host, "content-length": "2000", ...postHeaders() }).map(([n, v]) => `${n}: ${v}\r\n`);
    const listeners: number[] = [];
    for (let round = 1; round <= 12; round += 1) {
      const answered = new Promise<void>((resolve) => (next = resolve));
      client.write(`POST ${url.pathname} HTTP/1.1\r\n${head.join("")}\r\n${" ".repeat(1000)}`);
      await answered;
      // The answer came before the rest of the body: now it comes, and is read and dropped.
      client.write(" ".repeat(1000));
      assert.equal(connections.length, 1, "one keep-alive connection carries every round");
      listeners.push(connections[0]!.listenerCount("close"));
    }
    assert.equal(answers, 12);
    // The count read right after a round may still hold that round's listener (its body's end is on its way): the
    // count does not grow with the rounds.
    assert.ok(Math.max(...listeners) <= listeners[0]! + 1, `close listeners on the connection per round: ${listeners.join(", ")}`);
  });
});
