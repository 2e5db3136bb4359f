#!/usr/bin/env node
// Installs the frameworks and gateways the benchmarks compare against (bench/package.json, pinned: fastmcp, mcp-use,
// mcp-proxy, supergateway) into bench/node_modules when they are
// missing or the lockfile changed. They live apart from the project on purpose: mcp-use declares Node 22 in its
// engines although it runs on Node 20, and the project's own `npm ci` must stay free of engine warnings.
import { spawnSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const bench = fileURLToPath(new URL("../bench/", import.meta.url));
const installed = join(bench, "node_modules", ".package-lock.json");
const lock = join(bench, "package-lock.json");
if (existsSync(installed) && statSync(installed).mtimeMs >= statSync(lock).mtimeMs) process.exit(0);
console.log("installing the benchmark peers (bench/package.json)…");
const result = spawnSync("npm", ["ci", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: bench, stdio: "inherit" });
process.exit(result.status ?? 1);
