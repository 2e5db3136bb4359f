#!/usr/bin/env node
// The one test command (`npm test`): build (incrementally), type-check sources and tests, check the public API report, check formatting and lint (Biome), run every test
// file under Node's own test runner (through tsx) — installing Debian's Chromium first when it is missing, for the
// operator page's browser tests, and Debian's redis-server and nginx, for the fleet test — then the official
// conformance suites against `mcp-host serve`.
// Prints its own summary last: every step, every failed or cancelled test by file and title, and every process the
// run left running (killed, and counted as a failure). Everything it starts runs with a marker in its environment and
// a temporary folder of its own (TMPDIR), which is how what is left behind is recognised.
import { spawn, spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { killAll, leftovers, processesBefore } from "./test-run/leftovers.mjs";

const root = fileURLToPath(new URL("..", import.meta.url)).replace(/\/$/, "");
const only = process.argv.slice(2);
const before = processesBefore();
const marker = `MCP_HOST_TEST_RUN=${randomUUID()}`;
const runTmp = mkdtempSync(join(tmpdir(), "mcp-host-test-run-"));
const failuresFile = join(runTmp, "failures.jsonl");
// Children inherit both: the marker names them as this run's, and their temporary folders land in the run's own.
process.env[marker.split("=")[0]] = marker.split("=")[1];
process.env.TMPDIR = runTmp;

function testFiles(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (name === "fixtures" || name === "node_modules") continue;
    if (statSync(path).isDirectory()) out.push(...testFiles(path));
    else if (name.endsWith(".test.ts")) out.push(relative(root, path));
  }
  return out.sort();
}

function run(label, command, args) {
  console.log(`\n=== ${label}: ${command} ${args.join(" ")}`);
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit" });
  return result.status === 0;
}

// Runs the test files, echoing the runner's output and reading its closing counts (`# pass N`, `# fail N`,
// `# cancelled N`); the failures reporter writes every failed and cancelled test to failuresFile beside it.
function runTests(label, args) {
  console.log(`\n=== ${label}: node ${args.join(" ")}`);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: ["ignore", "pipe", "inherit"] });
    const counts = { pass: 0, fail: 0, cancelled: 0 };
    let tail = "";
    child.stdout.on("data", (chunk) => {
      process.stdout.write(chunk);
      tail = (tail + chunk.toString("utf8")).slice(-4096);
      for (const m of tail.matchAll(/^# (pass|fail|cancelled) (\d+)$/gm)) counts[m[1]] = Number(m[2]);
    });
    child.on("close", (code) => resolve({ ok: code === 0 && counts.fail === 0 && counts.cancelled === 0, counts }));
  });
}

/** The failed and cancelled tests the reporter wrote, as summary lines: `file — title: why`. */
function failureLines() {
  let text = "";
  try {
    text = readFileSync(failuresFile, "utf8");
  } catch {
    return [];
  }
  return text
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line))
    .map(({ file, title, failureType, reason }) => {
      const what = failureType === "cancelledByParent" ? "cancelled" : failureType === "testTimeoutFailure" ? "timed out" : "failed";
      return `     ${what}: ${relative(root, file) || file}${title ? ` — ${title}` : " (the whole file)"}${reason ? `: ${reason}` : ""}`;
    });
}

const steps = [];
const files = only.length > 0 ? only : [...testFiles(join(root, "test")), ...testFiles(join(root, "plugins")), ...testFiles(join(root, "examples"))];
// `MCP_HOST_TESTS_ONLY=1 node scripts/test.mjs FILE…` runs just those files and the checks after them (a quick rerun).
const setUp = !(only.length > 0 && process.env.MCP_HOST_TESTS_ONLY === "1");
// The tests run the built command and plugins (dist/), so the build comes first; it is incremental.
if (setUp) steps.push(["build", run("build", process.execPath, ["scripts/build.mjs"])]);
// The benchmark smoke test (and the type-check of bench/) needs the frameworks it compares against.
if (setUp) steps.push(["benchmark peers", run("benchmark peers", process.execPath, ["scripts/bench-peers.mjs"])]);
if (setUp) steps.push(["typecheck", run("typecheck", "npx", ["tsc", "-p", "tsconfig.json"])]);
// The operator page's tests drive Debian's Chromium; a fresh machine gets it here (apt-get, as root).
if (setUp) steps.push(["chromium for the browser tests", run("chromium", process.execPath, ["scripts/ensure-chromium.mjs"])]);
// The fleet test runs three instances behind a real nginx sharing a real Redis; a fresh machine gets both here.
if (setUp) steps.push(["redis-server and nginx for the fleet test", run("fleet servers", process.execPath, ["scripts/ensure-fleet-servers.mjs"])]);
// The public API of every entry against its committed report (api/*.api.md): a change to the API changes the report.
if (only.length === 0) steps.push(["public API report (api-extractor)", run("public API report", process.execPath, ["scripts/api-report.mjs"])]);
if (only.length === 0) steps.push(["format and lint (biome)", run("format and lint", "npx", ["biome", "ci", "--colors=off", "."])]);
// Node 20 holds a whole test file to --test-timeout as well as each test in it: the files that run servers by the
// dozen (the benchmark smoke tests, the fleet) need more than a single test's two minutes on two loaded cores.
const tests = await runTests(`tests (${files.length} files)`, [
  "--import",
  "tsx",
  "--test",
  "--test-reporter=tap",
  "--test-reporter-destination=stdout",
  `--test-reporter=${join(root, "scripts", "test-run", "failures-reporter.mjs")}`,
  `--test-reporter-destination=${failuresFile}`,
  "--test-concurrency=3",
  "--test-timeout=240000",
  ...files,
]);
const { pass, fail, cancelled } = tests.counts;
const failures = failureLines();
steps.push([`tests (${pass} passed, ${fail} failed, ${cancelled} cancelled)`, tests.ok && failures.length === 0, failures]);
if (only.length === 0 && process.env.MCP_HOST_SKIP_CONFORMANCE !== "1") {
  steps.push(["conformance", run("conformance", process.execPath, ["scripts/conformance.mjs", "--extended"])]);
  // v2's suites once more with the HTTP fast path forced off (design §8): the run above serves 2026-07-28 on the fast
  // path, this one through the SDK's entry alone, so both ways of serving must pass — the default suite and the
  // extended sets (MRTR, tasks, skills), which take the fast path's methods too (about 40 s more).
  steps.push([
    "conformance, fast path off",
    run("conformance-fast-path-off", process.execPath, ["scripts/conformance.mjs", "--suite", "v2", "--extended", "--fast-path", "off"]),
  ]);
}
const left = leftovers({ before, marker, root, runTmp });
killAll(left);
steps.push([
  left.length === 0 ? "no process left running" : `${left.length} process(es) left running (now killed)`,
  left.length === 0,
  left.slice(0, 20).map((p) => `     ${p.pid} ${p.command.slice(0, 140)}${p.cwd ? ` (in ${p.cwd})` : ""}`),
]);
rmSync(runTmp, { recursive: true, force: true });

console.log("\n=== mcp-host test summary");
for (const [name, ok, details = []] of steps) {
  console.log(`${ok ? "ok  " : "FAIL"} ${name}`);
  for (const line of details) console.log(line);
}
const failed = steps.filter(([, ok]) => !ok).length;
// The closing line CI reads: a cancelled test is a failed one.
console.log(`tests: ${pass} passed, ${fail + cancelled} failed`);
process.exit(failed === 0 ? 0 : 1);
