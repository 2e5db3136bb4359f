/**
 * Scenario 5's tables: every subject's row (with the upstream's CPU beside the server's), each proxied case
 * against the upstream called directly (throughput ratio, p50 and p99 deltas), where a proxied call's CPU goes
 * (mcp-host, the upstream, and mcp-host's own cost over the same echo served natively), and every gateway of a case
 * side by side — mcp-host, the third-party gateways (mcp-proxy, supergateway), a compared mcp-host build — with
 * what each adds over direct and its CPU per call, its own process's and its whole process tree's.
 */
import { fixed, mib, ms, percent, ratio } from "./format.js";
import type { Row } from "./measure.js";
import type { Ratio, Table } from "./results.js";
import { findRow } from "./throughput-report.js";

/** A proxied subject, the direct one it is compared with, and mcp-host's native echo in the same client era. */
export interface GatewayCase {
  id: string;
  label: string;
  direct: string;
  via: string;
  native: string;
  /** Other gateways fronting the same upstream in the same client era: subject id → the gateway's name. */
  others?: ReadonlyArray<{ id: string; gateway: string }>;
}

/** One gateway of a case at one concurrency. */
export interface GatewayResult {
  /** The subject measured, and the gateway's name ("mcp-host", "mcp-proxy", …). */
  id: string;
  gateway: string;
  rps: number;
  /** Its req/s ÷ the upstream called directly. */
  throughputRatio: number;
  p50AddedMs: number;
  p99AddedMs: number;
  /** CPU per call (µs) of the gateway's own process, and of its whole process tree (upstreams included, reaped ones too). */
  ownMicros: number;
  treeMicros: number;
}

/** One case at one concurrency, as latest.json keeps it. */
export interface CaseResult {
  case: string;
  concurrency: number;
  directRps: number;
  viaRps: number;
  /** mcp-host serving the same echo natively, same client era. */
  nativeRps: number;
  /** via ÷ direct req/s (the target: ≥ 0.8). */
  throughputRatio: number;
  p50DirectMs: number;
  p50ViaMs: number;
  p99DirectMs: number;
  p99ViaMs: number;
  /** CPU per call (µs): the upstream called directly, the upstream behind mcp-host, mcp-host proxying, mcp-host serving natively. */
  upstreamDirectMicros: number;
  upstreamViaMicros: number;
  hostViaMicros: number;
  hostNativeMicros: number;
  /** mcp-host first, then the case's other gateways, each against the same direct subject. */
  gateways: GatewayResult[];
}

function gatewayResult(id: string, gateway: string, row: Row, direct: Row): GatewayResult {
  return {
    id,
    gateway,
    rps: row.rps,
    throughputRatio: row.rps / direct.rps,
    p50AddedMs: row.p50Ms - direct.p50Ms,
    p99AddedMs: row.p99Ms - direct.p99Ms,
    ownMicros: row.cpuPerRequestMicros,
    treeMicros: row.treeCpuPerRequestMicros ?? NaN,
  };
}

export function caseResult(rows: readonly Row[], c: GatewayCase, concurrency: number): CaseResult | undefined {
  const direct = findRow(rows, c.direct, "call", concurrency);
  const via = findRow(rows, c.via, "call", concurrency);
  if (!direct || !via) return undefined;
  const native = findRow(rows, c.native, "call", concurrency);
  return {
    case: c.id,
    concurrency,
    directRps: direct.rps,
    viaRps: via.rps,
    nativeRps: native?.rps ?? NaN,
    throughputRatio: via.rps / direct.rps,
    p50DirectMs: direct.p50Ms,
    p50ViaMs: via.p50Ms,
    p99DirectMs: direct.p99Ms,
    p99ViaMs: via.p99Ms,
    upstreamDirectMicros: direct.cpuPerRequestMicros,
    upstreamViaMicros: via.upstreamCpuPerRequestMicros ?? NaN,
    hostViaMicros: via.cpuPerRequestMicros,
    hostNativeMicros: native?.cpuPerRequestMicros ?? NaN,
    gateways: [
      gatewayResult(c.via, "mcp-host", via, direct),
      ...(c.others ?? []).flatMap((o) => {
        const row = findRow(rows, o.id, "call", concurrency);
        return row ? [gatewayResult(o.id, o.gateway, row, direct)] : [];
      }),
    ],
  };
}

