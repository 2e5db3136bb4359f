/**
 * Says so when a command found nothing to serve. Desktop clients start `mcp-host stdio` in a folder of their own
 * choosing; without these lines the server silently offers only `list_server_toolsets` and nobody knows why.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { LoadResult } from "../host/loading/load.js";
import type { Logger } from "../logger.js";

function dependencyCounts(cwd: string): string {
  try {
    const pkg = JSON.parse(readFileSync(join(cwd, "package.json"), "utf8")) as Record<string, unknown>;
    const count = (key: string) => (typeof pkg[key] === "object" && pkg[key] !== null ? Object.keys(pkg[key] as object).length : 0);
    const workspaces = Array.isArray(pkg.workspaces) || (typeof pkg.workspaces === "object" && pkg.workspaces !== null) ? "its workspaces" : "no workspaces";
    return `its mcpExtensions field (${pkg.mcpExtensions === undefined ? "absent" : "present"}), ${count("dependencies")} dependencies, ${count("optionalDependencies")} optional and ${count("devDependencies")} dev dependencies, ${workspaces}`;
  } catch {
    return "a package.json it could not read";
  }
}

/**
 * Warns (on stderr, through the logger) when there is no package.json at `cwd`, or when nothing was loaded.
 * @example
 * warnWhenNothingFound(cwd, loaded, logger);
 */
export function warnWhenNothingFound(cwd: string, loaded: LoadResult, logger: Logger): void {
  if (loaded.extensions.length > 0) return;
  if (!existsSync(join(cwd, "package.json"))) {
    logger.warn(
      `no package.json in ${cwd}, so no extensions were found; pass the project folder with --cwd (an absolute path when a desktop client starts this command)`,
    );
    return;
  }
  if (loaded.failures.length > 0) return; // each failure was logged with its reason
  logger.warn(
    `no extensions found in ${cwd}: looked at ${dependencyCounts(cwd)}; install an extension package (npm install <package>) or declare one in mcpExtensions`,
  );
}
