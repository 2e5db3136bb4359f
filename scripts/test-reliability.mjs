#!/usr/bin/env node
// `npm run test:reliability`: the full reliability suite (docs/reliability.md) — the same files `npm test` runs in
// their short version, with RELIABILITY_FULL=1: ten times the requests, sessions and rounds. Builds first (the
// suite serves the built command), runs the files one at a time so they do not compete for the two cores, and
// prints every `reliability:` figure again at the end. RELIABILITY_SEED=N repeats a run's random choices.
import { spawn, spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const dir = join(root, "test", "reliability");
const files =
  process.argv.slice(2).length > 0
    ? process.argv.slice(2)
    : readdirSync(dir)
        .filter((f) => f.endsWith(".test.ts"))
        .sort()
        .map((f) => join("test", "reliability", f));

const build = spawnSync(process.execPath, ["scripts/build.mjs"], { cwd: root, stdio: "inherit" });
if (build.status !== 0) process.exit(1);

const figures = [];
const counts = { pass: 0, fail: 0 };
const child = spawn(process.execPath, ["--import", "tsx", "--test", "--test-reporter=tap", "--test-concurrency=1", "--test-timeout=900000", ...files], {
  cwd: root,
  stdio: ["ignore", "pipe", "inherit"],
  env: { ...process.env, RELIABILITY_FULL: "1" },
});
let pending = "";
child.stdout.on("data", (chunk) => {
  process.stdout.write(chunk);
  pending += chunk.toString("utf8");
  const lines = pending.split("\n");
  pending = lines.pop() ?? "";
  for (const line of lines) {
    const figure = /^\s*# (reliability: .*)$/.exec(line);
    if (figure) figures.push(figure[1]);
    const total = /^# (pass|fail) (\d+)$/.exec(line);
    if (total) counts[total[1]] = Number(total[2]);
  }
});
child.on("close", (code) => {
  console.log("\n=== mcp-host reliability figures (full run)");
  for (const line of figures) console.log(line);
  console.log(`reliability: ${counts.pass} passed, ${counts.fail} failed`);
  process.exit(code === 0 ? 0 : 1);
});
