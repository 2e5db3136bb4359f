#!/usr/bin/env node
// Runs the official MCP conformance suites against `mcp-host serve` with the conformance plugin (docs/conformance.md):
//   v1  @modelcontextprotocol/conformance 0.1.13 (protocol 2025-11-25), installed as conformance-v1;
//   v2  @modelcontextprotocol/conformance 0.2.0-alpha.12 with --spec-version 2026-07-28, installed as conformance-v2
//       (on Node < 22 through the fs.globSync loader hook in scripts/conformance/node20-fs-glob.mjs).
// Each runs its default (active) suite against http://127.0.0.1:<port>/mcp, served by
// `mcp-host serve only=conformance --extension conformance` (the toolset is the server's default selection, so the
// bare URL serves it: some suite requests drop the query string). The server is started once and always stopped.
// Our own summary (scenarios passed per suite) is printed last; exit 1 if either suite fails.
// `--extended` (what `npm test` runs) also runs v2's 2026-07-28 scenarios outside its default suite, one `--scenario`
// at a time: the multi-round-trip input-required-result-* drafts (EXTENDED), and the extension scenarios (TASKS:
// every tasks-* scenario of io.modelcontextprotocol/tasks; SKILLS: the skills extension's sep-2640-* and SEP-2243's
// http-custom-header-server-validation — forced with --force since an extension's scenarios are skipped otherwise; a
// SKIPPED check fails the SKILLS set, so a server that stops declaring the extension cannot pass by being skipped).
// Each passes against the fixtures.
// `--fast-path off` serves with the HTTP fast path forced off (MCP_HOST_FAST_PATH=off: every 2026-07-28 request through
// the SDK's entry, docs/design.md §8); its results go to .conformance-results/fast-path-off/. `npm test` runs the
// suites with the fast path on (the default, --extended) and v2's suites (--extended) once more with it off.
//
// usage: node scripts/conformance.mjs [--suite v1|v2] [--extended] [--fast-path on|off] [--verbose]     (after `npm run build`)
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { summarise, summariseScenarios } from "./conformance/results.mjs";
import { startServe } from "./conformance/serve.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const here = join(root, "scripts", "conformance");
const resultsRoot = join(root, ".conformance-results");
const SUITE_TIMEOUT_MS = 180_000;
const TOOLSET = "conformance";
/** The suite process running now, if any (stopped too when the runner is interrupted). */
let running;

const SUITES = [
  { id: "v1", pkg: "conformance-v1", protocol: "2025-11-25", args: [] },
  { id: "v2", pkg: "conformance-v2", protocol: "2026-07-28", args: ["--spec-version", "2026-07-28"] },
];

/**
 * The opt-in `--extended` run: draft scenarios of 2026-07-28 (not in the default suite) that pass, run one at a time
 * with v2. See docs/conformance.md, "Extended run".
 */
const EXTENDED = {
  id: "v2-extended",
  pkg: "conformance-v2",
  protocol: "2026-07-28",
  args: ["--spec-version", "2026-07-28"],
  label: "input-required-result-* (MRTR, draft)",
  scenarios: [
    "input-required-result-basic-elicitation",
    "input-required-result-basic-sampling",
    "input-required-result-basic-list-roots",
    "input-required-result-request-state",
    "input-required-result-multiple-input-requests",
    "input-required-result-multi-round",
    "input-required-result-missing-input-response",
    "input-required-result-non-tool-request",
    "input-required-result-result-type",
    "input-required-result-unsupported-methods",
    "input-required-result-tampered-state",
    "input-required-result-capability-check",
    "input-required-result-ignore-extra-params",
    "input-required-result-validate-input",
  ],
};

/** The Tasks extension's scenarios (SEP-2663), forced: docs/tasks.md, docs/conformance.md. */
const TASKS = {
  id: "v2-tasks",
  pkg: "conformance-v2",
  protocol: "2026-07-28",
  args: ["--spec-version", "2026-07-28", "--force"],
  label: "tasks-* (io.modelcontextprotocol/tasks, --force)",
  scenarios: [
    "tasks-capability-negotiation",
    "tasks-dispatch-and-envelope",
    "tasks-lifecycle",
    "tasks-mrtr-composition",
    "tasks-mrtr-input",
    "tasks-request-headers",
    "tasks-request-state-removal",
    "tasks-required-task-error",
    "tasks-status-notifications",
    "tasks-wire-fields",
  ],
};

/**
 * The skills extension's scenarios (SEP-2640) and the Mcp-Param header check (SEP-2243), forced: docs/skills.md,
 * docs/conformance.md. A SKIPPED check fails them (`skippedFails`).
 */
