// `mcp-host stdio` fed garbage keeps answering (docs/design.md §16): between well-formed requests a seeded stream of
// junk — random bytes, half a message, scalars, a 20,000-level nesting, a line of 1 MB, messages of the wrong
// shape, answers to nothing, unknown methods — and every well-formed request still gets its answer, stdout carries
// nothing but JSON-RPC, and the process exits 0 when stdin closes.
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { Cleanup } from "../helpers/cleanup.js";
import { assertBuilt, startCli } from "../helpers/cli-process.js";
import { figure } from "./kit/report.js";
import { scaled } from "./kit/scale.js";
import { seededRandom, type Random } from "./kit/seed.js";
import { RELIABILITY_PROJECT } from "./kit/served.js";

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

const ROUNDS = scaled(150, 1_500);

function junk(random: Random): string {
  const kinds = [
    () => random.bytes(random.int(1, 300)).toString("latin1").replace(/\n/g, " "),
    () => '{"jsonrpc":"2.0","id":',
    () => random.pick(["null", "[]", "123", '"text"', "true", "{}"]),
    () => `{"jsonrpc":"2.0","id":"deep","method":"tools/call","params":{"name":"echo","arguments":{"text":${"[".repeat(20_000)}${"]".repeat(20_000)}}}}`,
    () => `{"jsonrpc":"2.0","id":"big","method":"tools/call","params":{"name":"echo","arguments":{"text":"${"x".repeat(1_000_000)}"}}}`,
    () => JSON.stringify({ jsonrpc: "2.0", id: "shape", method: "tools/call", params: { name: 5, arguments: [1] } }),
    () => JSON.stringify({ jsonrpc: "2.0", id: 999_999, result: {} }),
    () => JSON.stringify({ jsonrpc: "2.0", id: "m", method: "nope/nope", params: {} }),
    () => JSON.stringify({ jsonrpc: "1.0", id: "v", method: "tools/list" }),
    () => JSON.stringify([{ jsonrpc: "2.0", id: "b1", method: "tools/list" }]),
    () => "\u0000\u0001\u0002",
    () => "",
  ];
  return kinds[random.int(0, kinds.length - 1)]!();
}

describe("mcp-host stdio fed garbage", { timeout: 180_000 }, () => {
  it(`answers every one of ${ROUNDS} well-formed requests between lines of junk, and exits 0 when stdin closes`, async () => {
    assertBuilt();
    const random = seededRandom();
    figure("stdio garbage", `seed ${random.seed}, ${ROUNDS} requests, each after a line of junk`);
    const cli = startCli(cleanup, ["stdio", "only=steady", "--cwd", RELIABILITY_PROJECT, "--log-level", "error"], { stdin: "pipe" });
    const stdin = cli.child.stdin!;
    const write = (line: string) => new Promise<void>((resolve) => (stdin.write(`${line}\n`) ? resolve() : stdin.once("drain", () => resolve())));
    await write(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "garbage", version: "1" } },
      }),
    );
    await cli.line(/"id":0/);
    await write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
    for (let i = 1; i <= ROUNDS; i++) {
      await write(junk(random));
      await write(JSON.stringify({ jsonrpc: "2.0", id: i, method: "tools/call", params: { name: "echo", arguments: { text: `n${i}` } } }));
      const answer = JSON.parse(await cli.line(new RegExp(`"id":${i}[,}]`))) as { result?: { content: Array<{ text: string }> } };
      assert.equal(answer.result?.content[0]?.text, `echo: n${i}`, `request ${i}`);
    }
    const notJson = cli.stdoutLines.filter((line) => {
      try {
        return (JSON.parse(line) as { jsonrpc?: string }).jsonrpc !== "2.0";
      } catch {
        return true;
      }
    });
    assert.deepEqual(notJson, [], "stdout carries JSON-RPC only");
    figure("stdio garbage", `${ROUNDS} answered; ${cli.stdoutLines.length} lines on stdout, all JSON-RPC`);
    stdin.end();
    const exit = await cli.exited;
    assert.deepEqual(exit, { code: 0, signal: null });
  });
});
