#!/usr/bin/env node
// Builds the package (src → dist) and then every workspace package that has a tsconfig.json of its own
// (plugins and examples compile against dist/index.d.ts, so the root goes first).
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const tsc = join(root, "node_modules", "typescript", "bin", "tsc");
if (!existsSync(tsc)) {
  // `npm install --omit=dev` in a consumer: dist/ ships prebuilt, nothing to do.
  process.exit(0);
}
function compile(project) {
  const result = spawnSync(process.execPath, [tsc, "-p", project], { cwd: root, stdio: "inherit" });
  if (result.status !== 0) {
    console.error(`build failed: ${project}`);
    process.exit(result.status ?? 1);
  }
}
compile("tsconfig.build.json");
for (const group of ["plugins", "examples"]) {
  const dir = join(root, group);
  if (!existsSync(dir)) continue;
  for (const name of readdirSync(dir).sort()) {
    const project = join(group, name, "tsconfig.json");
    if (existsSync(join(root, project))) compile(project);
  }
}