const SKILLS = {
  id: "v2-skills",
  pkg: "conformance-v2",
  protocol: "2026-07-28",
  args: ["--spec-version", "2026-07-28", "--force"],
  label: "sep-2640-* (io.modelcontextprotocol/skills) and http-custom-header-server-validation, --force",
  skippedFails: true,
  scenarios: ["sep-2640-skills-enumeration", "sep-2640-skills-manifest", "sep-2640-skills-directory", "http-custom-header-server-validation"],
};

/** Every opt-in set `--extended` runs after the default suites. */
const EXTRA_SETS = [EXTENDED, TASKS, SKILLS];

function usage(message) {
  console.error(
    `conformance: ${message}\nusage: node scripts/conformance.mjs [--suite ${SUITES.map((s) => s.id).join("|")}] [--extended] [--fast-path on|off] [--verbose]`,
  );
  process.exit(2);
}
let options;
try {
  ({ values: options } = parseArgs({
    options: {
      suite: { type: "string", multiple: true },
      verbose: { type: "boolean", default: false },
      extended: { type: "boolean", default: false },
      "fast-path": { type: "string", default: "on" },
    },
  }));
} catch (error) {
  usage(error.message);
}
if (!["on", "off"].includes(options["fast-path"])) usage(`--fast-path is on or off, not "${options["fast-path"]}"`);
const fastPathOff = options["fast-path"] === "off";
const resultsDir = fastPathOff ? join(resultsRoot, "fast-path-off") : resultsRoot;
const wanted = options.suite ?? SUITES.map((s) => s.id);
const unknown = wanted.filter((id) => !SUITES.some((s) => s.id === id));
if (unknown.length > 0) usage(`unknown suite ${unknown.join(", ")}; the suites are ${SUITES.map((s) => s.id).join(", ")}`);

function packageOf(name) {
  const manifest = createRequire(join(root, "package.json")).resolve(`${name}/package.json`);
  const pkg = JSON.parse(readFileSync(manifest, "utf8"));
  const bin = typeof pkg.bin === "string" ? pkg.bin : pkg.bin.conformance;
  return { version: pkg.version, bin: join(dirname(manifest), bin) };
}

/** Node < 22 has no fs.globSync, which conformance >= 0.1.14 imports at load time. */
function nodeArgsFor(version) {
  const needsGlob = !/^0\.1\.(\d|1[0-3])$/.test(version);
  const hasGlob = Number(process.versions.node.split(".")[0]) >= 22;
  return needsGlob && !hasGlob ? ["--import", join(here, "node20-fs-glob.mjs")] : [];
}

/** Runs the conformance CLI once, echoing its output as it comes; resolves with its exit code and stdout. */
function runConformance(label, args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: ["ignore", "pipe", "inherit"] });
    running = child;
    let stdout = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
      process.stdout.write(chunk);
    });
    const timer = setTimeout(() => {
      console.error(`conformance ${label}: still running after ${SUITE_TIMEOUT_MS} ms; stopping it`);
      child.kill("SIGKILL");
    }, SUITE_TIMEOUT_MS);
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      running = undefined;
      resolve({ exitCode: code ?? signal, stdout });
    });
  });
}

/** What every run of a suite starts from: its installed package, a fresh results folder, and its title. */
function prepare(suite) {
  const { version, bin } = packageOf(suite.pkg);
  const outDir = join(resultsDir, suite.id);
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  return { version, bin, outDir, title: `@modelcontextprotocol/conformance@${version} (protocol ${suite.protocol})` };
}

/** The node arguments of one `conformance server` run against `url` into the prepared folder; `more` after -o. */
function serverArgs({ version, bin, outDir }, url, more) {
  return [...nodeArgsFor(version), bin, "server", "--url", url, "-o", outDir, ...more, ...(options.verbose ? ["--verbose"] : [])];
}

/** The command line as echoed, paths inside the repository relative to it. */
function commandLine(args) {
  return `$ node ${args.map((a) => (a.startsWith(root) ? relative(root, a) : a)).join(" ")}`;
}

/** Runs one suite, echoing its output as it comes and keeping a copy of stdout to read the scenario names from. */
function runSuite(suite, url) {
  const prepared = prepare(suite);
  const expected = join(here, `expected-failures.${suite.id}.yml`);
  const args = serverArgs(prepared, url, [...suite.args, ...(existsSync(expected) ? ["--expected-failures", expected] : [])]);
  const { title, outDir } = prepared;
  console.log(`\n=== conformance ${suite.id}: ${title}\n${commandLine(args)}`);
  return runConformance(suite.id, args).then(({ exitCode, stdout }) => ({
    suite,
    title,
    exitCode,
    expectedFailures: existsSync(expected) ? relative(root, expected) : undefined,
    ...summarise(stdout, outDir),
  }));
}

