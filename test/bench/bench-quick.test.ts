// The benchmark suite's smoke test (docs/design.md §15): the quick mode of scenario 1 (echo) with every peer — mcp-host,
// raw SDK v2, mcp-use, raw SDK v1, fastmcp, the floor — each in its own process, driven by the load-generator
// process, at concurrency 1 and 16 (a subset: the whole quick scenario 1 adds concurrency 64 and takes ~50 s on
// 2 cores; the full quick run of every scenario takes minutes). It asserts that every server answered every
// request correctly and that latest.json and latest.md were written with the expected shape. No timing is
// asserted: the numbers of a smoke run mean nothing.
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { RunResults } from "../../bench/lib/results.js";
import { runBench } from "../helpers/bench-run.js";
import { Cleanup } from "../helpers/cleanup.js";

const PEERS = ["mcp-host", "mcp-host (fast path off)", "raw SDK v2", "mcp-use", "raw SDK v1", "fastmcp", "floor (node:http)"];
const CONCURRENCIES = [1, 16];

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

describe("npm run bench -- --quick", { timeout: 115_000 }, () => {
  it("measures scenario 1 with every peer, every answer right, and writes latest.json and latest.md", async () => {
    const run = await runBench(cleanup, ["--quick", "--scenario", "echo", "--concurrency", CONCURRENCIES.join(",")]);
    assert.equal(run.code, 0, `the bench failed:\n${run.stderr.slice(-3000)}`);

    const results = JSON.parse(readFileSync(join(run.out, "latest.json"), "utf8")) as RunResults;
    assert.equal(results.schema, 1);
    assert.equal(results.ok, true);
    assert.equal(results.machine.node, process.version);
    assert.ok(results.machine.cores > 0 && results.machine.cpuModel.length > 0);
    assert.equal(results.machine.loadAverageAtStart.length, 3);
    assert.equal(results.machine.loadAverageAtEnd?.length, 3);
    assert.ok(!Number.isNaN(Date.parse(results.machine.date)));
    assert.equal(results.options.quick, true);
    assert.deepEqual(Object.keys(results.peers).sort(), [
      "@modelcontextprotocol/express",
      "@modelcontextprotocol/node",
      "@modelcontextprotocol/sdk",
      "@modelcontextprotocol/server",
      "express",
      "fastmcp",
      "mcp-host",
      "mcp-use",
      "undici",
      "zod",
    ]);

    assert.deepEqual(
      results.scenarios.map((s) => s.name),
      ["echo"],
    );
    const [echo] = results.scenarios;
    assert.deepEqual(echo!.errors, []);
    const rows = echo!.rows.map((r) => `${r.label} c=${r.concurrency} ${r.op} ${r.era}`).sort();
    const expected = CONCURRENCIES.flatMap((c) => PEERS.map((p) => `${p} c=${c} call ${p === "raw SDK v1" || p === "fastmcp" ? "session" : "modern"}`)).sort();
    assert.deepEqual(rows, expected);
    for (const row of echo!.rows) {
      assert.equal(row.errors, 0, `${row.label} c=${row.concurrency}: ${row.firstFailure}`);
      assert.equal(row.rounds.length, 2, "two interleaved rounds");
      for (const round of row.rounds) {
        assert.ok(round.ok > 0 && round.failed === 0, `${row.label} c=${row.concurrency} answered ${round.ok} right, ${round.failed} wrong`);
        assert.ok(round.cpuMicros >= 0 && round.rssBytes > 0);
      }
      assert.ok(row.rps > 0 && row.p50Ms > 0 && row.p99Ms >= row.p50Ms);
    }
    // Concurrency 64 was left out, so no target can be judged: each says so instead of passing.
    assert.deepEqual(
      echo!.targets.map((t) => [t.id, t.pass]),
      [
        ["S1.sdk-v2", null],
        ["S1.frameworks", null],
        ["S1.p99", null],
        ["S1.floor", null],
      ],
    );
    assert.ok(echo!.ratios.some((r) => r.name === "mcp-host ÷ raw SDK v2, tools/call echo, c=16, req/s" && r.value > 0));

    const md = readFileSync(join(run.out, "latest.md"), "utf8");
    assert.match(md, /^# mcp-host benchmark results/);
    assert.match(md, /\| load average at start \(1\/5\/15 min\) \| [\d.]+ \/ [\d.]+ \/ [\d.]+ \|/);
    assert.match(md, /## Scenario 1 — echo: tools\/call, 2026-07-28 era/);
    assert.match(md, /\*\*tools\/call echo, concurrency 16\*\*/);
    for (const peer of PEERS) assert.match(md, new RegExp(`\\| ${peer.replace(/[()]/g, "\\$&")} \\| `));
    assert.match(md, /\| S1\.sdk-v2: mcp-host ≥ 2× raw SDK v2 req\/s at every concurrency \| not measured \|/);
    assert.equal(run.stdout.includes("## Scenario 1 — echo"), true, "the Markdown is printed too");
  });
});
