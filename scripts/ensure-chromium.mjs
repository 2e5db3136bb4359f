#!/usr/bin/env node
// Makes sure Debian's Chromium is at /usr/bin/chromium for the operator page's browser tests (test/http/observe/
// operator-page.test.ts drives it with playwright-core). A fresh machine does not have it: run as root (as CI and the
// project's machines do), this installs the `chromium` package with apt-get; otherwise it says how to and fails.
// Run by scripts/test.mjs before the tests; `node scripts/ensure-chromium.mjs` alone does the same.
import { existsSync } from "node:fs";
import { spawnSync } from "node:child_process";

export const CHROMIUM = "/usr/bin/chromium";

function run(command, args) {
  console.log(`$ ${command} ${args.join(" ")}`);
  const result = spawnSync(command, args, { stdio: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
  return result.status === 0;
}

function ensure() {
  if (existsSync(CHROMIUM)) {
    console.log(`chromium: ${CHROMIUM} is there`);
    return true;
  }
  const root = typeof process.getuid === "function" && process.getuid() === 0;
  if (!root) {
    console.error(
      `chromium: ${CHROMIUM} is missing, and installing it needs root. The operator page's tests run in Debian's Chromium: ` +
        "run `sudo apt-get update && sudo apt-get install -y chromium` (or run the tests as root), then run the tests again.",
    );
    return false;
  }
  console.log(`chromium: ${CHROMIUM} is missing; installing Debian's chromium package with apt-get (running as root)`);
  if (!run("apt-get", ["update"]) || !run("apt-get", ["install", "-y", "chromium"])) {
    console.error("chromium: apt-get could not install the chromium package; the operator page's browser tests cannot run without it.");
    return false;
  }
  if (!existsSync(CHROMIUM)) {
    console.error(`chromium: the chromium package was installed but ${CHROMIUM} is still missing.`);
    return false;
  }
  console.log(`chromium: installed at ${CHROMIUM}`);
  return true;
}

process.exit(ensure() ? 0 : 1);
