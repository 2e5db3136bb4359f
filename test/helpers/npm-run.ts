/**
 * What the install tests share: npm run quietly in a folder (no update notice, funding or audit lines, a clean
 * environment), and a package packed into a folder, as a user installs mcp-host and its plugins from tarballs.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { cleanEnv } from "./cli-process.js";

/** Runs `npm args` in `cwd`; its status and everything it printed. */
export function npm(args: string[], cwd: string): { status: number | null; output: string } {
  const result = spawnSync("npm", args, {
    cwd,
    encoding: "utf8",
    env: { ...cleanEnv(), npm_config_update_notifier: "false", npm_config_fund: "false", npm_config_audit: "false" },
  });
  return { status: result.status, output: `${result.stdout}\n${result.stderr}` };
}

/**
 * Packs the package in `dir` into `into` (scripts not run) and returns the tarball's path.
 * @example
 * const tarball = packInto(work, REPO);
 */
export function packInto(into: string, dir: string): string {
  const before = new Set(readdirSync(into));
  const { status, output } = npm(["pack", "--ignore-scripts", "--pack-destination", into], dir);
  assert.equal(status, 0, output);
  const made = readdirSync(into).filter((f) => f.endsWith(".tgz") && !before.has(f));
  assert.equal(made.length, 1, output);
  return join(into, made[0]!);
}
