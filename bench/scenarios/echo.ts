/**
 * Scenario 1, `echo`: one `tools/call echo` per request, 2026-07-28 era, at concurrency 1, 16 and 64 — the cost
 * of the serving path itself, with nothing else in the way. mcp-host is the built CLI with its default logging, and
 * again with access and audit lines off (the silent figure), and again with the HTTP fast path off (`mcp-host-entry`:
 * every request through the SDK's entry, so the fast path's gain is read in the same run). Peers that do not speak 2026-07-28 (raw SDK v1,
 * fastmcp) are measured on a 2025-era session instead, and marked.
 */
import { fixed, ratio } from "../lib/format.js";
import type { Row } from "../lib/measure.js";
import { measuresBefore } from "../lib/cli-peer.js";
import { listedTools, PEER_LABELS } from "../lib/peers.js";
import { hostPoint, target } from "../lib/targets.js";
import { cpuRatio, findRow, hostRatios, ratioMatrix, rowErrors, rpsRatio, throughputTables } from "../lib/throughput-report.js";
import type { PeerId } from "../servers/peer.js";
import { concurrencies, emptyOutcome, type Scenario } from "./scenario.js";
import { runThroughput, type Plan } from "./throughput.js";

const SESSION_NOTE = "2025-era session (it speaks no 2026-07-28)";
const HOSTS = ["mcp-host", "mcp-host-silent"] as const;

function plan(peer: PeerId, era: "modern" | "session"): Plan {
  return {
    config: { peer, extraTools: 0 },
    subjects: [{ id: peer, label: PEER_LABELS[peer], era, op: "call", tools: listedTools(peer, 0), ...(era === "session" ? { note: SESSION_NOTE } : {}) }],
  };
}

/** The figures the targets read, for one host (the CLI, or the silent CLI). */
function figures(rows: readonly Row[], hostId: string) {
  const at = (id: string, c: number) => findRow(rows, id, "call", c);
  const host = (c: number) => at(hostId, c);
  return {
    vsSdk: (c: number) => rpsRatio(host(c), at("sdk-v2", c)),
    /** The host's CPU per call ÷ raw SDK v2's (≤ 0.5 is the target). */
    cpuVsSdk: (c: number) => 1 / cpuRatio(host(c), at("sdk-v2", c)),
    vsFloor: (c: number) => rpsRatio(host(c), at("floor", c)),
    worstFrameworkRps: (c: number) => Math.min(rpsRatio(host(c), at("mcp-use", c)), rpsRatio(host(c), at("fastmcp", c))),
    /** The host's CPU per call ÷ the framework's, the worse of the two (≤ 1 is the target). */
    worstFrameworkCpu: (c: number) => Math.max(1 / cpuRatio(host(c), at("mcp-use", c)), 1 / cpuRatio(host(c), at("fastmcp", c))),
    p99VsSdk: (c: number) => (host(c)?.p99Ms ?? NaN) / (at("sdk-v2", c)?.p99Ms ?? NaN),
    p99: (c: number) => host(c)?.p99Ms ?? NaN,
  };
}

