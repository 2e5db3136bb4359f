/**
 * The mcp-host dependency `mcp-host init` writes into a scaffold: one that installs where the scaffold is made. When
 * the mcp-host that runs `init` came from the npm registry, that is its version range; otherwise — a clone of the
 * repository, or a packed tarball installed before mcp-host is published — it is a `file:` dependency on that very
 * folder or tarball, so `npm install` in the scaffold never asks the registry for a package it does not know.
 */
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { join, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

/** The dependency, and where it points (for the line `init` prints). */
export interface McpHostDependency {
  /** The package.json value: `^0.1.0`, `file:/abs/mcp-host-0.1.0.tgz` or `file:/abs/checkout`. */
  spec: string;
  from: "registry" | "tarball" | "folder";
}

/**
 * This package's folder (dist/cli/scaffold/ is three levels down; the bundled CLI's chunks, scripts/bundle-cli.mjs,
 * sit in dist/cli/, two), its symlinks resolved.
 */
export function runningPackageDir(): string {
  const up = (import.meta as ImportMeta & { mcpHostBundle?: boolean }).mcpHostBundle === true ? "../../" : "../../../";
  return realpathSync(fileURLToPath(new URL(up, import.meta.url))).replace(/[/\\]$/, "");
}

/** npm's record of how the package at `key` (e.g. `node_modules/mcp-host`) under `root` was installed. */
function resolvedFrom(root: string, key: string): string | undefined {
  for (const lockfile of [join(root, "node_modules", ".package-lock.json"), join(root, "package-lock.json")]) {
    try {
      const lock = JSON.parse(readFileSync(lockfile, "utf8")) as { packages?: Record<string, { resolved?: unknown }> };
      const resolved = lock.packages?.[key]?.resolved;
      if (typeof resolved === "string") return resolved;
      if (lock.packages?.[key] !== undefined) return undefined;
    } catch {
      // no such lockfile (yarn, pnpm, or none written): the next one, else the registry
    }
  }
  return undefined;
}

/**
 * @example
 * mcpHostDependency("/home/me/mcp-host", "0.1.0") // { spec: "file:/home/me/mcp-host", from: "folder" } — a clone
 * mcpHostDependency("/srv/app/node_modules/mcp-host", "0.1.0") // { spec: "^0.1.0", from: "registry" } — from npm
 */
export function mcpHostDependency(packageDir: string, version: string): McpHostDependency {
  const marker = `${sep}node_modules${sep}`;
  const at = packageDir.lastIndexOf(marker);
  // Not inside any node_modules: a clone of the repository (or an unpacked copy), linked as a folder.
  if (at < 0) return { spec: `file:${packageDir}`, from: "folder" };
  const root = packageDir.slice(0, at);
  const key = `node_modules/${packageDir
    .slice(at + marker.length)
    .split(sep)
    .join("/")}`;
  const resolved = resolvedFrom(root, key);
  if (resolved === undefined || /^https?:/.test(resolved)) return { spec: `^${version}`, from: "registry" };
  if (resolved.startsWith("file:")) {
    const source = resolve(root, resolved.slice("file:".length));
    if (existsSync(source)) return { spec: `file:${source}`, from: source.endsWith(".tgz") ? "tarball" : "folder" };
  }
  // Installed from somewhere that is gone (or a git URL): the installed folder itself still has everything.
  return { spec: `file:${packageDir}`, from: "folder" };
}
