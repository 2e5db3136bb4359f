/**
 * The measuring loop every throughput scenario uses. At one concurrency, every subject (a peer process with an
 * era and an operation) is measured in the same run, interleaved: round 1 in order, round 2 reversed, and so on,
 * so drift in the machine's load reaches every subject alike. Each measurement is warm-up (checked, not timed),
 * then a timed closed-loop window with the server's CPU read from /proc before and after (and, for a server whose
 * log lines the suite counts, the lines it wrote meanwhile).
 */
import type { LoadGenerator } from "./loadgen-client.js";
import type { Op, Sample } from "./loadgen-protocol.js";
import type { Era } from "./protocol.js";
import { median, percentile, sum } from "./stats.js";
import { defined } from "../../src/defined.js";

export interface Timing {
  /** Timed window of one measurement. */
  measureMs: number;
  /** Warm-up before every measurement (answers checked, not timed). */
  warmupMs: number;
  /** Warm-up of a subject the first time it is driven in a scenario (a fresh process's JIT needs a few seconds). */
  firstWarmupMs: number;
  rounds: number;
}

/** A server process as the loop sees it: its CPU time and RSS from /proc (a PeerProcess, a CLI host, a stdio child). */
export interface Measured {
  readonly pid: number;
  /** CPU time (µs, all threads) used so far. */
  cpuMicros(): number;
  rssBytes(): number;
  /** Lines it has written on stderr so far, when the suite counts them (the mcp-host CLI's log lines). */
  logLines?(): number;
  /** Its MCP endpoint, when it serves HTTP. */
  readonly url?: URL;
}

export interface Subject {
  /** Unique in the scenario, e.g. "mcp-host". */
  id: string;
  label: string;
  /** The server measured: its CPU and RSS are the row's server columns. */
  peer: Measured;
  /** Where requests go when not the peer's own URL (e.g. a selection, `?only=up`). */
  url?: string;
  /** Drive the stdio server the load generator started under this key instead of HTTP. */
  stdio?: string;
  /** A process behind the server (a gateway's upstream): its CPU is read over the same windows. */
  upstream?: Measured;
  /** The server's whole process tree (a gateway and the upstreams it started, reaped ones included), read alike. */
  tree?: Pick<Measured, "cpuMicros">;
  era: Era;
  op: Op;
  /** Tools its tools/list must return. */
  tools: number;
  /** Printed beside the row, e.g. "2025 era (no 2026-07-28)". */
  note?: string;
}

export interface Round {
  rps: number;
  ok: number;
  failed: number;
  seconds: number;
  /** Server CPU over the timed window (µs, /proc utime + stime). */
  cpuMicros: number;
  rssBytes: number;
  loadCpuMicros: number;
  /** The upstream's CPU over the timed window (µs), when the subject has one. */
  upstreamCpuMicros?: number;
  /** Lines the server wrote on stderr over the timed window, when they are counted. */
  logLines?: number;
  /** The server's process tree's CPU over the timed window (µs), when the subject has one. */
  treeCpuMicros?: number;
}

export interface Row {
  id: string;
  label: string;
  era: Era;
  op: Op;
  concurrency: number;
  note?: string;
  rounds: Round[];
  /** Median req/s over the rounds. */
  rps: number;
  p50Ms: number;
  p99Ms: number;
  /** Server CPU per checked answer (µs), over all rounds. */
  cpuPerRequestMicros: number;
  /** Share of one core the server used while timed (can pass 100%: GC threads). */
  serverCpuPercent: number;
  /** The upstream's CPU per checked answer (µs) and its share of a core, when the subject has one. */
  upstreamCpuPerRequestMicros?: number;
  upstreamCpuPercent?: number;
  /** Log lines the server wrote per checked answer, when they are counted. */
  logLinesPerRequest?: number;
  /** The server's whole process tree's CPU per checked answer (µs), when the subject has one. */
  treeCpuPerRequestMicros?: number;
  loadCpuPercent: number;
  rssBytes: number;
  /** Wrong answers (warm-ups included). */
  errors: number;
  firstFailure?: string;
  bodies: string[];
}

export interface MeasureContext {
  loadgen: LoadGenerator;
  timing: Timing;
  /** `id:op` of the subjects already warmed in this scenario (their first warm-up is done). */
  warmed: Set<string>;
  log(line: string): void;
}

interface Tally {
  rounds: Round[];
  latencies: number[];
  errors: number;
  firstFailure?: string;
  bodies: Set<string>;
}

function absorbFailures(tally: Tally, sample: Sample): void {
  tally.errors += sample.failed;
  if (sample.firstFailure) tally.firstFailure ??= sample.firstFailure;
  for (const body of sample.bodies) tally.bodies.add(body);
}

