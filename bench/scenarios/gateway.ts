/**
 * Scenario 5, `gateway`: `tools/call echo` through mcp-host to an upstream it mounts with `servers:` (docs/design.md
 * §11), against calling that upstream directly, at concurrency 1 and 16 — HTTP (the raw SDK v2 peer) and stdio
 * (raw SDK v2 `serveStdio`, started by mcp-host), in both client eras. mcp-host runs as users run it: the built CLI's
 * `serve` on a config file, with its default logging. Beside it, the gateways people use for this job — mcp-proxy and
 * supergateway — fronting the same stdio upstream; "direct" for a stdio case is the same server served over HTTP, in
 * the client's era. mcp-host serving the same echo as a native tool is the reference that splits a proxied call's host
 * CPU into the serving path and the gateway's own cost; a compared build (`--compare-cli`) runs in the same run. Every
 * answer is checked; each gateway's CPU is read for its own process and its whole process tree.
 */
import { ratio } from "../lib/format.js";
import {
  caseResult,
  comparisonTable,
  cpuTable,
  type CaseResult,
  type GatewayCase,
  gatewayRatios,
  gatewaysTable,
  signed,
  subjectTable,
} from "../lib/gateway-report.js";
import { measureAt, type Row, type Subject } from "../lib/measure.js";
import type { Era } from "../lib/protocol.js";
import { point, target } from "../lib/targets.js";
import { rowErrors } from "../lib/throughput-report.js";
import {
  DIRECT_STDIO_KEY,
  type GatewayRole,
  type GatewayServers,
  HOST_ROLES,
  NATIVE_TOOLSET,
  type PeerRole,
  startGatewayServers,
  UPSTREAM_TOOLSET,
} from "./gateway-servers.js";
import { concurrencies, emptyOutcome, type Scenario } from "./scenario.js";
import { profilesSince } from "./throughput.js";
import { mkdirSync, readdirSync } from "node:fs";

const FIRST_WARMUP_MS = 10_000;

/** The subject ids of a compared build's gateways. */
const comparedId = (role: GatewayRole) => `compared-host-${role}`;
const hostId = (role: GatewayRole) => `host-${role}`;
const COMPARED_NAME = "mcp-host (compared build)";

function cases(compared: boolean): GatewayCase[] {
  const also = (role: GatewayRole) => (compared ? [{ id: comparedId(role), gateway: COMPARED_NAME }] : []);
  return [
    { id: "http", label: "HTTP upstream, 2026-07-28 client", direct: "direct-http", via: "host-http", native: "host-native", others: also("http") },
    {
      id: "http-session",
      label: "HTTP upstream, 2025-session client",
      direct: "direct-http",
      via: "host-http-session",
      native: "host-native-session",
      others: also("http-session"),
    },
    {
      id: "stdio",
      label: "stdio upstream, 2026-07-28 client",
      direct: "direct-http",
      via: "host-stdio",
      native: "host-native",
      others: [{ id: "mcp-proxy", gateway: "mcp-proxy" }, { id: "supergateway", gateway: "supergateway" }, ...also("stdio")],
    },
    {
      id: "stdio-session",
      label: "stdio upstream, 2025-session client",
      direct: "direct-http-session",
      via: "host-stdio-session",
      native: "host-native-session",
      others: [{ id: "mcp-proxy-session", gateway: "mcp-proxy" }, { id: "supergateway-session", gateway: "supergateway" }, ...also("stdio-session")],
    },
  ];
}

const selection = (url: URL, toolset: string) => `${url.href}?only=${toolset}`;
const eraOfRole = (role: GatewayRole): Era => (role.endsWith("-session") ? "session" : "modern");

function hostSubject(servers: GatewayServers, role: GatewayRole, compared: boolean): Subject & { leg: string } {
  const gateway = compared ? servers.compared![role] : servers.gateways[role];
  const stdio = role.startsWith("stdio");
  const session = eraOfRole(role) === "session";
  const who = compared ? COMPARED_NAME : "mcp-host";
  return {
    id: compared ? comparedId(role) : hostId(role),
    label: `${who} → ${stdio ? "stdio" : "HTTP"} upstream${session ? " (2025 session)" : ""}`,
    leg: `${stdio ? "stdio" : "HTTP"}, ${servers.eras[role] ?? "?"} era`,
    peer: gateway.host,
    url: selection(gateway.host.url, UPSTREAM_TOOLSET),
    upstream: gateway.stdioChild ?? servers.upstream,
    tree: gateway.tree,
    era: eraOfRole(role),
    op: "call",
    tools: 1,
  };
}

