#!/usr/bin/env node
// What importing each package entry costs (issue 22): the modules it loads (ES modules seen by a loader hook plus
// CommonJS modules in require's cache) and the time the import takes, each in a fresh `node` as a consumer would
// run it, against the built package (dist/). `node scripts/entry-sizes.mjs` prints a table (median import time of
// --runs N, default 5); `--json` prints the figures. test/entries.test.ts pins the module counts.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const counter = fileURLToPath(new URL("../test/fixtures/entries/count-modules.mjs", import.meta.url));

/** The package's entries as consumers name them: `mcp-host`, `mcp-host/host`, … */
export function entrySpecifiers() {
  const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
  return Object.keys(pkg.exports)
    .filter((subpath) => subpath !== "./package.json")
    .map((subpath) => (subpath === "." ? pkg.name : `${pkg.name}/${subpath.slice(2)}`));
}

/**
 * Imports `specifier` in a fresh process; returns the modules loaded (their URLs or paths) and the import's time.
 * @example
 * measureEntry("mcp-host/testing").modules.length
 */
export function measureEntry(specifier) {
  const script = `const t = performance.now(); await import(${JSON.stringify(specifier)}); const ms = performance.now() - t;
const { createRequire } = await import("node:module"); const cjs = Object.keys(createRequire(import.meta.url).cache);
console.log(JSON.stringify({ ms, cjs, esm: globalThis.__loadedModules ?? [] }));`;
  const result = spawnSync(process.execPath, ["--import", counter, "--input-type=module", "-e", script], { cwd: root, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`importing ${specifier} failed: ${result.stderr}`);
  const { ms, cjs, esm } = JSON.parse(result.stdout.trim().split("\n").at(-1));
  const modules = [...new Set([...esm.filter((url) => url.startsWith("file:")).map((url) => fileURLToPath(url)), ...cjs])];
  return { modules, ms };
}

/** The packages (directory under node_modules) among loaded module paths, sorted. */
export function packagesOf(modules) {
  const names = new Set();
  for (const path of modules) {
    const match = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(path.slice(path.lastIndexOf("node_modules/") - 0));
    if (match) names.add(match[1]);
  }
  return [...names].sort();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const runs = Number(process.argv[process.argv.indexOf("--runs") + 1]) || 5;
  const rows = entrySpecifiers().map((specifier) => {
    const times = [];
    let modules = [];
    for (let i = 0; i < runs; i++) {
      const measured = measureEntry(specifier);
      times.push(measured.ms);
      modules = measured.modules;
    }
    times.sort((a, b) => a - b);
    return { specifier, modules: modules.length, packages: packagesOf(modules), importMs: Math.round(times[Math.floor(times.length / 2)]) };
  });
  if (process.argv.includes("--json")) console.log(JSON.stringify(rows, null, 2));
  else {
    console.log(`| entry | modules | import ms (median of ${runs}) | packages |\n|---|---:|---:|---|`);
    for (const row of rows) console.log(`| \`${row.specifier}\` | ${row.modules} | ${row.importMs} | ${row.packages.join(", ")} |`);
  }
}
