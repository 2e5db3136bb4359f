/**
 * The part every command shares: discover and load the extensions of the project at `cwd`, register them into a
 * host, and start it. Load failures are reported on the host (quarantined), never fatal. Config files slot in
 * here: they will turn into the same HostOptions and load options.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createLogger, type Logger, type LogLevel } from "../logger.js";
import { buildHost } from "../host/build-host.js";
import type { McpHost } from "../host/host.js";
import { extensionNamesFromEnv, loadExtensions } from "../host/loading/load-extensions.js";
import type { CliSettings } from "./args.js";

/** The deployment's name and version: its package.json's, else mcp-host's. */
function projectIdentity(cwd: string): { name: string; version: string } {
  try {
    const pkg = JSON.parse(readFileSync(join(cwd, "package.json"), "utf8")) as { name?: string; version?: string };
    return { name: pkg.name ?? "mcp-host", version: pkg.version ?? "0.0.0" };
  } catch {
    return { name: "mcp-host", version: mcpHostVersion() };
  }
}

/** The version of this mcp-host package. */
export function mcpHostVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string };
  return pkg.version;
}

/**
 * @example
 * const { host, logger } = await loadHost(settings, process.env);
 */
export async function loadHost(settings: CliSettings, env: Readonly<Record<string, string | undefined>>): Promise<{ host: McpHost; logger: Logger }> {
  const level: LogLevel = settings.logLevel ?? "info";
  const logger = createLogger({ level, prefix: ["mcp-host"] });
  const names = settings.extensions ?? extensionNamesFromEnv(env);
  const loaded = await loadExtensions({ cwd: settings.cwd, ...(names ? { names } : {}), logger });
  const identity = projectIdentity(settings.cwd);
  const host = buildHost(loaded, { name: identity.name, version: identity.version, logger });
  await host.start();
  return { host, logger };
}
