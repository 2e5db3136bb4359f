#!/usr/bin/env node
// The one test command (`npm test`): type-check sources and tests, run every test file under Node's own test
// runner (through tsx), then the official conformance suites against `mcp-host serve`. Prints its own summary last.
import { spawnSync } from "node:child_process";
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

const steps = [];
const files = only.length > 0 ? only : [...testFiles(join(root, "test")), ...testFiles(join(root, "plugins")), ...testFiles(join(root, "examples"))];
steps.push(["typecheck", run("typecheck", "npx", ["tsc", "-p", "tsconfig.json"])]);
steps.push([
  "tests",
  run(`tests (${files.length} files)`, process.execPath, [
    "--import", "tsx",
    "--test", "--test-concurrency=3", "--test-timeout=120000",
    ...files,
  ]),
]);
if (only.length === 0 && process.env.MCP_HOST_SKIP_CONFORMANCE !== "1") {
  steps.push(["conformance", run("conformance", process.execPath, ["scripts/conformance.mjs"])]);
}

console.log("\n=== mcp-host test summary");
for (const [name, ok] of steps) console.log(`${ok ? "ok  " : "FAIL"} ${name}`);
const failed = steps.filter(([, ok]) => !ok).length;
console.log(`steps: ${steps.length - failed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
