/**
 * The benchmark suite (docs/design.md §15): `npm run bench` runs every scenario; `-- --quick` runs each measurement
 * for about a second; `-- --scenario <name>` runs one. Every server runs in its own process, driven by a
 * separate load-generator process; every answer is checked, and a wrong one fails the run (exit 1). Results go to
 * bench/results/latest.json and latest.md (or --out DIR) and the Markdown is printed.
 */
import { join } from "node:path";
import { loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { LoadGenerator } from "./lib/loadgen-client.js";
import { machineFacts } from "./lib/machine.js";
import { parseOptions } from "./lib/options.js";
import { peerVersions } from "./lib/peers.js";
import { scenarioMarkdown, writeResults } from "./lib/report.js";
import type { RunResults, ScenarioResult } from "./lib/results.js";
import { SCENARIOS } from "./scenarios/index.js";

async function main(): Promise<number> {
  const options = parseOptions(process.argv.slice(2));
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const results: RunResults = {
    schema: 1,
    machine: machineFacts(),
    options: { ...options, out: undefined },
    peers: peerVersions(),
    scenarios: [],
    ok: true,
  };
  log(
    `mcp-host bench: ${options.scenarios.join(", ")}${options.smoke ? " (smoke)" : options.quick ? " (quick)" : ""}; load average ${results.machine.loadAverageAtStart.join(" ")}`,
  );
  const loadgen = await LoadGenerator.start();
  try {
    for (const name of options.scenarios) {
      const scenario = SCENARIOS[name];
      log(`\n== ${scenario.title}`);
      const started = performance.now();
      const profileDir = options.cpuProf ? join(options.out, "profiles") : undefined;
      let part: ScenarioResult;
      try {
        const outcome = await scenario.run({ options, loadgen, log, ...(profileDir ? { profileDir } : {}) });
        // A smoke run's windows are a few calls: its numbers are not judged against any target.
        if (options.smoke) outcome.targets = outcome.targets.map((t) => ({ ...t, pass: null, measured: `not judged (smoke run): ${t.measured}` }));
        part = { name, title: scenario.title, about: scenario.about, seconds: (performance.now() - started) / 1000, ...outcome };
      } catch (error) {
        const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
        part = {
          name,
          title: scenario.title,
          about: scenario.about,
          seconds: (performance.now() - started) / 1000,
          rows: [],
          data: {},
          tables: [],
          ratios: [],
          targets: [],
          errors: [`the scenario failed: ${message}`],
          notes: [],
        };
      }
      results.scenarios.push(part);
      if (part.errors.length) results.ok = false;
      process.stdout.write(`\n${scenarioMarkdown(part)}\n`);
    }
  } finally {
    await loadgen.close();
  }
  results.machine.loadAverageAtEnd = loadavg().map((n) => Math.round(n * 100) / 100);
  const written = writeResults(options.out, results);
  log(`\nresults: ${written.json}, ${written.md}${results.ok ? "" : " — THE RUN FAILED (wrong answers or failed steps above)"}`);
  return results.ok ? 0 : 1;
}

process.exitCode = await main();
