// The benchmark suite's correctness core: every answer is checked, and a wrong one is a failure, never
// throughput. Unit checks of the answer checkers (protocol.ts, same-answer.ts), and the load-generator process
// driving a real server that answers wrongly — over HTTP, and over the pipe of a stdio server it started
// (scenario 5's direct stdio leg).
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { LoadGenerator } from "../../bench/lib/loadgen-client.js";
import { checkCall, checkCallMessage, checkList, type Answer } from "../../bench/lib/protocol.js";
import { SameAnswer } from "../../bench/lib/same-answer.js";

const json = (value: unknown): Answer => ({ status: 200, contentType: "application/json", body: Buffer.from(JSON.stringify(value)) });
const sse = (eventId: string, value: unknown): Answer => ({
  status: 200,
  contentType: "text/event-stream",
  body: Buffer.from(`id: ${eventId}-prime\ndata: \n\nevent: message\nid: ${eventId}\ndata: ${JSON.stringify(value)}\n\n`),
});
const tools = (n: number) => Array.from({ length: n }, (_, i) => ({ name: i === 0 ? "echo" : `tool_${i}`, inputSchema: { type: "object" } }));
const list = (id: number, n = 3) => ({ jsonrpc: "2.0", id, result: { tools: tools(n) } });

describe("answer checks", () => {
  it("accepts the request's own echo and names what is wrong otherwise", () => {
    assert.equal(checkCall(json({ jsonrpc: "2.0", id: 7, result: { content: [{ type: "text", text: "hi" }] } }), 7, "hi"), undefined);
    assert.match(checkCall(json({ jsonrpc: "2.0", id: 7, result: { content: [{ type: "text", text: "other" }] } }), 7, "hi")!, /^not the echo of "hi"/);
    assert.match(checkCall(json({ jsonrpc: "2.0", id: 8, result: { content: [{ type: "text", text: "hi" }] } }), 7, "hi")!, /^no answer for id 7/);
    assert.match(checkCall(json({ jsonrpc: "2.0", id: 7, result: { isError: true, content: [{ type: "text", text: "hi" }] } }), 7, "hi")!, /^not the echo/);
    assert.match(checkCall(json({ jsonrpc: "2.0", id: 7, error: { code: -32602, message: "bad" } }), 7, "hi")!, /^JSON-RPC error: \{"code":-32602/);
    assert.match(checkCall({ status: 404, contentType: "text/plain", body: Buffer.from("gone") }, 7, "hi")!, /^HTTP 404: gone/);
    assert.equal(checkCall(sse("e1", { jsonrpc: "2.0", id: 7, result: { content: [{ type: "text", text: "hi" }] } }), 7, "hi"), undefined);
  });

  it("checks a parsed stdio message the same way", () => {
    assert.equal(checkCallMessage({ jsonrpc: "2.0", id: 7, result: { content: [{ type: "text", text: "hi" }] } }, 7, "hi"), undefined);
    assert.equal(checkCallMessage({ jsonrpc: "2.0", id: 8, result: {} }, 7, "hi"), 'no answer for id 7: {"jsonrpc":"2.0","id":8,"result":{}}');
    assert.equal(
      checkCallMessage({ jsonrpc: "2.0", id: 7, error: { code: -32601, message: "nope" } }, 7, "hi"),
      'JSON-RPC error: {"code":-32601,"message":"nope"}',
    );
    assert.equal(checkCallMessage({ jsonrpc: "2.0", id: 7, result: { content: [] } }, 7, "hi"), 'not the echo of "hi": {"content":[]}');
  });

  it("checks a tools/list for the exact count, echo among the tools, object input schemas", () => {
    assert.equal(checkList(json(list(1)), 1, 3), undefined);
    assert.equal(checkList(json(list(1)), 1, 4), "expected 4 tools, got 3");
    assert.equal(checkList(json({ jsonrpc: "2.0", id: 1, result: { tools: [{ name: "a", inputSchema: { type: "object" } }] } }), 1, 1), "echo is not listed");
  });

  it("accepts a big answer byte for byte after one full check, and falls back to the full check on any change", () => {
    const same = new SameAnswer();
    let full = 0;
    const check = (answer: Answer, id: number) => same.check(answer, id, () => ((full += 1), checkList(answer, id, 3)));
    assert.equal(check(json(list(1000000001)), 1000000001), undefined);
    assert.equal(check(json(list(1000000002)), 1000000002), undefined);
    assert.equal(check(sse("a", list(1000000003)), 1000000003), undefined);
    assert.equal(check(sse("b", list(1000000004)), 1000000004), undefined, "another SSE event id is not a different answer");
    assert.deepEqual(same.counts, { same: 2, full: 2 });
    const tampered = list(1000000005);
    tampered.result.tools[1]!.name = "tool_X";
    assert.equal(check(sse("c", tampered), 1000000005), undefined, "a changed but valid answer passes the full check");
    assert.equal(check(sse("d", list(1000000006, 2)), 1000000006), "expected 3 tools, got 2");
    assert.equal(check(sse("e", list(1000000007)), 1000000099), `no answer for id 1000000099: ${sse("e", list(1000000007)).body.toString().slice(0, 300)}`);
    assert.equal(full, 5);
  });
});

/** A stdio server that opens like an MCP server and then answers every call with the wrong text. */
const WRONG_STDIO = `let buffer = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  buffer += chunk;
  for (let i = buffer.indexOf("\\n"); i >= 0; i = buffer.indexOf("\\n")) {
    const message = JSON.parse(buffer.slice(0, i));
    buffer = buffer.slice(i + 1);
    if (message.id === undefined) continue;
    const result = message.method === "initialize"
      ? { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "wrong", version: "1.0.0" } }
      : { content: [{ type: "text", text: "not what you sent" }] };
    process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: message.id, result }) + "\\n");
  }
});`;
const STDIO_ECHO = fileURLToPath(new URL("../../bench/servers/stdio/sdk-v2-stdio.mjs", import.meta.url));

describe("the load generator", () => {
  let server: Server | undefined;
  let loadgen: LoadGenerator | undefined;
  afterEach(async () => {
    await loadgen?.close();
    if (server) await new Promise<void>((resolve) => server!.close(() => resolve()));
    loadgen = server = undefined;
  });

  it("counts wrong answers as failures with their reason, never as throughput", async () => {
    let answered = 0;
    server = createServer((req, res) => {
      let body = "";
      req.on("data", (d: Buffer) => (body += d));
      req.on("end", () => {
        answered += 1;
        const { id } = JSON.parse(body) as { id: number };
        res
          .writeHead(200, { "content-type": "application/json" })
          .end(JSON.stringify({ jsonrpc: "2.0", id, result: { content: [{ type: "text", text: "not what you sent" }] } }));
      });
    });
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    loadgen = await LoadGenerator.start();
    await loadgen.open({ key: "wrong", url: `http://127.0.0.1:${port}/mcp`, era: "modern", concurrency: 2, tools: 1, sessions: false });
    const sample = await loadgen.drive("wrong", "call", 200, true);
    await loadgen.closeTarget("wrong");
    assert.equal(sample.ok, 0);
    assert.equal(sample.failed, answered);
    assert.ok(sample.failed > 0);
    assert.deepEqual(sample.latencies, []);
    assert.match(sample.firstFailure!, /^not the echo of "echo #\d{10}": \{"content":\[\{"type":"text","text":"not what you sent"\}\]\}$/);
  });

  it("drives a stdio server it started over one pipe: a wrong answer is a failure, a right one counts, and stopping it ends the process", async () => {
    loadgen = await LoadGenerator.start();
    const wrong = await loadgen.startStdio("wrong", process.execPath, ["-e", WRONG_STDIO]);
    await loadgen.open({ key: "wrong", url: "", stdio: "wrong", era: "session", concurrency: 4, tools: 1, sessions: false });
    const bad = await loadgen.drive("wrong", "call", 200, true);
    assert.equal(bad.ok, 0);
    assert.ok(bad.failed > 0);
    assert.match(bad.firstFailure!, /^not the echo of "echo #\d{10}": \{"content":\[\{"type":"text","text":"not what you sent"\}\]\}$/);
    await loadgen.closeTarget("wrong");
    await loadgen.stopStdio("wrong");
    assert.equal(existsSync(`/proc/${wrong.pid}`), false, "the stdio server exited");

    const echo = await loadgen.startStdio("echo", process.execPath, [STDIO_ECHO]);
    await loadgen.open({ key: "echo", url: "", stdio: "echo", era: "session", concurrency: 4, tools: 1, sessions: false });
    const good = await loadgen.drive("echo", "call", 300, true);
    assert.equal(good.failed, 0, good.firstFailure);
    assert.ok(good.ok > 0);
    assert.equal(good.latencies.length, good.ok);
    const listed = await loadgen.drive("echo", "list", 50, false);
    assert.equal(listed.ok, 0);
    assert.equal(listed.firstFailure, 'target "echo" is a stdio server: only tools/call is driven over stdio');
    await loadgen.closeTarget("echo");
    await loadgen.stopStdio("echo");
    assert.equal(existsSync(`/proc/${echo.pid}`), false);
  });
});
