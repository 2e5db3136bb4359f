/**
 * Scenario 5, `gateway`: `tools/call echo` through mcp-host to an upstream it mounts with `servers:` (docs/design.md
 * §11), against calling that upstream directly, at concurrency 1 and 16 — HTTP (the raw SDK v2 peer) and stdio
 * (raw SDK v2 `serveStdio`, started by mcp-host; for the direct leg, by the load generator). mcp-host runs as users
 * run it: the built CLI's `serve` on a config file. Beside them, mcp-host serving the same echo as a native tool,
 * so that a proxied call's host CPU splits into the serving path and the gateway's own cost. Every answer is
 * checked; the upstream's CPU is read from /proc over the same windows as the host's.
 */
import { ratio } from "../lib/format.js";
import { caseResult, comparisonTable, cpuTable, type GatewayCase, gatewayRatios, signed, subjectTable } from "../lib/gateway-report.js";
import { measureAt, type Row, type Subject } from "../lib/measure.js";
import { point, target } from "../lib/targets.js";
import { rowErrors } from "../lib/throughput-report.js";
import { DIRECT_STDIO_KEY, type GatewayServers, HOST_ROLES, NATIVE_TOOLSET, startGatewayServers, UPSTREAM_TOOLSET } from "./gateway-servers.js";
import { concurrencies, emptyOutcome, type Scenario } from "./scenario.js";
import { profilesSince } from "./throughput.js";
import { mkdirSync, readdirSync } from "node:fs";

const FIRST_WARMUP_MS = 10_000;

const CASES: readonly GatewayCase[] = [
  { id: "http", label: "HTTP upstream, 2026-07-28 client", direct: "direct-http", via: "host-http", native: "host-native" },
  { id: "http-session", label: "HTTP upstream, 2025-session client", direct: "direct-http", via: "host-http-session", native: "host-native-session" },
  { id: "stdio", label: "stdio upstream, 2026-07-28 client", direct: "direct-stdio", via: "host-stdio", native: "host-native" },
];
const CASE_LABELS = new Map(CASES.map((c) => [c.id, c.label]));

const selection = (url: URL, toolset: string) => `${url.href}?only=${toolset}`;

function subjects(servers: GatewayServers): Array<Subject & { leg: string }> {
  const { upstream, hosts } = servers;
  const httpLeg = `HTTP, ${servers.eras.http ?? "?"} era`;
  return [
    {
      id: "direct-http",
      label: "HTTP upstream (raw SDK v2), called directly",
      leg: "— (it is the upstream)",
      peer: upstream,
      era: "modern",
      op: "call",
      tools: 1,
    },
    {
      id: "host-http",
      label: "mcp-host → HTTP upstream",
      leg: httpLeg,
      peer: hosts.http,
      url: selection(hosts.http.url, UPSTREAM_TOOLSET),
      upstream,
      era: "modern",
      op: "call",
      tools: 1,
    },
    {
      id: "host-http-session",
      label: "mcp-host → HTTP upstream (2025 session)",
      leg: `HTTP, ${servers.eras["http-session"] ?? "?"} era`,
      peer: hosts["http-session"],
      url: selection(hosts["http-session"].url, UPSTREAM_TOOLSET),
      upstream,
      era: "session",
      op: "call",
      tools: 1,
    },
    {
      id: "direct-stdio",
      label: "stdio upstream (raw SDK v2 serveStdio), called directly",
      leg: "— (the load generator's stdio client, 2025 handshake)",
      peer: servers.directStdio,
      stdio: DIRECT_STDIO_KEY,
      era: "session",
      op: "call",
      tools: 1,
      note: "a stdio client inside the load generator, one pipe, calls multiplexed by id",
    },
    {
      id: "host-stdio",
      label: "mcp-host → stdio upstream",
      leg: `stdio, ${servers.eras.stdio ?? "?"} era`,
      peer: hosts.stdio,
      url: selection(hosts.stdio.url, UPSTREAM_TOOLSET),
      upstream: servers.hostStdioChild,
      era: "modern",
      op: "call",
      tools: 1,
    },
    {
      id: "host-native",
      label: "mcp-host, echo as a native tool (reference)",
      leg: "none",
      peer: hosts.native,
      url: selection(hosts.native.url, NATIVE_TOOLSET),
      era: "modern",
      op: "call",
      tools: 1,
    },
    {
      id: "host-native-session",
      label: "mcp-host, native echo, 2025 session (reference)",
      leg: "none",
      peer: hosts["native-session"],
      url: selection(hosts["native-session"].url, NATIVE_TOOLSET),
      era: "session",
      op: "call",
      tools: 1,
    },
  ];
}