/** Every gateway of every case side by side; mcp-host ÷ each other gateway in req/s and in process-tree CPU per call. */
export function gatewaysTable(results: readonly CaseResult[], labels: ReadonlyMap<string, string>): Table {
  return {
    title: "Every gateway in front of the same upstream: through it ÷ direct, the latency it adds, its CPU per call",
    columns: [
      "case",
      "c",
      "gateway",
      "req/s",
      "÷ direct",
      "Δ p50 ms",
      "Δ p99 ms",
      "gateway process µs/call",
      "gateway tree µs/call",
      "mcp-host ÷ it, req/s",
      "mcp-host tree CPU ÷ its",
    ],
    rows: results.flatMap((r) => {
      const host = r.gateways[0]!;
      return r.gateways.map((g) => [
        labels.get(r.case) ?? r.case,
        String(r.concurrency),
        g.gateway,
        fixed(g.rps),
        ratio(g.throughputRatio),
        signed(g.p50AddedMs),
        signed(g.p99AddedMs),
        fixed(g.ownMicros),
        fixed(g.treeMicros),
        g === host ? "–" : ratio(host.rps / g.rps),
        g === host ? "–" : ratio(host.treeMicros / g.treeMicros),
      ]);
    }),
    notes: [
      "gateway process: the CPU of the process the client talks to. gateway tree: that process and every process it started — the stdio upstream, one per session or per request for supergateway — including those it already reaped (/proc utime + stime + cutime + cstime), so every gateway pays for its own upstream.",
      "mcp-host ÷ it, req/s > 1 and tree CPU ÷ its < 1 mean mcp-host is ahead.",
    ],
  };
}

/** A difference with its sign, e.g. "+0.42" or "−0.10". */
export function signed(value: number, digits = 2): string {
  return Number.isFinite(value) ? `${value >= 0 ? "+" : "−"}${Math.abs(value).toFixed(digits)}` : "–";
}

/** Every subject at one concurrency; `legs` says what each subject's upstream leg is. */
export function subjectTable(rows: readonly Row[], concurrency: number, legs: ReadonlyMap<string, string>): Table {
  return {
    title: `tools/call echo, concurrency ${concurrency}`,
    columns: [
      "subject",
      "client era",
      "upstream leg",
      "req/s",
      "rounds",
      "p50 ms",
      "p99 ms",
      "srv µs/req",
      "upstream µs/req",
      "tree µs/req",
      "srv CPU",
      "upstream CPU",
      "load CPU",
      "srv RSS MiB",
      "wrong",
    ],
    rows: rows
      .filter((r) => r.concurrency === concurrency)
      .map((row) => [
        row.label,
        row.era === "modern" ? "2026-07-28" : "2025 session",
        legs.get(row.id) ?? "–",
        fixed(row.rps),
        row.rounds.map((r) => fixed(r.rps)).join(" / "),
        ms(row.p50Ms),
        ms(row.p99Ms),
        fixed(row.cpuPerRequestMicros),
        fixed(row.upstreamCpuPerRequestMicros ?? NaN),
        fixed(row.treeCpuPerRequestMicros ?? NaN),
        percent(row.serverCpuPercent),
        percent(row.upstreamCpuPercent ?? NaN),
        percent(row.loadCpuPercent),
        mib(row.rssBytes),
        String(row.errors),
      ]),
    notes: [
      "srv: the process the load generator talks to (the upstream itself when called directly, the gateway when proxied). upstream: the upstream's process behind mcp-host, read over the same timed windows. tree: the gateway's whole process tree, its upstreams included (reaped ones too).",
    ],
  };
}

