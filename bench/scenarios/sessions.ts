/**
 * Scenario 3, `sessions`: the 2025 era, where most deployed servers live. tools/call on long-lived sessions (one
 * per worker) at concurrency 1 and 16; session churn (initialize, tools/list, 10 calls, DELETE per unit) at 16;
 * and the memory of 1000 idle sessions, whether it comes back after DELETE (and, for mcp-host, after expiry), and
 * whether it grows over repeated cycles. mcp-use has no sessions (its legacy leg is stateless) and is left out.
 * mcp-host is the built CLI with its default logging, and (calls and churn) the same with access and audit lines off.
 */
import { measuresBefore } from "../lib/cli-peer.js";
import { kib, mib, ratio } from "../lib/format.js";
import type { Row } from "../lib/measure.js";
import { admitted, listedTools, PEER_LABELS } from "../lib/peers.js";
import type { Table } from "../lib/results.js";
import { hostPoint, point, target } from "../lib/targets.js";
import { findRow, hostRatios, ratioMatrix, rowErrors, rpsRatio, throughputTables } from "../lib/throughput-report.js";
import type { PeerId } from "../servers/peer.js";
import { idleMemory, type IdleMemory } from "./idle-sessions.js";
import { concurrencies, emptyOutcome, type Scenario } from "./scenario.js";
import { runThroughput, type Plan } from "./throughput.js";

const KIB = 1024;
/** The peers whose idle sessions' memory is measured (the silent host keeps the same sessions as the host). */
const SESSIONFUL: PeerId[] = ["mcp-host", "sdk-v1", "sdk-v2-sessions", "fastmcp"];
const MEASURED: PeerId[] = ["mcp-host", "mcp-host-silent", "sdk-v1", "sdk-v2-sessions", "fastmcp", "floor"];

function plan(peer: PeerId): Plan {
  const common = {
    id: peer,
    label: PEER_LABELS[peer],
    era: "session" as const,
    tools: listedTools(peer, 0),
    ...(peer === "floor" ? { note: "answers with a made-up session and keeps no state" } : {}),
  };
  return {
    config: { peer, extraTools: 0 },
    subjects: [
      { ...common, op: "call" },
      { ...common, op: "churn" },
    ],
  };
}

function memoryTable(results: ReadonlyArray<[string, IdleMemory]>): Table {
  return {
    title: `Memory of ${results[0]?.[1].sessions ?? 1000} idle 2025-era sessions (heap after a full GC; last of ${results[0]?.[1].cycles.length ?? 0} cycles)`,
    columns: [
      "peer",
      "ended by",
      "heap KiB / session",
      "RSS KiB / session",
      "heap base MiB (cycle 1 → last)",
      "heap left after end KiB",
      "base growth over cycles KiB",
    ],
    rows: results.map(([label, m]) => [
      label,
      m.ended,
      kib(m.heapPerSession),
      kib(m.rssPerSession),
      `${mib(m.cycles[0]!.base.heapUsed)} → ${mib(m.cycles[m.cycles.length - 1]!.base.heapUsed)}`,
      kib(m.leftAfterEnd),
      kib(m.growth),
    ]),
    notes: ["RSS moves in pages and is returned to the OS lazily; the heap after a full GC is the number to read."],
  };
}

