#!/usr/bin/env node
// The one test command (`npm test`): build (incrementally), type-check sources and tests, check the public API report, check formatting and lint (Biome), run every test
// file under Node's own test runner (through tsx) — installing Debian's Chromium first when it is missing, for the
// operator page's browser tests, and Debian's redis-server and nginx, for the fleet test — then the official
// conformance suites against `mcp-host serve`.
// Prints its own summary last.
import { spawn, spawnSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const only = process.argv.slice(2);

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

// Runs the test files, echoing the runner's output and reading its closing counts (`# pass N`, `# fail N`).
function runTests(label, args) {
  console.log(`\n=== ${label}: node ${args.join(" ")}`);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: ["ignore", "pipe", "inherit"] });
    const counts = { pass: 0, fail: 0 };
    let tail = "";
    child.stdout.on("data", (chunk) => {
      process.stdout.write(chunk);
      tail = (tail + chunk.toString("utf8")).slice(-4096);
      for (const m of tail.matchAll(/^# (pass|fail) (\d+)$/gm)) counts[m[1]] = Number(m[2]);
    });
    child.on("close", (code) => resolve({ ok: code === 0, counts }));
  });
}

const steps = [];
const files = only.length > 0 ? only : [...testFiles(join(root, "test")), ...testFiles(join(root, "plugins")), ...testFiles(join(root, "examples"))];
// The tests run the built command and plugins (dist/), so the build comes first; it is incremental.
steps.push(["build", run("build", process.execPath, ["scripts/build.mjs"])]);
// The benchmark smoke test (and the type-check of bench/) needs the frameworks it compares against.
steps.push(["benchmark peers", run("benchmark peers", process.execPath, ["scripts/bench-peers.mjs"])]);
steps.push(["typecheck", run("typecheck", "npx", ["tsc", "-p", "tsconfig.json"])]);
// The operator page's tests drive Debian's Chromium; a fresh machine gets it here (apt-get, as root).
steps.push(["chromium for the browser tests", run("chromium", process.execPath, ["scripts/ensure-chromium.mjs"])]);
// The fleet test runs three instances behind a real nginx sharing a real Redis; a fresh machine gets both here.
steps.push(["redis-server and nginx for the fleet test", run("fleet servers", process.execPath, ["scripts/ensure-fleet-servers.mjs"])]);
// The public API of every entry against its committed report (api/*.api.md): a change to the API changes the report.
if (only.length === 0) steps.push(["public API report (api-extractor)", run("public API report", process.execPath, ["scripts/api-report.mjs"])]);
if (only.length === 0) steps.push(["format and lint (biome)", run("format and lint", "npx", ["biome", "ci", "--colors=off", "."])]);
const tests = await runTests(`tests (${files.length} files)`, [
  "--import",
  "tsx",
  "--test",
  "--test-reporter=tap",
  "--test-concurrency=3",
  "--test-timeout=120000",
  ...files,
]);
steps.push([`tests (${tests.counts.pass} passed, ${tests.counts.fail} failed)`, tests.ok]);
if (only.length === 0 && process.env.MCP_HOST_SKIP_CONFORMANCE !== "1") {
  steps.push(["conformance", run("conformance", process.execPath, ["scripts/conformance.mjs", "--extended"])]);
}

console.log("\n=== mcp-host test summary");
for (const [name, ok] of steps) console.log(`${ok ? "ok  " : "FAIL"} ${name}`);
const failed = steps.filter(([, ok]) => !ok).length;
console.log(`tests: ${tests.counts.pass} passed, ${tests.counts.fail} failed`);
process.exit(failed === 0 ? 0 : 1);
