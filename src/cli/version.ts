/**
 * The version of this mcp-host package, read from its package.json (kept apart so `--version` and `init` load
 * nothing else).
 */
import { readFileSync } from "node:fs";

/**
 * @example
 * mcpHostVersion() // "0.1.0"
 */
export function mcpHostVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string };
  return pkg.version;
}
