/**
 * Scenario 2, `thousand-tools`: the same serving with 1000 more zod tools in the selection — `tools/call echo`
 * (concurrency 1, 16, 64) and `tools/list` (1 and 16; past 16 every peer is saturated and only queues). A server
 * that registers its tools per request, or converts their schemas per list, pays for the 1000 tools on every
 * request; mcp-host's cost should not grow with them (docs/design.md §15), so it is also measured with 1 tool.
 * mcp-host is the built CLI with its default logging; `mcp-host-silent` is the same without access and audit lines.
 */
import { measuresBefore } from "../lib/cli-peer.js";
import { fixed, ratio } from "../lib/format.js";
import type { Row } from "../lib/measure.js";
import { listedTools, PEER_LABELS } from "../lib/peers.js";
import { hostPoint, target } from "../lib/targets.js";
import { cpuRatio, findRow, hostRatios, ratioMatrix, rowErrors, rpsRatio, throughputTables } from "../lib/throughput-report.js";
import type { PeerId } from "../servers/peer.js";
import { concurrencies, emptyOutcome, type Scenario } from "./scenario.js";
import { runThroughput, type Plan } from "./throughput.js";

const EXTRA = 1000;
const SESSION_NOTE = "2025-era session (it speaks no 2026-07-28)";
/** The CLI host with echo alone, by the id of the host it goes with. */
const ECHO_ONLY = { "mcp-host": "mcp-host-1", "mcp-host-silent": "mcp-host-silent-1", "mcp-host-before": "mcp-host-before-1" } as const;

function echoOnly(host: keyof typeof ECHO_ONLY): Plan {
  return {
    config: { peer: host, extraTools: 0 },
    subjects: [{ id: ECHO_ONLY[host], label: `${PEER_LABELS[host]} (echo only)`, era: "modern", op: "call", tools: listedTools(host, 0) }],
  };
}

function plan(peer: PeerId, era: "modern" | "session"): Plan {
  const common = {
    id: peer,
    label: `${PEER_LABELS[peer]} (1+${EXTRA} tools)`,
    era,
    tools: listedTools(peer, EXTRA),
    ...(era === "session" ? { note: SESSION_NOTE } : {}),
  };
  return {
    config: { peer, extraTools: EXTRA },
    subjects: [
      { ...common, op: "call" },
      { ...common, op: "list" },
    ],
  };
}

export const thousandToolsScenario: Scenario = {
  name: "thousand-tools",
  title: `Scenario 2 — thousand-tools: 1+${EXTRA} tools in the selection`,
  about: `Every peer serves echo plus ${EXTRA} tools, each with its own zod input schema. tools/call echo at concurrency 1, 16, 64 and tools/list at 1 and 16: a server that registers its tools on every request, or converts every schema on every list, pays for ${EXTRA} tools each time. mcp-host (the built CLI, default logging; and silent, without access and audit lines) is also measured with echo alone, for its 1000-tool ÷ 1-tool cost. The CLI also lists its own catalog tool (list_server_toolsets). Big tools/list answers are checked in full once and then byte for byte against that verified answer (bench/lib/same-answer.ts).`,
  async run(context) {
    const outcome = emptyOutcome();
    const calls = concurrencies(context, [1, 16, 64]);
    const lists = concurrencies(context, [1, 16]);
    const plans: Plan[] = [
      plan("mcp-host", "modern"),
      echoOnly("mcp-host"),
      plan("mcp-host-silent", "modern"),
      echoOnly("mcp-host-silent"),
      plan("sdk-v2", "modern"),
      plan("mcp-use", "modern"),
      plan("sdk-v1", "session"),
      plan("fastmcp", "session"),
      plan("floor", "modern"),
      ...(measuresBefore() ? [plan("mcp-host-before", "modern"), echoOnly("mcp-host-before")] : []),
    ];
    const run = await runThroughput(context, plans, [
      { ops: ["call"], concurrencies: calls },
      { ops: ["list"], concurrencies: lists },
    ]);
    const rows = run.rows;
    outcome.rows = rows;
    const echoOnlyIds: readonly string[] = Object.values(ECHO_ONLY);
    const label = (id: string) => rows.find((r) => r.id === id)?.label ?? id;
    const at = (id: string, op: Row["op"], c: number) => findRow(rows, id, op, c);
    /** A host's CPU per tools/call with 1000 tools ÷ with 1 tool (≤ 1.1 is the target). */
    const growth = (host: keyof typeof ECHO_ONLY, c: number) => cpuRatio(at(ECHO_ONLY[host], "call", c), at(host, "call", c));
    const flat = {
      title: `mcp-host with 1+${EXTRA} tools ÷ mcp-host with 1 tool (tools/call echo)`,
      columns: ["host", "concurrency", "req/s 1+1000", "req/s 1", "µs/req 1+1000", "µs/req 1", "CPU per request 1000 ÷ 1", "req/s 1000 ÷ 1"],
      rows: (["mcp-host", "mcp-host-silent"] as const)
        .filter((host) => rows.some((r) => r.id === host))
        .flatMap((host) =>
          calls.map((c) => [
            PEER_LABELS[host],
            String(c),
            fixed(at(host, "call", c)?.rps ?? NaN),
            fixed(at(ECHO_ONLY[host], "call", c)?.rps ?? NaN),
            fixed(at(host, "call", c)?.cpuPerRequestMicros ?? NaN),
            fixed(at(ECHO_ONLY[host], "call", c)?.cpuPerRequestMicros ?? NaN),
            ratio(growth(host, c)),
            ratio(rpsRatio(at(host, "call", c), at(ECHO_ONLY[host], "call", c))),
          ]),
        ),
    };
    outcome.tables = [
      ...throughputTables(rows, "mcp-host"),
      flat,
      ratioMatrix(
        rows.filter((r) => !echoOnlyIds.includes(r.id)),
        "mcp-host",
      ),
      ...run.profiles,
    ];
    outcome.ratios = hostRatios(rows, "mcp-host", label);
    outcome.errors = rowErrors(rows);
    outcome.notes.push(...run.notes);
    const vsSdk = (host: string, op: Row["op"], c: number) => rpsRatio(at(host, op, c), at("sdk-v2", op, c));
    outcome.targets = [
      target(
        "S2.call",
        "mcp-host ≥ 20× raw SDK v2 req/s on tools/call with 1000 tools, every concurrency",
        [1, 16, 64].map((c) => hostPoint(`c=${c}`, vsSdk("mcp-host", "call", c), vsSdk("mcp-host-silent", "call", c), (v) => v >= 20, ratio)),
      ),
      target(
        "S2.list",
        "mcp-host ≥ 15× raw SDK v2 req/s on tools/list with 1000 tools, every concurrency",
        [1, 16].map((c) => hostPoint(`c=${c}`, vsSdk("mcp-host", "list", c), vsSdk("mcp-host-silent", "list", c), (v) => v >= 15, ratio)),
      ),
      target(
        "S2.flat",
        "mcp-host's CPU per tools/call with 1000 tools ≤ 1.1× its cost with 1 tool, every concurrency",
        [1, 16, 64].map((c) => hostPoint(`c=${c}`, growth("mcp-host", c), growth("mcp-host-silent", c), (v) => v <= 1.1, ratio)),
      ),
    ];
    if (run.profileFiles.length) outcome.data.profiles = run.profileFiles;
    return outcome;
  },
};
