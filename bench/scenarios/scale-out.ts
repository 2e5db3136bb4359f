/**
 * Scenario 7, `scale-out`: modern `tools/call echo` through three `mcp-host serve` instances behind nginx (the
 * example's configuration, sharing one Redis: docs/scale-out.md) against one instance on its own, on the same machine,
 * at concurrency 1 and 16. The fleet's CPU is its three instances' and nginx's together. Then what Redis costs a request
 * when rate limits are on: one instance counting the callers' rate in Redis against one counting it alone (the
 * limits high enough never to refuse), with Redis's own CPU per request read over the same windows; and the fleet with
 * the rate counted in Redis. Every answer is checked.
 */
import { fixed, ratio } from "../lib/format.js";
import { measureAt, type Row, type Subject } from "../lib/measure.js";
import type { Table } from "../lib/results.js";
import { rowErrors } from "../lib/throughput-report.js";
import { concurrencies, emptyOutcome, type Scenario } from "./scenario.js";
import { missingServers, ProcessGroup, ScaleOutServers } from "./scale-out-servers.js";

/** Limits high enough never to refuse the load generator (one caller: its address), so only their cost shows. */
const RATE_ON = ["  callerRequestsPerSecond: 1000000", "  callerBurst: 1000000"];

async function subjects(servers: ScaleOutServers): Promise<Subject[]> {
  const redis = new ProcessGroup([servers.redisPid]);
  const one = await servers.instance("one", []);
  const local = await servers.instance("rate-local", RATE_ON);
  const shared = await servers.instance("rate-redis", [...RATE_ON, "scaleOut:", "  instanceId: rate-redis", "  redis:", `    url: "${servers.redisUrl}"`]);
  const fleet = await servers.fleet("fleet", []);
  const fleetRate = await servers.fleet("fleet-rate", RATE_ON);
  const call = { era: "modern" as const, op: "call" as const, tools: 1 };
  return [
    { id: "one", label: "one instance", peer: new ProcessGroup([one.pid], one.url), ...call },
    { id: "fleet", label: "three instances behind nginx (Redis: events)", peer: fleet, upstream: redis, ...call },
    { id: "rate-local", label: "one instance, rate limit counted alone", peer: new ProcessGroup([local.pid], local.url), ...call },
    { id: "rate-redis", label: "one instance, rate limit counted in Redis", peer: new ProcessGroup([shared.pid], shared.url), upstream: redis, ...call },
    { id: "fleet-rate", label: "three instances behind nginx, rate limit counted in Redis", peer: fleetRate, upstream: redis, ...call },
  ];
}

function find(rows: readonly Row[], id: string, c: number): Row | undefined {
  return rows.find((r) => r.id === id && r.concurrency === c);
}

function table(rows: readonly Row[], c: number): Table {
  return {
    title: `Scenario 7 at concurrency ${c}: tools/call echo, 2026-07-28 client`,
    columns: ["subject", "req/s", "p50 ms", "p99 ms", "server CPU µs/req", "Redis CPU µs/req", "errors"],
    rows: rows
      .filter((r) => r.concurrency === c)
      .map((r) => [
        r.label,
        fixed(r.rps),
        fixed(r.p50Ms, 2),
        fixed(r.p99Ms, 2),
        fixed(r.cpuPerRequestMicros),
        r.upstreamCpuPerRequestMicros === undefined ? "—" : fixed(r.upstreamCpuPerRequestMicros, 1),
        String(r.errors),
      ]),
    notes: ["A fleet's server CPU is its three instances' and nginx's (master and worker) together; Redis's is in its own column."],
  };
}

export const scaleOutScenario: Scenario = {
  name: "scale-out",
  title: "Scenario 7 — scale-out: three instances behind nginx against one, and Redis's cost per request",
  about:
    "tools/call echo (2026-07-28) through three `mcp-host serve` instances (the built CLI) behind nginx running examples/scale-out/nginx/mcp-host.conf.template, sharing one redis-server, against one instance on its own, on the same machine, at concurrency 1 and 16. Then the cost of the callers' rate counted in Redis (one Lua script a request) against counting it alone, on one instance and on the fleet, with limits that never refuse. Needs Debian's redis-server and nginx (node scripts/ensure-fleet-servers.mjs).",
  async run(context) {
    const outcome = emptyOutcome();
    const missing = missingServers();
    if (missing !== undefined) {
      outcome.notes.push(`not run: ${missing}`);
      return outcome;
    }
    const levels = concurrencies(context, [1, 16]);
    const servers = new ScaleOutServers();
    const rows: Row[] = [];
    try {
      await servers.startRedis();
      context.log("  starting Redis, 9 mcp-host processes (built CLI) and 2 nginx");
      const list = await subjects(servers);
      const warmed = new Set<string>();
      for (const concurrency of levels) {
        context.log(` call at concurrency ${concurrency}`);
        rows.push(...(await measureAt({ loadgen: context.loadgen, timing: context.options.timing, warmed, log: context.log }, list, concurrency)));
      }
    } finally {
      await servers.close();
    }
    outcome.rows = rows;
    outcome.errors = rowErrors(rows);
    outcome.tables = levels.map((c) => table(rows, c));
    const costs: string[][] = [];
    for (const c of levels) {
      const one = find(rows, "one", c);
      const fleet = find(rows, "fleet", c);
      if (one && fleet) {
        outcome.ratios.push({ name: `fleet of 3 ÷ one instance, req/s, c=${c}`, value: fleet.rps / one.rps });
        outcome.ratios.push({ name: `one instance ÷ fleet of 3, CPU per request, c=${c}`, value: one.cpuPerRequestMicros / fleet.cpuPerRequestMicros });
      }
      const local = find(rows, "rate-local", c);
      const shared = find(rows, "rate-redis", c);
      const fleetRate = find(rows, "fleet-rate", c);
      if (local && shared) {
        costs.push([
          `one instance, c=${c}`,
          fixed(shared.p50Ms - local.p50Ms, 3),
          fixed(shared.cpuPerRequestMicros - local.cpuPerRequestMicros, 1),
          fixed(shared.upstreamCpuPerRequestMicros ?? NaN, 1),
          ratio(shared.rps / local.rps),
        ]);
      }
      if (fleet && fleetRate) {
        costs.push([
          `fleet of 3, c=${c}`,
          fixed(fleetRate.p50Ms - fleet.p50Ms, 3),
          fixed(fleetRate.cpuPerRequestMicros - fleet.cpuPerRequestMicros, 1),
          fixed((fleetRate.upstreamCpuPerRequestMicros ?? NaN) - (fleet.upstreamCpuPerRequestMicros ?? 0), 1),
          ratio(fleetRate.rps / fleet.rps),
        ]);
      }
    }
    outcome.tables.push({
      title: "Scenario 7: what counting the rate in Redis costs a request",
      columns: ["where", "p50 added (ms)", "mcp-host CPU added (µs/req)", "Redis CPU (µs/req)", "req/s ratio (Redis ÷ without)"],
      rows: costs,
      notes: [
        "One instance: rate counted in Redis against counted alone. Fleet: rate counted in Redis against no rate limit (its Redis column: what the rate adds to Redis).",
      ],
    });
    outcome.notes.push(
      "Everything runs on this machine's cores: three instances, nginx and Redis share them with the load generator, so the fleet's ratio is bounded by the cores, not by mcp-host.",
    );
    return outcome;
  },
};