function peerSubject(servers: GatewayServers, role: PeerRole): Subject & { leg: string } {
  const peer = servers.peers[role];
  const session = role.endsWith("-session");
  return {
    id: role,
    label: `${peer.kind} → stdio upstream${session ? " (2025 session)" : ""}`,
    leg: peer.kind === "supergateway" ? (session ? "stdio, one upstream per session (--stateful)" : "stdio, one upstream per request") : "stdio, 2025 era",
    peer,
    tree: peer.tree,
    era: session ? "session" : "modern",
    op: "call",
    tools: 1,
  };
}

function subjects(servers: GatewayServers): Array<Subject & { leg: string }> {
  const { upstream, upstreamSessions, hosts } = servers;
  const compared = servers.compared ? (["http", "http-session", "stdio", "stdio-session"] as const).map((role) => hostSubject(servers, role, true)) : [];
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
      id: "direct-http-session",
      label: "the same server with 2025 sessions (raw SDK v2), called directly",
      leg: "— (the stdio cases' direct leg, 2025 client)",
      peer: upstreamSessions,
      era: "session",
      op: "call",
      tools: 1,
    },
    hostSubject(servers, "http", false),
    hostSubject(servers, "http-session", false),
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
    hostSubject(servers, "stdio", false),
    hostSubject(servers, "stdio-session", false),
    peerSubject(servers, "mcp-proxy"),
    peerSubject(servers, "mcp-proxy-session"),
    peerSubject(servers, "supergateway"),
    peerSubject(servers, "supergateway-session"),
    ...compared,
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

/** The S5 targets (issue 21), judged on one interleaved run. */
function targetsOf(results: readonly CaseResult[]) {
  const at = (id: string, c: number) => results.find((r) => r.case === id && r.concurrency === c);
  const stdioCases = ["stdio", "stdio-session"] as const;
  const ahead = stdioCases.flatMap((id) =>
    [1, 16].flatMap((c) => {
      const r = at(id, c);
      const proxy = r?.gateways.find((g) => g.gateway === "mcp-proxy");
      const host = r?.gateways[0];
      return [
        point(`${id} c=${c} req/s`, host && proxy ? host.rps / proxy.rps : NaN, (v) => v > 1, ratio),
        point(`${id} c=${c} CPU`, host && proxy ? proxy.treeMicros / host.treeMicros : NaN, (v) => v > 1, ratio),
      ];
    }),
  );
  return [
    target(
      "S5.peers",
      "mcp-host ahead of mcp-proxy on a stdio upstream, both client eras, c=1 and 16: req/s (mcp-host ÷ mcp-proxy > 1) and process-tree CPU per call (mcp-proxy ÷ mcp-host > 1)",
      ahead,
    ),
    target(
      "S5.cpu",
      "mcp-host's own process ≤ 500 µs of CPU per proxied call at concurrency 16 (stdio and HTTP upstream, both client eras)",
      ["stdio", "stdio-session", "http", "http-session"].map((id) =>
        point(
          id,
          at(id, 16)?.hostViaMicros ?? NaN,
          (v) => v <= 500,
          (v) => `${v.toFixed(0)} µs`,
        ),
      ),
    ),
    target("S5.throughput", "through mcp-host ÷ direct, req/s, at concurrency 16: ≥ 0.8 on a stdio upstream, ≥ 0.6 on an HTTP upstream (2026-07-28 client)", [
      point("stdio c=16", at("stdio", 16)?.throughputRatio ?? NaN, (v) => v >= 0.8, ratio),
      point("stdio-session c=16", at("stdio-session", 16)?.throughputRatio ?? NaN, (v) => v >= 0.8, ratio),
      point("http c=16", at("http", 16)?.throughputRatio ?? NaN, (v) => v >= 0.6, ratio),
    ]),
    target(
      "S5.p50",
      "p50 added by mcp-host ≤ 1 ms at concurrency 1 and ≤ 2 ms at 16 (stdio and HTTP upstream, 2026-07-28 client)",
      ["http", "stdio"].flatMap((id) =>
        [1, 16].map((c) => {
          const r = at(id, c);
          return point(
            `${id} c=${c}`,
            r ? r.p50ViaMs - r.p50DirectMs : NaN,
            (v) => v <= (c === 1 ? 1 : 2),
            (v) => `${signed(v)} ms (${r!.p50DirectMs.toFixed(2)} → ${r!.p50ViaMs.toFixed(2)})`,
          );
        }),
      ),
    ),
  ];
}

