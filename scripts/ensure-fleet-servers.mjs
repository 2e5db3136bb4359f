#!/usr/bin/env node
// Makes sure Debian's redis-server and nginx are on the machine for the fleet test (test/scale-out/fleet.test.ts runs
// three `mcp-host serve` instances behind a real nginx, sharing a real Redis). A fresh machine has neither: run as root
// (as CI and the project's machines do), this installs the `redis-server` and `nginx` packages with apt-get, without
// letting their packages start the system services (the tests start their own, on loopback, in a temp folder);
// otherwise it says how to and fails. Run by scripts/test.mjs before the tests; `node scripts/ensure-fleet-servers.mjs`
// alone does the same.
import { spawnSync } from "node:child_process";
import { existsSync, rmSync, writeFileSync } from "node:fs";

export const REDIS_SERVER = "/usr/bin/redis-server";
export const NGINX = "/usr/sbin/nginx";
const WANTED = [
  { binary: REDIS_SERVER, pkg: "redis-server" },
  { binary: NGINX, pkg: "nginx" },
];
// Debian's packages start their services on install unless this says no (exit 101: "action forbidden by policy").
const POLICY_RC = "/usr/sbin/policy-rc.d";

function run(command, args) {
  console.log(`$ ${command} ${args.join(" ")}`);
  const result = spawnSync(command, args, { stdio: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
  return result.status === 0;
}

function install(packages) {
  const ownPolicy = !existsSync(POLICY_RC);
  if (ownPolicy) writeFileSync(POLICY_RC, "#!/bin/sh\nexit 101\n", { mode: 0o755 });
  try {
    return run("apt-get", ["update"]) && run("apt-get", ["install", "-y", "--no-install-recommends", ...packages]);
  } finally {
    if (ownPolicy) rmSync(POLICY_RC, { force: true });
  }
}

function ensure() {
  const missing = WANTED.filter((w) => !existsSync(w.binary));
  if (missing.length === 0) {
    console.log(`fleet servers: ${WANTED.map((w) => w.binary).join(" and ")} are there`);
    return true;
  }
  const packages = missing.map((w) => w.pkg);
  const root = typeof process.getuid === "function" && process.getuid() === 0;
  if (!root) {
    console.error(
      `fleet servers: ${missing.map((w) => w.binary).join(" and ")} missing, and installing needs root. The fleet test runs real Redis and nginx: ` +
        `run \`sudo apt-get update && sudo apt-get install -y ${packages.join(" ")}\` (or run the tests as root), then run the tests again.`,
    );
    return false;
  }
  console.log(`fleet servers: installing Debian's ${packages.join(" and ")} with apt-get (running as root; their services are not started)`);
  if (!install(packages)) {
    console.error(`fleet servers: apt-get could not install ${packages.join(" and ")}; the fleet test cannot run without them.`);
    return false;
  }
  const still = missing.filter((w) => !existsSync(w.binary));
  if (still.length > 0) {
    console.error(`fleet servers: installed, but ${still.map((w) => w.binary).join(" and ")} still missing.`);
    return false;
  }
  console.log(`fleet servers: installed ${packages.join(" and ")}`);
  return true;
}

process.exit(ensure() ? 0 : 1);
