// Reads what one conformance suite run left behind — the scenarios it announced on stdout and the
// `<dir>/server-<scenario>-<timestamp>/checks.json` files that `-o <dir>` writes — and sums it up per scenario.
// The suite's own "Total: N passed, M failed" counts checks, not scenarios; this is what our summary reports.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

// eslint-disable-next-line no-control-regex
// biome-ignore lint/suspicious/noControlCharactersInRegex: the suite colours its output with ANSI escapes, which this strips.
const ANSI = /\u001b\[[0-9;]*m/g;

/** The scenario names a run announced ("=== Running scenario: NAME ==="), in order. */
export function announcedScenarios(stdout) {
  const names = [];
  for (const line of stdout.replace(ANSI, "").split("\n")) {
    const match = /^=== Running scenario: (\S+) ===$/.exec(line.trim());
    if (match) names.push(match[1]);
  }
  return names;
}

/** The checks written for each scenario under `dir`, keyed by scenario name (the latest run of each wins). */
export function checksByScenario(dir, scenarios) {
  const found = new Map();
  if (!existsSync(dir)) return found;
  const entries = readdirSync(dir).sort();
  for (const scenario of scenarios) {
    const prefix = `server-${scenario}-`;
    // A scenario name can be the prefix of another (tools-call-image vs tools-call-image-x): the rest must be a timestamp.
    const mine = entries.filter((e) => e.startsWith(prefix) && /^\d{4}-\d{2}-\d{2}T/.test(e.slice(prefix.length)));
    const latest = mine.at(-1);
    if (latest === undefined) continue;
    const file = join(dir, latest, "checks.json");
    if (existsSync(file)) found.set(scenario, JSON.parse(readFileSync(file, "utf8")));
  }
  return found;
}

/**
 * Sums up a run: one row per announced scenario (a scenario that wrote nothing counts as failed), and totals.
 * A scenario passes when none of its checks is a FAILURE; WARNINGs are counted, as the suite does, but do not fail it.
 */
export function summarise(stdout, dir) {
  return summariseScenarios(announcedScenarios(stdout), dir);
}

/**
 * As `summarise`, for a known list of scenarios (runs of one `--scenario` each, which announce no "=== Running" line).
 * With `skippedFails`, a SKIPPED check fails its scenario: an extension scenario skips every check when the server
 * does not declare the extension, and that must not read as a pass.
 */
export function summariseScenarios(scenarios, dir, { skippedFails = false } = {}) {
  const checks = checksByScenario(dir, scenarios);
  const rows = scenarios.map((name) => {
    const list = checks.get(name);
    if (list === undefined) return { name, passed: false, missing: true, success: 0, failure: 0, warning: 0, failures: ["no results were written"] };
    const count = (status) => list.filter((c) => c.status === status).length;
    const failed = (c) => c.status === "FAILURE" || (skippedFails && c.status === "SKIPPED");
    const failures = list.filter(failed).map((c) => `${c.id}: ${c.status === "SKIPPED" ? "skipped: " : ""}${c.errorMessage ?? c.description ?? "failed"}`);
    return {
      name,
      passed: failures.length === 0,
      missing: false,
      success: count("SUCCESS"),
      failure: failures.length,
      warning: count("WARNING"),
      skipped: count("SKIPPED"),
      failures,
    };
  });
  const sum = (key) => rows.reduce((n, r) => n + r[key], 0);
  return {
    rows,
    scenarios: rows.length,
    scenariosPassed: rows.filter((r) => r.passed).length,
    checksPassed: sum("success"),
    checksFailed: sum("failure"),
    warnings: sum("warning"),
    skipped: sum("skipped"),
  };
}