/** The `--extended` run: each scenario of `extra.scenarios` on its own (`--scenario NAME`); exit code is the first non-zero. */
async function runScenarios(extra, url) {
  const prepared = prepare(extra);
  const { title, outDir } = prepared;
  console.log(`\n=== conformance ${extra.id}: ${title}, ${extra.scenarios.length} scenarios, one --scenario at a time`);
  let exitCode = 0;
  for (const scenario of extra.scenarios) {
    if (interrupted) break;
    const args = serverArgs(prepared, url, [...extra.args, "--scenario", scenario]);
    console.log(commandLine(args));
    const run = await runConformance(extra.id, args);
    if (exitCode === 0 && run.exitCode !== 0) exitCode = run.exitCode;
  }
  return { suite: extra, title, exitCode, ...summariseScenarios(extra.scenarios, outDir, { skippedFails: extra.skippedFails === true }) };
}

function printSummary(results, error) {
  console.log("\n=== mcp-host conformance summary");
  for (const r of results) {
    const ok = r.exitCode === 0 && r.scenarios > 0 && (r.expectedFailures !== undefined || r.scenariosPassed === r.scenarios);
    r.ok = ok;
    const baseline = r.expectedFailures ? `, expected failures from ${r.expectedFailures}` : "";
    console.log(
      `${ok ? "ok  " : "FAIL"} ${r.suite.id} ${r.title}, ${r.suite.label ?? "default suite"}: ${r.scenariosPassed}/${r.scenarios} scenarios passed ` +
        `(checks: ${r.checksPassed} passed, ${r.checksFailed} failed, ${r.warnings} warnings${r.skipped ? `, ${r.skipped} skipped by the suite` : ""}; suite exit ${r.exitCode}${baseline})`,
    );
    for (const row of r.rows.filter((row) => !row.passed)) console.log(`       ✗ ${row.name}: ${row.failures.join("; ")}`);
  }
  if (error) console.log(`FAIL ${error}`);
  const failed = results.filter((r) => !r.ok).length + (error ? 1 : 0);
  console.log(
    `conformance: ${results.length - results.filter((r) => !r.ok).length} of ${wanted.length + (options.extended ? EXTRA_SETS.length : 0)} suites passed${failed ? `, ${failed} failed` : ""} (against mcp-host serve only=${TOOLSET}, fast path ${options["fast-path"]}; details in ${relative(root, resultsDir)}/)`,
  );
  return failed === 0;
}

mkdirSync(resultsDir, { recursive: true });
const results = [];
let failure;
let server;
let interrupted;
const interrupt = (signal) => {
  // Stop what runs now; the main flow then skips the remaining suites, stops the server and reports.
  interrupted = signal;
  console.error(`conformance: ${signal}; stopping the suite and the server`);
  running?.kill("SIGKILL");
  void server?.stop();
};
process.once("SIGINT", interrupt);
process.once("SIGTERM", interrupt);
try {
  server = await startServe({
    root,
    logFile: join(resultsDir, "serve.log"),
    extension: TOOLSET,
    selection: `only=${TOOLSET}`,
    env: fastPathOff ? { MCP_HOST_FAST_PATH: "off" } : {},
  });
  const url = server.url;
  console.log(`conformance: $ ${server.command}\nconformance: serving ${url} (pid ${server.pid}); its log is ${relative(root, join(resultsDir, "serve.log"))}`);
  for (const suite of SUITES.filter((s) => wanted.includes(s.id))) {
    if (interrupted) break;
    results.push(await runSuite(suite, url));
  }
  for (const extra of options.extended ? EXTRA_SETS : []) {
    if (interrupted) break;
    results.push(await runScenarios(extra, url));
  }
} catch (error) {
  failure = error instanceof Error ? error.message : String(error);
} finally {
  if (server) {
    const code = await server.stop();
    if (code !== 0 && code !== null && !interrupted) console.log(`conformance: mcp-host serve exited with ${code} on SIGTERM (expected 0)`);
  }
}
if (interrupted) failure = `interrupted by ${interrupted}`;
const passed = printSummary(results, failure);
process.exit(interrupted ? 130 : passed ? 0 : 1);