export const sessionsScenario: Scenario = {
  name: "sessions",
  title: "Scenario 3 — sessions: the 2025 era",
  about:
    "2025-era sessions: tools/call on one long-lived session per worker (concurrency 1 and 16), session churn (one unit = initialize, notifications/initialized, tools/list, 10 tools/call, DELETE) at concurrency 16, and the heap and RSS of 1000 idle sessions — per session, after they are deleted (and for mcp-host after they expire), and across three cycles. mcp-host is the built CLI with its default logging (an access line per request, an audit line per call) and `mcp-host-silent` the same with those lines off; its idle sessions are measured with `http.maxSessionsPerCaller` raised to hold them all (the default lets one client keep 100). mcp-use serves the 2025 era statelessly (no sessions) and is not in this scenario.",
  async run(context) {
    const outcome = emptyOutcome();
    const calls = concurrencies(context, [1, 16]);
    const churn = concurrencies(context, [16]);
    const measured: PeerId[] = [...MEASURED, ...(measuresBefore() ? (["mcp-host-before"] as const) : [])];
    const run = await runThroughput(context, measured.map(plan), [
      { ops: ["call"], concurrencies: calls },
      { ops: ["churn"], concurrencies: churn },
    ]);
    const rows = run.rows;
    outcome.rows = rows;
    outcome.errors = rowErrors(rows);
    outcome.notes.push(...run.notes);

    // A run narrowed to some operations (--ops, for a profile) measures only those.
    const withMemory = context.options.ops === undefined;
    const sessions = context.options.quick ? 200 : 1000;
    const cycles = context.options.quick ? 2 : 3;
    const memory: Array<[string, IdleMemory]> = [];
    if (withMemory) context.log(` memory of ${sessions} idle sessions`);
    for (const peer of SESSIONFUL.filter((p) => withMemory && admitted(p, context.options.peers))) {
      try {
        const config = { peer, extraTools: 0, maxSessionsPerCaller: 2 * sessions };
        memory.push([PEER_LABELS[peer], await idleMemory(context.loadgen, config, { sessions, cycles, log: context.log })]);
      } catch (error) {
        outcome.errors.push(`${PEER_LABELS[peer]} idle sessions: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    let expiry: IdleMemory | undefined;
    if (withMemory && admitted("mcp-host", context.options.peers)) {
      try {
        expiry = await idleMemory(
          context.loadgen,
          { peer: "mcp-host", extraTools: 0, sessionIdleTtlMs: 2000, maxSessionsPerCaller: 2 * sessions },
          { sessions, cycles: 2, expireAfterMs: 2000, log: context.log },
        );
        memory.push(["mcp-host (expiry)", expiry]);
      } catch (error) {
        outcome.errors.push(`mcp-host idle sessions expiring: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    outcome.data.memory = Object.fromEntries(memory);

    outcome.tables = [...throughputTables(rows, "mcp-host"), ratioMatrix(rows, "mcp-host"), memoryTable(memory), ...run.profiles];
    outcome.ratios = hostRatios(rows, "mcp-host", (id) => PEER_LABELS[id as PeerId] ?? id);
    const at = (id: string, op: Row["op"], c: number) => findRow(rows, id, op, c);
    const vsV1 = (host: string, op: Row["op"], c: number) => rpsRatio(at(host, op, c), at("sdk-v1", op, c));
    const pair = (op: Row["op"], c: number) => hostPoint(`c=${c}`, vsV1("mcp-host", op, c), vsV1("mcp-host-silent", op, c), (v) => v >= 1, ratio);
    const mem = (label: string) => memory.find(([l]) => l === label)?.[1];
    const host = mem("mcp-host");
    const v1 = mem("raw SDK v1");
    outcome.targets = [
      target(
        "S3.calls",
        "mcp-host ≥ 1.0× raw SDK v1 req/s on session tools/call, concurrency 1 and 16",
        [1, 16].map((c) => pair("call", c)),
      ),
      target(
        "S3.churn",
        "mcp-host ≥ 1.0× raw SDK v1 in session churn per second",
        [16].map((c) => pair("churn", c)),
      ),
      target("S3.memory", "mcp-host heap per idle session ≤ raw SDK v1's and < 64 KiB", [
        point(
          "vs raw SDK v1",
          (host?.heapPerSession ?? NaN) / (v1?.heapPerSession ?? NaN),
          (v) => v <= 1,
          (v) => `${kib(host!.heapPerSession)} KiB ÷ ${kib(v1!.heapPerSession)} KiB = ${ratio(v)}`,
        ),
        point(
          "absolute",
          host?.heapPerSession ?? NaN,
          (v) => v < 64 * KIB,
          (v) => `${kib(v)} KiB`,
        ),
      ]),
      target(
        "S3.released",
        "(suite check) mcp-host's sessions' memory comes back after DELETE and after expiry (left < 10% of their footprint), with no growth over cycles (< 10%)",
        [
          point(
            "after DELETE",
            host ? host.leftAfterEnd / (host.heapPerSession * host.sessions) : NaN,
            (v) => v < 0.1,
            (v) => `${(v * 100).toFixed(1)}% left`,
          ),
          point(
            "after expiry",
            expiry ? expiry.leftAfterEnd / (expiry.heapPerSession * expiry.sessions) : NaN,
            (v) => v < 0.1,
            (v) => `${(v * 100).toFixed(1)}% left`,
          ),
          point(
            "growth",
            host ? host.growth / (host.heapPerSession * host.sessions) : NaN,
            (v) => v < 0.1,
            (v) => `${(v * 100).toFixed(1)}% of the footprint`,
          ),
        ],
      ),
    ];
    outcome.notes.push(`Churn rows count whole sessions per second (each unit is 14 HTTP requests); their µs/req is server CPU per whole session.`);
    outcome.notes.push(`The floor accepts any session id and keeps no state: it is a reference for HTTP cost only.`);
    outcome.notes.push(
      `Idle sessions: ${sessions} per cycle, ${cycles} cycles${context.options.quick ? " (quick run: fewer)" : ""}; fastmcp pings its sessions every 5 s by default, left on.`,
    );
    if (run.profileFiles.length) outcome.data.profiles = run.profileFiles;
    return outcome;
  },
};