export const echoScenario: Scenario = {
  name: "echo",
  title: "Scenario 1 — echo: tools/call, 2026-07-28 era",
  about:
    "One tools/call of `echo` per request at concurrency 1, 16 and 64, every peer serving only that tool. It measures the serving path itself: HTTP, protocol handling, validation, the handler. mcp-host is the built CLI (`mcp-host serve`) with its default logging — a JSON access and audit line per call on stderr — and `mcp-host-silent` the same with those lines off; `mcp-host-entry` is mcp-host with the HTTP fast path off (every request through the SDK's entry). Raw SDK v1 and fastmcp speak no 2026-07-28 and are measured on one long-lived 2025-era session per worker (marked).",
  async run(context) {
    const outcome = emptyOutcome();
    const levels = concurrencies(context, [1, 16, 64]);
    const plans = [
      plan("mcp-host", "modern"),
      plan("mcp-host-silent", "modern"),
      plan("mcp-host-entry", "modern"),
      plan("sdk-v2", "modern"),
      plan("mcp-use", "modern"),
      plan("sdk-v1", "session"),
      plan("fastmcp", "session"),
      plan("floor", "modern"),
      ...(measuresBefore() ? [plan("mcp-host-before", "modern")] : []),
    ];
    const run = await runThroughput(context, plans, [{ ops: ["call"], concurrencies: levels }]);
    const rows = run.rows;
    outcome.rows = rows;
    outcome.tables = [...throughputTables(rows, "mcp-host"), ratioMatrix(rows, "mcp-host"), ...run.profiles];
    outcome.ratios = hostRatios(rows, "mcp-host", (id) => PEER_LABELS[id as PeerId] ?? id);
    outcome.errors = rowErrors(rows);
    outcome.notes.push(...run.notes);
    if (run.profileFiles.length) outcome.data.profiles = run.profileFiles;
    const [cli, silent] = HOSTS.map((id) => figures(rows, id)) as [ReturnType<typeof figures>, ReturnType<typeof figures>];
    const pair = (where: string, f: (of: typeof cli) => number, ok: (v: number) => boolean, show: (v: number) => string) =>
      hostPoint(where, f(cli), f(silent), ok, show);
    outcome.targets = [
      target("S1.sdk-v2", "mcp-host ≥ 2× raw SDK v2 req/s and ≤ 0.5× its server CPU per call, at c=1 and c=16", [
        ...[1, 16].map((c) =>
          pair(
            `c=${c} req/s`,
            (f) => f.vsSdk(c),
            (v) => v >= 2,
            ratio,
          ),
        ),
        ...[1, 16].map((c) =>
          pair(
            `c=${c} CPU`,
            (f) => f.cpuVsSdk(c),
            (v) => v <= 0.5,
            ratio,
          ),
        ),
      ]),
      target(
        "S1.floor",
        "mcp-host ≥ 0.25× the node:http floor's req/s at every concurrency",
        [1, 16, 64].map((c) =>
          pair(
            `c=${c}`,
            (f) => f.vsFloor(c),
            (v) => v >= 0.25,
            ratio,
          ),
        ),
      ),
      target(
        "S1.frameworks",
        "mcp-host ahead of mcp-use and fastmcp in req/s and in server CPU per call at every concurrency",
        [1, 16, 64].flatMap((c) => [
          pair(
            `c=${c} req/s`,
            (f) => f.worstFrameworkRps(c),
            (v) => v >= 1,
            (v) => `worst ${ratio(v)}`,
          ),
          pair(
            `c=${c} CPU`,
            (f) => f.worstFrameworkCpu(c),
            (v) => v <= 1,
            (v) => `worst ${ratio(v)}`,
          ),
        ]),
      ),
      target(
        "S1.p99",
        "mcp-host p99 no worse than raw SDK v2's at every concurrency",
        [1, 16, 64].map((c) =>
          pair(
            `c=${c}`,
            (f) => f.p99VsSdk(c),
            (v) => v <= 1,
            ratio,
          ),
        ),
      ),
    ];
    for (const c of levels) {
      const p99 = [cli.p99(c), silent.p99(c)].map((v) => fixed(v, 2));
      outcome.notes.push(
        `p99 at c=${c}: mcp-host ${p99[0]} ms, silent ${p99[1]} ms, raw SDK v2 ${fixed(findRow(rows, "sdk-v2", "call", c)?.p99Ms ?? NaN, 2)} ms.`,
      );
    }
    for (const c of levels) {
      const fast = findRow(rows, "mcp-host", "call", c);
      const entry = findRow(rows, "mcp-host-entry", "call", c);
      outcome.notes.push(
        `The fast path at c=${c} (issue 28, step 2): mcp-host ÷ mcp-host with it off: ${ratio(rpsRatio(fast, entry))} req/s, ` +
          `${ratio(1 / cpuRatio(fast, entry))} server CPU per call.`,
      );
    }
    outcome.notes.push(
      "In the targets, a req/s figure is host ÷ peer (higher is better) and a CPU figure is the host's server CPU per call ÷ the peer's (lower is better).",
    );
    outcome.notes.push("The floor is usually bounded by the load generator (see its load CPU), so host ÷ floor understates the host.");
    return outcome;
  },
};
