// Scenario 5's smoke test: `npm run bench -- --quick --scenario gateway` — the raw SDK v2 upstreams (2026-07-28, and
// with 2025 sessions), six mcp-host processes run by the built CLI (`serve` on a config with `servers:`, default
// logging), mcp-proxy and supergateway in front of the same stdio echo server, and that server started by the load
// generator — at concurrency 1 and 16. It asserts that every subject answered every call right, that the upstream's
// CPU was read behind each mcp-host gateway and the process tree's behind every gateway, which era each upstream
// connection negotiated, and the shape of latest.json and latest.md. It has its own file because it does not fit in
// the echo smoke test's time. No timing is asserted: the numbers of a smoke run mean nothing.
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { CaseResult } from "../../bench/lib/gateway-report.js";
import type { RunResults } from "../../bench/lib/results.js";
import { runBench } from "../helpers/bench-run.js";
import { Cleanup } from "../helpers/cleanup.js";

/** id → [label, era, an mcp-host gateway (its upstream's CPU read), a gateway (its process tree's CPU read)] */
const SUBJECTS: Record<string, [string, "modern" | "session", boolean, boolean]> = {
  "direct-http": ["HTTP upstream (raw SDK v2), called directly", "modern", false, false],
  "direct-http-session": ["the same server with 2025 sessions (raw SDK v2), called directly", "session", false, false],
  "host-http": ["mcp-host → HTTP upstream", "modern", true, true],
  "host-http-session": ["mcp-host → HTTP upstream (2025 session)", "session", true, true],
  "direct-stdio": ["stdio upstream (raw SDK v2 serveStdio), called directly", "session", false, false],
  "host-stdio": ["mcp-host → stdio upstream", "modern", true, true],
  "host-stdio-session": ["mcp-host → stdio upstream (2025 session)", "session", true, true],
  "mcp-proxy": ["mcp-proxy → stdio upstream", "modern", false, true],
  "mcp-proxy-session": ["mcp-proxy → stdio upstream (2025 session)", "session", false, true],
  supergateway: ["supergateway → stdio upstream", "modern", false, true],
  "supergateway-session": ["supergateway → stdio upstream (2025 session)", "session", false, true],
  "host-native": ["mcp-host, echo as a native tool (reference)", "modern", false, false],
  "host-native-session": ["mcp-host, native echo, 2025 session (reference)", "session", false, false],
};

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

describe("npm run bench -- --quick --scenario gateway", { timeout: 180_000 }, () => {
  it("measures every subject through each gateway and directly, every answer right, with the CPU behind them and the negotiated eras", async () => {
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
      const [, , hostGateway, gatewayTree] = SUBJECTS[row.id]!;
      assert.equal(row.upstreamCpuPerRequestMicros !== undefined, hostGateway, `${where}: upstream CPU read only behind mcp-host`);
      if (hostGateway) {
        assert.ok(row.upstreamCpuPerRequestMicros! > 0, `${where}: the upstream spent CPU on the proxied calls`);
        assert.ok(row.rounds.every((r) => typeof r.upstreamCpuMicros === "number"));
      }
      assert.equal(row.treeCpuPerRequestMicros !== undefined, gatewayTree, `${where}: process-tree CPU read only for a gateway`);
      if (gatewayTree) assert.ok(row.treeCpuPerRequestMicros! >= row.cpuPerRequestMicros * 0.9, `${where}: the tree holds the gateway's own process`);
    }
    assert.deepEqual(gateway!.data.eras, { http: "modern", "http-session": "modern", stdio: "legacy", "stdio-session": "legacy" });
    const cases = gateway!.data.cases as CaseResult[];
    assert.deepEqual(
      cases.map((c) => `${c.case} c=${c.concurrency}`),
      ["http", "http-session", "stdio", "stdio-session"].flatMap((id) => [`${id} c=1`, `${id} c=16`]),
    );
    for (const c of cases) {
      assert.ok(c.throughputRatio > 0 && Number.isFinite(c.p50ViaMs - c.p50DirectMs), `${c.case} c=${c.concurrency}`);
      assert.ok(c.upstreamViaMicros > 0 && c.hostViaMicros > 0 && c.hostNativeMicros > 0 && c.upstreamDirectMicros > 0);
      assert.deepEqual(
        c.gateways.map((g) => g.gateway),
        c.case.startsWith("stdio") ? ["mcp-host", "mcp-proxy", "supergateway"] : ["mcp-host"],
      );
      for (const g of c.gateways) assert.ok(g.rps > 0 && g.ownMicros > 0 && g.treeMicros > 0, `${c.case} c=${c.concurrency} ${g.gateway}`);
    }
    // Every target is judged (every point measured), whichever way it falls.
    assert.deepEqual(
      gateway!.targets.map((t) => [t.id, typeof t.pass]),
      [
        ["S5.peers", "boolean"],
        ["S5.cpu", "boolean"],
        ["S5.throughput", "boolean"],
        ["S5.p50", "boolean"],
      ],
    );
    assert.match(gateway!.targets[2]!.measured, /^stdio c=16: [\d.]+×( ✗)?; stdio-session c=16: [\d.]+×( ✗)?; http c=16: [\d.]+×( ✗)?$/);
    assert.ok(gateway!.ratios.some((r) => r.name === "through mcp-host ÷ direct, HTTP upstream, 2026-07-28 client, c=16, req/s" && r.value > 0));
    assert.ok(gateway!.ratios.some((r) => r.name === "mcp-host ÷ mcp-proxy, stdio upstream, 2025-session client, c=16, req/s" && r.value > 0));

    const md = readFileSync(join(run.out, "latest.md"), "utf8");
    assert.match(md, /## Scenario 5 — gateway/);
    assert.match(md, /\*\*Through mcp-host ÷ the upstream called directly: throughput, and the latency mcp-host adds\*\*/);
    assert.match(md, /\*\*Where a proxied call's CPU goes \(µs of server CPU per call, from \/proc\)\*\*/);
    assert.match(md, /\*\*Every gateway in front of the same upstream: through it ÷ direct, the latency it adds, its CPU per call\*\*/);
    assert.match(md, /\| S5\.throughput: .* \| (PASS|FAIL) \|/);
    assert.match(md, /negotiated: HTTP modern era .* stdio legacy era/);
  });
});
