// Scenario 5's smoke test: `npm run bench -- --quick --scenario gateway` — the raw SDK v2 upstream, five mcp-host
// processes run by the built CLI (`serve` on a config with `servers:`), the stdio echo server started by mcp-host
// and by the load generator — at concurrency 1 and 16. It asserts that every subject answered every call right,
// that the upstream's CPU was read behind each proxied subject, which era each upstream connection negotiated, and
// the shape of latest.json and latest.md. It has its own file because it does not fit in the echo smoke test's
// time. No timing is asserted: the numbers of a smoke run mean nothing.
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { CaseResult } from "../../bench/lib/gateway-report.js";
import type { RunResults } from "../../bench/lib/results.js";
import { runBench } from "../helpers/bench-run.js";
import { Cleanup } from "../helpers/cleanup.js";

/** id → [label, era, proxied (has an upstream behind it)] */
const SUBJECTS: Record<string, [string, "modern" | "session", boolean]> = {
  "direct-http": ["HTTP upstream (raw SDK v2), called directly", "modern", false],
  "host-http": ["mcp-host → HTTP upstream", "modern", true],
  "host-http-session": ["mcp-host → HTTP upstream (2025 session)", "session", true],
  "direct-stdio": ["stdio upstream (raw SDK v2 serveStdio), called directly", "session", false],
  "host-stdio": ["mcp-host → stdio upstream", "modern", true],
  "host-native": ["mcp-host, echo as a native tool (reference)", "modern", false],
  "host-native-session": ["mcp-host, native echo, 2025 session (reference)", "session", false],
};

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

describe("npm run bench -- --quick --scenario gateway", { timeout: 115_000 }, () => {
  it("measures every subject through mcp-host and directly, every answer right, with the upstream's CPU and the negotiated eras", async () => {
    const run = await runBench(cleanup, ["--quick", "--scenario", "gateway"], "mcp-host-bench-gateway-test-");
    assert.equal(run.code, 0, `the bench failed:\n${run.stderr.slice(-3000)}`);

    const results = JSON.parse(readFileSync(join(run.out, "latest.json"), "utf8")) as RunResults;
    assert.equal(results.ok, true);
    assert.deepEqual(
      results.scenarios.map((s) => s.name),
      ["gateway"],
    );
    const [gateway] = results.scenarios;
    assert.deepEqual(gateway!.errors, []);
    assert.deepEqual(
      gateway!.rows.map((r) => `${r.id} ${r.label} c=${r.concurrency} ${r.op} ${r.era}`),
      [1, 16].flatMap((c) => Object.entries(SUBJECTS).map(([id, [label, era]]) => `${id} ${label} c=${c} call ${era}`)),
    );
    for (const row of gateway!.rows) {
      const where = `${row.label} c=${row.concurrency}`;
      assert.equal(row.errors, 0, `${where}: ${row.firstFailure}`);
      assert.equal(row.rounds.length, 2, "two interleaved rounds");
      for (const round of row.rounds) assert.ok(round.ok > 0 && round.failed === 0, `${where} answered ${round.ok} right, ${round.failed} wrong`);
      assert.ok(row.rps > 0 && row.p50Ms > 0 && row.p99Ms >= row.p50Ms && row.cpuPerRequestMicros > 0, where);
      const proxied = SUBJECTS[row.id]![2];
      assert.equal(row.upstreamCpuPerRequestMicros !== undefined, proxied, `${where}: upstream CPU read only behind a proxy`);
      if (proxied) {
        assert.ok(row.upstreamCpuPerRequestMicros! > 0, `${where}: the upstream spent CPU on the proxied calls`);
        assert.ok(row.rounds.every((r) => typeof r.upstreamCpuMicros === "number"));
      }
    }
    assert.deepEqual(gateway!.data.eras, { http: "modern", "http-session": "modern", stdio: "legacy" });
    const cases = gateway!.data.cases as CaseResult[];
    assert.deepEqual(
      cases.map((c) => `${c.case} c=${c.concurrency}`),
      ["http c=1", "http c=16", "http-session c=1", "http-session c=16", "stdio c=1", "stdio c=16"],
    );
    for (const c of cases) {
      assert.ok(c.throughputRatio > 0 && Number.isFinite(c.p50ViaMs - c.p50DirectMs), `${c.case} c=${c.concurrency}`);
      assert.ok(c.upstreamViaMicros > 0 && c.hostViaMicros > 0 && c.hostNativeMicros > 0 && c.upstreamDirectMicros > 0);
    }
    // Both targets are judged (every point measured), whichever way they fall.
    assert.deepEqual(
      gateway!.targets.map((t) => [t.id, typeof t.pass]),
      [
        ["S5.throughput", "boolean"],
        ["S5.p50", "boolean"],
      ],
    );
    assert.match(gateway!.targets[0]!.measured, /^http c=1: [\d.]+×( ✗)?; http c=16: [\d.]+×( ✗)?; stdio c=1: [\d.]+×( ✗)?; stdio c=16: [\d.]+×( ✗)?$/);
    assert.ok(gateway!.ratios.some((r) => r.name === "through mcp-host ÷ direct, HTTP upstream, 2026-07-28 client, c=16, req/s" && r.value > 0));

    const md = readFileSync(join(run.out, "latest.md"), "utf8");
    assert.match(md, /## Scenario 5 — gateway/);
    assert.match(md, /\*\*Through mcp-host ÷ the upstream called directly: throughput, and the latency mcp-host adds\*\*/);
    assert.match(md, /\*\*Where a proxied call's CPU goes \(µs of server CPU per call, from \/proc\)\*\*/);
    assert.match(md, /\| S5\.throughput: .* \| (PASS|FAIL) \|/);
    assert.match(md, /negotiated: HTTP modern era .* stdio legacy era/);
  });
});
