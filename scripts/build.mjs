#!/usr/bin/env node
// Builds the package (src → dist) and then every workspace package that has a tsconfig.json of its own
// (plugins and examples compile against dist/index.d.ts, so the root goes first). A project whose sources are all
// older than its last build is skipped, and tsc itself builds incrementally (build info in .build/), so a build
// with nothing changed takes a moment. The command is then bundled (scripts/bundle-cli.mjs): dist/cli/main.js, the
// package's `bin`, is one ESM entry and its chunks rather than ~200 modules, for the stdio cold start. It is no install script on purpose: a consumer who installs the packed
// package gets dist/ ready-made and runs nothing.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { bundleCli } from "./bundle-cli.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const tsc = join(root, "node_modules", "typescript", "bin", "tsc");
if (!existsSync(tsc)) {
  console.error("build: TypeScript is not installed; run npm ci first");
  process.exit(1);
}

/** The newest modification time of the files under `path` (a file or a folder). */
function newest(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name))));
}

/** True when the project's build info is newer than its config, its sources and what it compiles against. */
function upToDate(project, inputs) {
  const config = JSON.parse(readFileSync(join(root, project), "utf8"));
  const info = config.compilerOptions?.tsBuildInfoFile;
  if (!info) return false;
  const built = newest(join(root, dirname(project), info));
  const outDir = join(root, dirname(project), config.compilerOptions.outDir ?? "dist");
  if (built === 0 || !existsSync(outDir)) return false;
  return [project, ...inputs].every((input) => newest(join(root, input)) < built);
}

function compile(project, inputs) {
  if (upToDate(project, inputs)) return;
  const result = spawnSync(process.execPath, [tsc, "-p", project], { cwd: root, stdio: "inherit" });
  if (result.status !== 0) {
    console.error(`build failed: ${project}`);
    process.exit(result.status ?? 1);
  }
}

compile("tsconfig.build.json", ["src", "tsconfig.base.json", "package.json"]);
try {
  await bundleCli();
} catch (error) {
  console.error(`build failed: bundling the CLI: ${error.message}`);
  process.exit(1);
}
for (const group of ["plugins", "examples"]) {
  const dir = join(root, group);
  if (!existsSync(dir)) continue;
  for (const name of readdirSync(dir).sort()) {
    const project = join(group, name, "tsconfig.json");
    if (existsSync(join(root, project))) compile(project, [join(group, name, "src"), "tsconfig.base.json", "dist/index.d.ts", "dist/deployment.d.ts"]);
  }
}