export const gatewayScenario: Scenario = {
  name: "gateway",
  title: "Scenario 5 — gateway: tools/call through mcp-host to an upstream, against the upstream directly",
  about:
    "tools/call echo through mcp-host to an upstream it mounts as the toolset `up` (`servers:` in a config file, served by the built CLI's `mcp-host serve` with its default logging, requests to `/mcp?only=up`), against the same upstream called directly, at concurrency 1 and 16, in both client eras (2026-07-28, and 2025 sessions). HTTP upstream: the raw SDK v2 peer in its own process (mcp-host's connection to it negotiates its era by probing). stdio upstream: raw SDK v2 `serveStdio`, which each gateway starts itself; its direct leg is the same server served over HTTP (raw SDK v2, with sessions for the 2025 client), and the load generator's own stdio client over one pipe is measured too. Beside mcp-host, mcp-proxy and supergateway front the same stdio upstream (loopback only, no telemetry). mcp-host serving the same echo as a native tool is the reference for what proxying adds to its own CPU. Every gateway and upstream runs in its own process; each gateway's CPU per call is read for its own process and for its whole process tree (its upstreams, reaped ones included).",
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
    const compareCli = context.options.compareCli;
    context.log(
      `  starting the upstreams, ${HOST_ROLES.length} mcp-host processes (built CLI)${compareCli ? ", 4 of the compared build" : ""}, mcp-proxy, supergateway and the direct stdio server`,
    );
    const servers = await startGatewayServers({
      loadgen: context.loadgen,
      ...(profileDir && context.options.profilePeers.includes("mcp-host") ? { profileDir } : {}),
      profileUpstream: context.options.profilePeers.includes("sdk-v2"),
      profileGateways: false,
      ...(compareCli ? { compareCli } : {}),
    });
    const list = subjects(servers);
    const caseList = cases(servers.compared !== undefined);
    const labelsOfCases = new Map(caseList.map((c) => [c.id, c.label]));
    const rows: Row[] = [];
    const warmed = new Set<string>();
    const labels = new Map<number, string>(list.map((s) => [s.peer.pid, s.label]));
    const hostsMeasured = list.filter((s) => s.id.startsWith("host-"));
    const stderrBefore = hostsMeasured.map((s) => (s.peer as GatewayServers["hosts"]["http"]).stderrLength);
    let stderrGrowth: number[] = [];
    try {
      for (const concurrency of levels) {
        context.log(` call at concurrency ${concurrency}`);
        rows.push(...(await measureAt({ loadgen: context.loadgen, timing, warmed, log: context.log }, list, concurrency)));
      }
      stderrGrowth = hostsMeasured.map((s, i) => (s.peer as GatewayServers["hosts"]["http"]).stderrLength - stderrBefore[i]!);
    } finally {
      await servers.close();
    }
    const results = caseList.flatMap((c) => levels.map((level) => caseResult(rows, c, level)).filter((r) => r !== undefined));
    const legs = new Map(list.map((s) => [s.id, s.leg]));
    const profiles = profileDir ? profilesSince(profileDir, before, labels) : { profiles: [], profileFiles: [] };
    outcome.rows = rows;
    outcome.errors = rowErrors(rows);
    outcome.tables = [
      ...levels.map((c) => subjectTable(rows, c, legs)),
      gatewaysTable(results, labelsOfCases),
      comparisonTable(results, labelsOfCases),
      cpuTable(results, labelsOfCases),
      ...profiles.profiles,
    ];
    outcome.ratios = gatewayRatios(results, labelsOfCases);
    outcome.data.eras = servers.eras;
    outcome.data.cases = results;
    if (profiles.profileFiles.length) outcome.data.profiles = profiles.profileFiles;
    outcome.targets = targetsOf(results);
    const { eras } = servers;
    outcome.notes.push(
      `The connection mcp-host opens to each upstream negotiated: HTTP ${eras.http} era (the 2025-session client's host: ${eras["http-session"]}), stdio ${eras.stdio} era (the 2025-session client's host: ${eras["stdio-session"]}). A 2026-07-28 upstream connection is "modern", a 2025 handshake "legacy". mcp-proxy and supergateway speak the 2025 handshake to their stdio upstream.`,
    );
    outcome.notes.push(
      "The raw SDK v2 upstream has no 2025 sessions (its 2025 leg is stateless), so the 2025-session client through mcp-host to it is compared with the 2026-07-28 client calling it directly: its delta includes mcp-host's session handling. A stdio case's direct leg is the same server over HTTP in the client's own era.",
    );
    outcome.notes.push(
      "mcp-host runs from dist/ (the built CLI, plain node) with its default logging (an access and an audit line per call) and --log-level debug, for its one-per-connection era line; mcp-proxy and supergateway run their bins with plain node and their default logging; the HTTP upstreams run through tsx like every peer of scenarios 1–3.",
    );
    const calls = rows.filter((r) => r.id.startsWith("host-")).reduce((n, r) => n + r.rounds.reduce((m, x) => m + x.ok, 0), 0);
    const wrote = stderrGrowth.reduce((a, b) => a + b, 0);
    if (calls > 0)
      outcome.notes.push(`mcp-host wrote ${(wrote / calls).toFixed(0)} characters of log per timed call on stderr (warm-ups included in the characters).`);
    return outcome;
  },
};
