/**
 * Scenario 1, `echo`: one `tools/call echo` per request, 2026-07-28 era, at concurrency 1, 16 and 64 — the cost
 * of the serving path itself, with nothing else in the way. Peers that do not speak 2026-07-28 (raw SDK v1,
 * fastmcp) are measured on a 2025-era session instead, and marked.
 */
import { fixed, ratio } from "../lib/format.js";
import { PEER_LABELS } from "../lib/peers.js";
import { point, target } from "../lib/targets.js";
import { findRow, hostRatios, ratioMatrix, rowErrors, throughputTables } from "../lib/throughput-report.js";
import type { PeerId } from "../servers/peer.js";
import { concurrencies, emptyOutcome, type Scenario } from "./scenario.js";
import { runThroughput, type Plan } from "./throughput.js";

const SESSION_NOTE = "2025-era session (it speaks no 2026-07-28)";

function plan(peer: PeerId, era: "modern" | "session"): Plan {
  return {
    config: { peer, extraTools: 0 },
    subjects: [{ id: peer, label: PEER_LABELS[peer], era, op: "call", tools: 1, ...(era === "session" ? { note: SESSION_NOTE } : {}) }],
  };
}

export const echoScenario: Scenario = {
  name: "echo",
  title: "Scenario 1 — echo: tools/call, 2026-07-28 era",
  about:
    "One tools/call of `echo` per request at concurrency 1, 16 and 64, every peer serving only that tool. It measures the serving path itself: HTTP, protocol handling, validation, the handler. Raw SDK v1 and fastmcp speak no 2026-07-28 and are measured on one long-lived 2025-era session per worker (marked).",
  async run(context) {
    const outcome = emptyOutcome();
    const levels = concurrencies(context, [1, 16, 64]);
    const plans = [
      plan("mcp-host", "modern"),
      plan("mcp-host-sdk-entry", "modern"),
      plan("sdk-v2", "modern"),
      plan("mcp-use", "modern"),
      plan("sdk-v1", "session"),
      plan("fastmcp", "session"),
      plan("floor", "modern"),
    ];
    const run = await runThroughput(context, plans, [{ ops: ["call"], concurrencies: levels }]);
    const rows = run.rows;
    outcome.rows = rows;
    outcome.tables = [...throughputTables(rows, "mcp-host"), ratioMatrix(rows, "mcp-host"), ...run.profiles];
    outcome.ratios = hostRatios(rows, "mcp-host", (id) => PEER_LABELS[id as PeerId] ?? id);
    outcome.errors = rowErrors(rows);
    if (run.profileFiles.length) outcome.data.profiles = run.profileFiles;
    const at = (id: string, c: number) => findRow(rows, id, "call", c);
    const host = (c: number) => at("mcp-host", c);
    const each = <T>(f: (c: number) => T) => [1, 16, 64].map(f);
    outcome.targets = [
      target(
        "S1.sdk-v2",
        "mcp-host ≥ 2× raw SDK v2 req/s at every concurrency",
        each((c) => point(`c=${c}`, (host(c)?.rps ?? NaN) / (at("sdk-v2", c)?.rps ?? NaN), (v) => v >= 2, ratio)),
      ),
      target(
        "S1.frameworks",
        "mcp-host ≥ every framework peer (mcp-use, fastmcp) req/s at every concurrency",
        each((c) =>
          point(
            `c=${c}`,
            Math.min((host(c)?.rps ?? NaN) / (at("mcp-use", c)?.rps ?? NaN), (host(c)?.rps ?? NaN) / (at("fastmcp", c)?.rps ?? NaN)),
            (v) => v >= 1,
            (v) => `worst ${ratio(v)}`,
          ),
        ),
      ),
      target(
        "S1.p99",
        "mcp-host p99 no worse than raw SDK v2's and every framework peer's at every concurrency",
        each((c) => {
          const worst = Math.max(...["sdk-v2", "mcp-use", "fastmcp"].map((id) => (host(c)?.p99Ms ?? NaN) / (at(id, c)?.p99Ms ?? NaN)));
          return point(
            `c=${c}`,
            worst,
            (v) => v <= 1,
            (v) => `host p99 ${fixed(host(c)?.p99Ms ?? NaN, 2)} ms, worst host÷peer ${ratio(v)}`,
          );
        }),
      ),
      target(
        "S1.floor",
        "mcp-host ÷ floor ≥ 0.25 req/s at every concurrency",
        each((c) => point(`c=${c}`, (host(c)?.rps ?? NaN) / (at("floor", c)?.rps ?? NaN), (v) => v >= 0.25, ratio)),
      ),
    ];
    outcome.notes.push("The floor is usually bounded by the load generator (see its load CPU), so host ÷ floor understates the host.");
    return outcome;
  },
};