export function comparisonTable(results: readonly CaseResult[], labels: ReadonlyMap<string, string>): Table {
  return {
    title: "Through mcp-host ÷ the upstream called directly: throughput, and the latency mcp-host adds",
    columns: [
      "case",
      "c",
      "direct req/s",
      "via mcp-host req/s",
      "via ÷ direct",
      "via ÷ mcp-host native",
      "p50 ms direct",
      "p50 ms via",
      "Δ p50 ms",
      "p99 ms direct",
      "p99 ms via",
      "Δ p99 ms",
    ],
    rows: results.map((r) => [
      labels.get(r.case) ?? r.case,
      String(r.concurrency),
      fixed(r.directRps),
      fixed(r.viaRps),
      ratio(r.throughputRatio),
      ratio(r.viaRps / r.nativeRps),
      ms(r.p50DirectMs),
      ms(r.p50ViaMs),
      signed(r.p50ViaMs - r.p50DirectMs),
      ms(r.p99DirectMs),
      ms(r.p99ViaMs),
      signed(r.p99ViaMs - r.p99DirectMs),
    ]),
    notes: [
      "via ÷ mcp-host native: against mcp-host serving the same echo as its own tool (same HTTP front, same client era), so it leaves out what any HTTP server costs over a bare upstream — for a stdio upstream, whose direct client speaks no HTTP at all, that is most of the gap.",
    ],
  };
}

export function cpuTable(results: readonly CaseResult[], labels: ReadonlyMap<string, string>): Table {
  return {
    title: "Where a proxied call's CPU goes (µs of server CPU per call, from /proc)",
    columns: [
      "case",
      "c",
      "upstream, direct",
      "upstream, via mcp-host",
      "mcp-host per proxied call",
      "mcp-host per native call",
      "gateway's own (proxied − native)",
      "total via mcp-host (host + upstream)",
      "added over direct",
    ],
    rows: results.map((r) => {
      const total = r.hostViaMicros + r.upstreamViaMicros;
      return [
        labels.get(r.case) ?? r.case,
        String(r.concurrency),
        fixed(r.upstreamDirectMicros),
        fixed(r.upstreamViaMicros),
        fixed(r.hostViaMicros),
        fixed(r.hostNativeMicros),
        signed(r.hostViaMicros - r.hostNativeMicros, 0),
        fixed(total),
        signed(total - r.upstreamDirectMicros, 0),
      ];
    }),
    notes: [
      "mcp-host per native call: the same echo served as an extension's tool by mcp-host in the same client era, so proxied − native is what the gateway's client side (the registry, the upstream connection) costs mcp-host per call.",
      "A direct stdio call's client is the load generator, whose CPU is not counted; through mcp-host, mcp-host is the stdio client and its CPU is.",
    ],
  };
}

/** The ratios latest.json lists: via ÷ direct req/s, and direct upstream CPU ÷ total CPU via mcp-host. */
export function gatewayRatios(results: readonly CaseResult[], labels: ReadonlyMap<string, string>): Ratio[] {
  return results.flatMap((r) => {
    const where = `${labels.get(r.case) ?? r.case}, c=${r.concurrency}`;
    return [
      { name: `through mcp-host ÷ direct, ${where}, req/s`, value: r.throughputRatio },
      {
        name: `direct ÷ through mcp-host, ${where}, CPU per call (upstream µs ÷ (host + upstream) µs)`,
        value: r.upstreamDirectMicros / (r.hostViaMicros + r.upstreamViaMicros),
      },
      ...r.gateways.slice(1).flatMap((g) => [
        { name: `mcp-host ÷ ${g.gateway}, ${where}, req/s`, value: r.gateways[0]!.rps / g.rps },
        { name: `${g.gateway} ÷ mcp-host, ${where}, process-tree CPU per call`, value: g.treeMicros / r.gateways[0]!.treeMicros },
      ]),
    ];
  });
}
