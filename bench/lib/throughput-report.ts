/**
 * Tables and ratios over throughput rows: one table per operation and concurrency (every peer's req/s, latency,
 * server CPU per request, RSS, wrong answers, and how mcp-host compares), and the matrix of host ÷ peer ratios
 * that the targets read.
 */
import { fixed, mib, ms, percent, ratio } from "./format.js";
import type { Row } from "./measure.js";
import type { Ratio, Table } from "./results.js";

export const OP_NAMES = { call: "tools/call echo", list: "tools/list", churn: "session churn (initialize, tools/list, 10 calls, DELETE)" } as const;

export function findRow(rows: readonly Row[], id: string, op: Row["op"], concurrency: number): Row | undefined {
  return rows.find((r) => r.id === id && r.op === op && r.concurrency === concurrency);
}

/** req/s of mcp-host ÷ req/s of the peer (> 1: the host serves more). */
export function rpsRatio(host: Row | undefined, peer: Row | undefined): number {
  return host && peer ? host.rps / peer.rps : NaN;
}

/** The peer's server CPU per request ÷ the host's (> 1: the host spends less per request). */
export function cpuRatio(host: Row | undefined, peer: Row | undefined): number {
  return host && peer ? peer.cpuPerRequestMicros / host.cpuPerRequestMicros : NaN;
}

export function throughputTables(rows: readonly Row[], hostId: string): Table[] {
  const groups = new Map<string, Row[]>();
  for (const row of rows) {
    const key = `${row.op}@${row.concurrency}`;
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  return [...groups.values()].map((group) => {
    const { op, concurrency } = group[0]!;
    const unit = op === "churn" ? "sessions/s" : "req/s";
    const host = group.find((r) => r.id === hostId);
    return {
      title: `${OP_NAMES[op]}, concurrency ${concurrency}`,
      columns: [
        "peer",
        "era",
        unit,
        "rounds",
        "p50 ms",
        "p99 ms",
        op === "churn" ? "srv µs/session" : "srv µs/req",
        "srv CPU",
        "load CPU",
        "RSS MiB",
        "wrong",
        `host ÷ peer ${unit}`,
        "peer ÷ host CPU",
      ],
      rows: group.map((row) => [
        row.label,
        row.era === "modern" ? "2026-07-28" : "2025 session",
        fixed(row.rps, row.rps < 100 ? 1 : 0),
        row.rounds.map((r) => fixed(r.rps, r.rps < 100 ? 1 : 0)).join(" / "),
        ms(row.p50Ms),
        ms(row.p99Ms),
        fixed(row.cpuPerRequestMicros),
        percent(row.serverCpuPercent),
        percent(row.loadCpuPercent),
        mib(row.rssBytes),
        String(row.errors),
        row.id === hostId ? "" : ratio(rpsRatio(host, row)),
        row.id === hostId ? "" : ratio(cpuRatio(host, row)),
      ]),
      notes: [
        ...group.filter((r) => r.note).map((r) => `${r.label}: ${r.note}`),
        ...group
          .filter((r) => r.logLinesPerRequest !== undefined)
          .map(
            (r) =>
              `${r.label} wrote ${fixed(r.logLinesPerRequest!, 2)} log lines per ${op === "churn" ? "session" : "request"} on stderr (a pipe the suite drains).`,
          ),
      ],
    };
  });
}

/** mcp-host ÷ each peer, per operation and concurrency, in req/s and in server CPU per request. */
export function hostRatios(rows: readonly Row[], hostId: string, labelOf: (id: string) => string): Ratio[] {
  const ratios: Ratio[] = [];
  for (const host of rows.filter((r) => r.id === hostId)) {
    for (const peer of rows.filter((r) => r.id !== hostId && r.op === host.op && r.concurrency === host.concurrency)) {
      const where = `${OP_NAMES[host.op]}, c=${host.concurrency}`;
      ratios.push({ name: `mcp-host ÷ ${labelOf(peer.id)}, ${where}, req/s`, value: rpsRatio(host, peer) });
      ratios.push({ name: `mcp-host ÷ ${labelOf(peer.id)}, ${where}, CPU per request (peer µs ÷ host µs)`, value: cpuRatio(host, peer) });
    }
  }
  return ratios;
}

/** One line per peer, one column per operation and concurrency: "req/s ratio (CPU ratio)". */
export function ratioMatrix(rows: readonly Row[], hostId: string): Table {
  const columns = [...new Set(rows.map((r) => `${r.op}@${r.concurrency}`))];
  const peers = [...new Set(rows.filter((r) => r.id !== hostId).map((r) => r.id))];
  return {
    title: "mcp-host ÷ peer: req/s ratio (server CPU-per-request ratio); > 1 means mcp-host is ahead",
    columns: [
      "peer",
      ...columns.map((c) => {
        const [op, concurrency] = c.split("@");
        return `${op} c=${concurrency}`;
      }),
    ],
    rows: peers.map((id) => [
      rows.find((r) => r.id === id)!.label,
      ...columns.map((c) => {
        const [op, concurrency] = c.split("@") as [Row["op"], string];
        const host = findRow(rows, hostId, op, Number(concurrency));
        const peer = findRow(rows, id, op, Number(concurrency));
        return peer && host ? `${ratio(rpsRatio(host, peer))} (${ratio(cpuRatio(host, peer))})` : "–";
      }),
    ]),
  };
}

/** Every wrong answer, as an error line naming the row. */
export function rowErrors(rows: readonly Row[]): string[] {
  return rows.filter((r) => r.errors > 0).map((r) => `${r.label} ${OP_NAMES[r.op]} c=${r.concurrency}: ${r.errors} wrong answers; first: ${r.firstFailure}`);
}