/** Measures every subject at one concurrency, interleaved over the rounds. */
export async function measureAt(context: MeasureContext, subjects: readonly Subject[], concurrency: number): Promise<Row[]> {
  const { loadgen, timing } = context;
  const key = (subject: Subject) => `${subject.id}@${concurrency}`;
  const tallies = new Map<string, Tally>(subjects.map((s) => [s.id, { rounds: [], latencies: [], errors: 0, bodies: new Set() }]));
  try {
    for (const subject of subjects) {
      const url = subject.url ?? subject.peer.url?.href;
      if (url === undefined && subject.stdio === undefined) throw new Error(`${subject.label}: no URL and no stdio server to drive`);
      await loadgen.open({
        key: key(subject),
        url: url ?? "",
        ...defined({ stdio: subject.stdio }),
        era: subject.era,
        concurrency,
        tools: subject.tools,
        sessions: subject.stdio === undefined && subject.era === "session" && subject.op !== "churn",
      });
    }
    for (const subject of subjects) {
      const first = !context.warmed.has(`${subject.id}:${subject.op}`);
      context.warmed.add(`${subject.id}:${subject.op}`);
      if (!first) continue;
      context.log(`  warm-up ${subject.label} (${timing.firstWarmupMs} ms)`);
      absorbFailures(tallies.get(subject.id)!, await loadgen.drive(key(subject), subject.op, timing.firstWarmupMs, false));
    }
    for (let round = 0; round < timing.rounds; round += 1) {
      const order = round % 2 === 0 ? subjects : [...subjects].reverse();
      for (const subject of order) {
        const tally = tallies.get(subject.id)!;
        absorbFailures(tally, await loadgen.drive(key(subject), subject.op, timing.warmupMs, false));
        const cpuBefore = subject.peer.cpuMicros();
        const upstreamBefore = subject.upstream?.cpuMicros();
        const linesBefore = subject.peer.logLines?.();
        const treeBefore = subject.tree?.cpuMicros();
        const sample = await loadgen.drive(key(subject), subject.op, timing.measureMs, true);
        const cpuMicros = subject.peer.cpuMicros() - cpuBefore;
        const upstreamCpuMicros = upstreamBefore === undefined ? undefined : subject.upstream!.cpuMicros() - upstreamBefore;
        const treeCpuMicros = treeBefore === undefined ? undefined : subject.tree!.cpuMicros() - treeBefore;
        // The lines of the window's last answers may still be in the pipe: a window's count can be a few short.
        const logLines = linesBefore === undefined ? undefined : subject.peer.logLines!() - linesBefore;
        absorbFailures(tally, sample);
        tally.rounds.push({
          rps: sample.ok / sample.seconds,
          ok: sample.ok,
          failed: sample.failed,
          seconds: sample.seconds,
          cpuMicros,
          rssBytes: subject.peer.rssBytes(),
          loadCpuMicros: sample.loadCpuMicros,
          ...defined({ upstreamCpuMicros, logLines, treeCpuMicros }),
        });
        for (const latency of sample.latencies) tally.latencies.push(latency);
        context.log(
          `  c=${concurrency} round ${round + 1}/${timing.rounds} ${subject.label}: ${(sample.ok / sample.seconds).toFixed(0)} req/s${sample.failed ? `, ${sample.failed} WRONG` : ""}`,
        );
      }
    }
  } finally {
    for (const subject of subjects) await loadgen.closeTarget(key(subject)).catch(() => {});
  }
  return subjects.map((subject) => toRow(subject, concurrency, tallies.get(subject.id)!));
}

function toRow(subject: Subject, concurrency: number, tally: Tally): Row {
  const seconds = sum(tally.rounds.map((r) => r.seconds));
  const ok = sum(tally.rounds.map((r) => r.ok));
  const cpu = sum(tally.rounds.map((r) => r.cpuMicros));
  const latencies = tally.latencies.sort((a, b) => a - b);
  const upstream = subject.upstream ? sum(tally.rounds.map((r) => r.upstreamCpuMicros ?? 0)) : undefined;
  const logLines = tally.rounds.some((r) => r.logLines !== undefined) ? sum(tally.rounds.map((r) => r.logLines ?? 0)) : undefined;
  const tree = subject.tree ? sum(tally.rounds.map((r) => r.treeCpuMicros ?? 0)) : undefined;
  return {
    id: subject.id,
    label: subject.label,
    era: subject.era,
    op: subject.op,
    concurrency,
    ...(subject.note ? { note: subject.note } : {}),
    rounds: tally.rounds,
    rps: median(tally.rounds.map((r) => r.rps)),
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    cpuPerRequestMicros: ok > 0 ? cpu / ok : NaN,
    serverCpuPercent: seconds > 0 ? (cpu / 1e6 / seconds) * 100 : NaN,
    ...(upstream === undefined
      ? {}
      : { upstreamCpuPerRequestMicros: ok > 0 ? upstream / ok : NaN, upstreamCpuPercent: seconds > 0 ? (upstream / 1e6 / seconds) * 100 : NaN }),
    ...(logLines === undefined ? {} : { logLinesPerRequest: ok > 0 ? logLines / ok : NaN }),
    ...(tree === undefined ? {} : { treeCpuPerRequestMicros: ok > 0 ? tree / ok : NaN }),
    loadCpuPercent: seconds > 0 ? (sum(tally.rounds.map((r) => r.loadCpuMicros)) / 1e6 / seconds) * 100 : NaN,
    rssBytes: Math.max(...tally.rounds.map((r) => r.rssBytes)),
    errors: tally.errors,
    ...(tally.firstFailure ? { firstFailure: tally.firstFailure } : {}),
    bodies: [...tally.bodies],
  };
}
