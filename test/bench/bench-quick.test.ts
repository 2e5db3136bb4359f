// The benchmark suite's smoke test (docs/design.md §15): the quick mode of scenario 1 (echo) with every peer — mcp-host
// as the built CLI with its default logging, silent and with its fast path off, raw SDK v2, mcp-use, raw SDK v1, fastmcp, the floor — each in its own process, driven by the
// load-generator process, at concurrency 1 and 16 (a subset: the whole quick scenario 1 adds concurrency 64; the
// full quick run of every scenario takes minutes). It asserts that every server answered every request correctly,
// that the CLI host wrote its log lines and the silent one none, and that latest.json and latest.md were written
// with the expected shape. No timing is asserted: the numbers of a smoke run mean nothing.
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { RunResults } from "../../bench/lib/results.js";
import { runBench } from "../helpers/bench-run.js";
import { Cleanup } from "../helpers/cleanup.js";

const PEERS = ["mcp-host", "mcp-host-silent", "mcp-host (fast path off)", "raw SDK v2", "mcp-use", "raw SDK v1", "fastmcp", "floor (node:http)"];
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
    // The CLI host wrote its access and audit lines (two per call; a window's last ones may still be in the pipe),
    // the silent one none per request: a rare line it may write on a loaded machine (an event-loop warning) is not
    // one per request.
    const lines = Object.fromEntries(echo!.rows.map((r) => [`${r.id} c=${r.concurrency}`, r.logLinesPerRequest]));
    for (const c of CONCURRENCIES) {
      assert.ok(lines[`mcp-host c=${c}`]! > 1.5, `mcp-host c=${c}: ${lines[`mcp-host c=${c}`]} log lines per request`);
      assert.ok(lines[`mcp-host-silent c=${c}`]! < 0.1, `mcp-host-silent c=${c}: ${lines[`mcp-host-silent c=${c}`]} log lines per request`);
      assert.equal(lines[`sdk-v2 c=${c}`], undefined);
    }
    // S1.sdk-v2 names c=1 and c=16 only, so it is judged; concurrency 64 was left out, so no other target can be:
    // each says so instead of passing.
    assert.deepEqual(
      echo!.targets.map((t) => [t.id, t.id === "S1.sdk-v2" ? typeof t.pass : t.pass]),
      [
        ["S1.sdk-v2", "boolean"],
        ["S1.floor", null],
        ["S1.frameworks", null],
        ["S1.p99", null],
      ],
    );
    assert.match(
      echo!.targets[0]!.measured,
      /^c=1 req\/s: [\d.]+× \(silent [\d.]+×\)( ✗)?; c=16 req\/s: [\d.]+× \(silent [\d.]+×\)( ✗)?; c=1 CPU: [\d.]+× \(silent [\d.]+×\)( ✗)?; c=16 CPU: [\d.]+× \(silent [\d.]+×\)( ✗)?$/,
    );
    assert.ok(echo!.ratios.some((r) => r.name === "mcp-host ÷ raw SDK v2, tools/call echo, c=16, req/s" && r.value > 0));

    const md = readFileSync(join(run.out, "latest.md"), "utf8");
    assert.match(md, /^# mcp-host benchmark results/);
    assert.match(md, /\| load average at start \(1\/5\/15 min\) \| [\d.]+ \/ [\d.]+ \/ [\d.]+ \|/);
    assert.match(md, /## Scenario 1 — echo: tools\/call, 2026-07-28 era/);
    assert.match(md, /\*\*tools\/call echo, concurrency 16\*\*/);
    for (const peer of PEERS) assert.match(md, new RegExp(`\\| ${peer.replace(/[()]/g, "\\$&")} \\| `));
    assert.match(md, /\| S1\.sdk-v2: mcp-host ≥ 2× raw SDK v2 req\/s and ≤ 0\.5× its server CPU per call, at c=1 and c=16 \| (PASS|FAIL) \|/);
    assert.match(md, /\| S1\.floor: .* \| not measured \|/);
    assert.match(md, /\*mcp-host wrote [\d.]+ log lines per request on stderr/);
    assert.equal(run.stdout.includes("## Scenario 1 — echo"), true, "the Markdown is printed too");
  });
});