export const gatewayScenario: Scenario = {
  name: "gateway",
  title: "Scenario 5 — gateway: tools/call through mcp-host to an upstream, against the upstream directly",
  about:
    "tools/call echo through mcp-host to an upstream it mounts as the toolset `up` (`servers:` in a config file, served by the built CLI's `mcp-host serve`, requests to `/mcp?only=up`), against the same upstream called directly, at concurrency 1 and 16. HTTP upstream: the raw SDK v2 peer in its own process (mcp-host's connection to it negotiates its era by probing). stdio upstream: raw SDK v2 `serveStdio`, which mcp-host starts itself; called directly, by a stdio client in the load generator over one pipe (the 2025 handshake, which is what mcp-host negotiates over stdio). The main case is a 2026-07-28 client; a 2025-session client through mcp-host is measured too. mcp-host serving the same echo as a native tool is the reference for what proxying adds to its own CPU. Every mcp-host and the upstreams run in their own processes; the upstream's CPU per call is read from /proc too.",
  async run(context) {
    const outcome = emptyOutcome();
    const levels = concurrencies(context, [1, 16]);
    // The SDK client inside a proxying mcp-host takes 6–9 s of calls to reach its steady speed (JIT), so a full run
    // warms every subject for 10 s first; a quick run keeps its short warm-up (its numbers are rough anyway).
    const timing = context.options.quick
      ? context.options.timing
      : { ...context.options.timing, firstWarmupMs: Math.max(context.options.timing.firstWarmupMs, FIRST_WARMUP_MS) };
    const profileDir = context.profileDir;
    if (profileDir) mkdirSync(profileDir, { recursive: true });
    const before = new Set(profileDir ? readdirSync(profileDir) : []);
    context.log("  starting the upstream, 5 mcp-host processes (built CLI) and the direct stdio server");
    const servers = await startGatewayServers({
      loadgen: context.loadgen,
      ...(profileDir && context.options.profilePeers.includes("mcp-host") ? { profileDir } : {}),
      profileUpstream: context.options.profilePeers.includes("sdk-v2"),
    });
    const list = subjects(servers);
    const rows: Row[] = [];
    const warmed = new Set<string>();
    const labels = new Map<number, string>(list.map((s) => [s.peer.pid, s.label]));
    const stderrBefore = HOST_ROLES.map((role) => servers.hosts[role].stderrLength);
    let stderrGrowth: number[] = [];
    try {
      for (const concurrency of levels) {
        context.log(` call at concurrency ${concurrency}`);
        rows.push(...(await measureAt({ loadgen: context.loadgen, timing, warmed, log: context.log }, list, concurrency)));
      }
      stderrGrowth = HOST_ROLES.map((role, i) => servers.hosts[role].stderrLength - stderrBefore[i]!);
    } finally {
      await servers.close();
    }
    const results = CASES.flatMap((c) => levels.map((level) => caseResult(rows, c, level)).filter((r) => r !== undefined));
    const legs = new Map(list.map((s) => [s.id, s.leg]));
    const profiles = profileDir ? profilesSince(profileDir, before, labels) : { profiles: [], profileFiles: [] };
    outcome.rows = rows;
    outcome.errors = rowErrors(rows);
    outcome.tables = [
      ...levels.map((c) => subjectTable(rows, c, legs)),
      comparisonTable(results, CASE_LABELS),
      cpuTable(results, CASE_LABELS),
      ...profiles.profiles,
    ];
    outcome.ratios = gatewayRatios(results, CASE_LABELS);
    outcome.data.eras = servers.eras;
    outcome.data.cases = results;
    if (profiles.profileFiles.length) outcome.data.profiles = profiles.profileFiles;

    const at = (id: string, c: number) => results.find((r) => r.case === id && r.concurrency === c);
    const main = ["http", "stdio"] as const;
    outcome.targets = [
      target(
        "S5.throughput",
        "through mcp-host ≥ 0.8× the upstream called directly, req/s (HTTP and stdio upstream, 2026-07-28 client), concurrency 1 and 16",
        main.flatMap((id) => [1, 16].map((c) => point(`${id} c=${c}`, at(id, c)?.throughputRatio ?? NaN, (v) => v >= 0.8, ratio))),
      ),
      target(
        "S5.p50",
        "p50 added by mcp-host under 1 ms at concurrency 1 (HTTP and stdio upstream, 2026-07-28 client)",
        main.map((id) => {
          const r = at(id, 1);
          return point(
            id,
            r ? r.p50ViaMs - r.p50DirectMs : NaN,
            (v) => v < 1,
            (v) => `${signed(v)} ms (${r!.p50DirectMs.toFixed(2)} → ${r!.p50ViaMs.toFixed(2)})`,
          );
        }),
      ),
    ];
    outcome.notes.push(
      `The connection mcp-host opens to each upstream negotiated: HTTP ${servers.eras.http} era (the 2025-session client's host: ${servers.eras["http-session"]}), stdio ${servers.eras.stdio} era. A 2026-07-28 upstream connection is "modern", a 2025 handshake "legacy".`,
    );
    outcome.notes.push(
      "The raw SDK v2 upstream has no 2025 sessions (its 2025 leg is stateless), so the 2025-session client through mcp-host is compared with the 2026-07-28 client calling it directly: its delta includes mcp-host's session handling.",
    );
    outcome.notes.push(
      "mcp-host runs from dist/ (the built CLI, plain node) with --log-level debug, for its one-per-connection era line; the upstream peer runs through tsx like every peer of scenarios 1–3.",
    );
    const grew = stderrGrowth.filter((n) => n > 0);
    if (grew.length > 0)
      outcome.notes.push(`mcp-host wrote ${grew.join(", ")} characters on stderr while measured (expected none): ${servers.hosts.http.stderr().slice(-300)}`);
    return outcome;
  },
};
