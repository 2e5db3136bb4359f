// Scenario 5's smoke test: `npm run bench -- --smoke --scenario gateway` — the raw SDK v2 upstreams (2026-07-28, and
// with 2025 sessions), six mcp-host processes run by the built CLI (`serve` on a config with `servers:`, default
// logging), mcp-proxy and supergateway in front of the same stdio echo server, and that server started by the load
// generator — at concurrency 1 and 16. It checks that the scenario runs: every subject answered every call right, the
// upstream's and the process tree's CPU were read (as numbers: a smoke window is too short for them to mean anything),
// which era each upstream connection negotiated, and the shape of latest.json and latest.md. It judges no speed — that
// is `npm run bench`'s job — and its limits are for two loaded cores: a smoke window is a few calls (`--smoke`), so the
// run is mostly starting the dozen processes; the run and all of them are ended with the test however it ends.
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

describe("npm run bench -- --smoke --scenario gateway", () => {
  it("measures every subject through each gateway and directly, every answer right, with the CPU behind them and the negotiated eras", {
    timeout: 230_000,
  }, async () => {
    const run = await runBench(cleanup, ["--smoke", "--scenario", "gateway"], "mcp-host-bench-gateway-test-");
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
      // CPU is read from /proc in clock ticks (10 ms): over a smoke window of a few calls it may well read 0.
      const read = (value: number | undefined) => typeof value === "number" && Number.isFinite(value) && value >= 0;
      assert.ok(row.rps > 0 && row.p50Ms > 0 && row.p99Ms >= row.p50Ms && read(row.cpuPerRequestMicros), where);
      const [, , hostGateway, gatewayTree] = SUBJECTS[row.id]!;
      assert.equal(row.upstreamCpuPerRequestMicros !== undefined, hostGateway, `${where}: upstream CPU read only behind mcp-host`);
      if (hostGateway) {
        assert.ok(read(row.upstreamCpuPerRequestMicros), `${where}: the upstream's CPU was read`);
        assert.ok(row.rounds.every((r) => read(r.upstreamCpuMicros)));
      }
      assert.equal(row.treeCpuPerRequestMicros !== undefined, gatewayTree, `${where}: process-tree CPU read only for a gateway`);
      if (gatewayTree) assert.ok(read(row.treeCpuPerRequestMicros), `${where}: the process tree's CPU was read`);
    }
    assert.deepEqual(gateway!.data.eras, { http: "modern", "http-session": "modern", stdio: "legacy", "stdio-session": "legacy" });
    const cases = gateway!.data.cases as CaseResult[];
    assert.deepEqual(
      cases.map((c) => `${c.case} c=${c.concurrency}`),
      ["http", "http-session", "stdio", "stdio-session"].flatMap((id) => [`${id} c=1`, `${id} c=16`]),
    );
    for (const c of cases) {
      const read = (value: number) => Number.isFinite(value) && value >= 0;
      assert.ok(c.throughputRatio > 0 && Number.isFinite(c.p50ViaMs - c.p50DirectMs), `${c.case} c=${c.concurrency}`);
      assert.ok([c.upstreamViaMicros, c.hostViaMicros, c.hostNativeMicros, c.upstreamDirectMicros].every(read), `${c.case} c=${c.concurrency}`);
      assert.deepEqual(
        c.gateways.map((g) => g.gateway),
        c.case.startsWith("stdio") ? ["mcp-host", "mcp-proxy", "supergateway"] : ["mcp-host"],
      );
      for (const g of c.gateways) assert.ok(g.rps > 0 && read(g.ownMicros) && read(g.treeMicros), `${c.case} c=${c.concurrency} ${g.gateway}`);
    }
    // A smoke run judges no target: each says so, with what it would have judged.
    assert.deepEqual(
      gateway!.targets.map((t) => [t.id, t.pass]),
      [
        ["S5.peers", null],
        ["S5.cpu", null],
        ["S5.throughput", null],
        ["S5.p50", null],
      ],
    );
    assert.match(
      gateway!.targets[2]!.measured,
      /^not judged \(smoke run\): stdio c=16: [\d.]+×( ✗)?; stdio-session c=16: [\d.]+×( ✗)?; http c=16: [\d.]+×( ✗)?$/,
    );
    assert.ok(gateway!.ratios.some((r) => r.name === "through mcp-host ÷ direct, HTTP upstream, 2026-07-28 client, c=16, req/s" && r.value > 0));
    assert.ok(gateway!.ratios.some((r) => r.name === "mcp-host ÷ mcp-proxy, stdio upstream, 2025-session client, c=16, req/s" && r.value > 0));

    const md = readFileSync(join(run.out, "latest.md"), "utf8");
    assert.match(md, /## Scenario 5 — gateway/);
    assert.match(md, /\*\*Through mcp-host ÷ the upstream called directly: throughput, and the latency mcp-host adds\*\*/);
    assert.match(md, /\*\*Where a proxied call's CPU goes \(µs of server CPU per call, from \/proc\)\*\*/);
    assert.match(md, /\*\*Every gateway in front of the same upstream: through it ÷ direct, the latency it adds, its CPU per call\*\*/);
    assert.match(md, /\| S5\.throughput: .* \| not measured \|/);
    assert.match(md, /negotiated: HTTP modern era .* stdio legacy era/);
  });
});
