/**
 * Shared set-up for registry tests: spec builders for the fixture servers, temporary state folders, free ports on
 * 127.0.0.1, and a harness that closes every registry after each test and then proves that no process the test
 * started (nor anything left in their process groups) is still alive.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach } from "node:test";
import { createLogger, type LogRecord } from "../../../src/logger.js";
import type { FixtureConfig } from "../../fixtures/upstream/legacy-behaviours.mjs";
import { McpRegistry, ServerSpec, type RegistryOptions, type ServerSpecification, type StdioServerOptions } from "../../../src/registry/index.js";
import { ProcessTracker } from "./processes.js";

/** The folder of the upstream fixture servers. */
export const FIXTURES = fileURLToPath(new URL("../../fixtures/upstream/", import.meta.url));
/** The entry point of @modelcontextprotocol/server-everything. */
export const EVERYTHING = fileURLToPath(new URL("../../../node_modules/@modelcontextprotocol/server-everything/dist/index.js", import.meta.url));

/** A 2025-era (v1 SDK) fixture server over stdio. */
export function legacyStdio(name: string, config: FixtureConfig = {}, options: StdioServerOptions = {}): ServerSpecification {
  return ServerSpec.stdio(name, process.execPath, [join(FIXTURES, "legacy-stdio.mjs"), JSON.stringify({ name, ...config })], options);
}

/** The same server, started through a launcher that does not forward signals (as `npx` does). */
export function wrappedLegacyStdio(name: string, config: FixtureConfig = {}, options: StdioServerOptions = {}): ServerSpecification {
  return ServerSpec.stdio(name, process.execPath, [join(FIXTURES, "npx-like-wrapper.mjs"), join(FIXTURES, "legacy-stdio.mjs"), JSON.stringify({ name, ...config })], options);
}

/** The dual-era v2 fixture over stdio. */
export function modernStdio(name: string, config: { extraTools?: string[] } = {}, options: StdioServerOptions = {}): ServerSpecification {
  return ServerSpec.stdio(name, process.execPath, [join(FIXTURES, "modern-stdio.mjs"), JSON.stringify({ name, ...config })], options);
}

/** server-everything over stdio. */
export function everythingStdio(name = "everything", options: StdioServerOptions = {}): ServerSpecification {
  return ServerSpec.stdio(name, process.execPath, [EVERYTHING, "stdio"], options);
}

const dirs: string[] = [];
process.on("exit", () => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A fresh temporary folder (fixtures write their calls log there); removed when the test process exits. */
export function stateDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "mcp-registry-test-"));
  dirs.push(dir);
  return dir;
}

/** The lines of a fixture's calls log (`call:<tool>`, `list:tools`, `cancelled:<tool>`). */
export function callsOf(dir: string): string[] {
  try {
    return readFileSync(join(dir, "calls.log"), "utf8").split("\n").filter(Boolean);
  } catch {
    return [];
  }
}

/** How many lines of a calls log equal `line`. */
export function countOf(dir: string, line: string): number {
  return callsOf(dir).filter((l) => l === line).length;
}

/** A port on 127.0.0.1 that was free a moment ago (bound, then closed): nothing listens there. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * Registers an afterEach that closes this test's registries and asserts no process it started is left.
 * Call inside a describe() (or at the top of a file).
 */
export function registryHarness(): {
  make: (specs: readonly ServerSpecification[], options?: RegistryOptions) => McpRegistry;
  records: LogRecord[];
  tracker: ProcessTracker;
} {
  let registries: McpRegistry[] = [];
  const records: LogRecord[] = [];
  const tracker = new ProcessTracker();
  afterEach(async () => {
    const groups = registries.flatMap((r) => r.status().flatMap((s) => (s.pid !== undefined ? [s.pid] : [])));
    tracker.snapshot(groups);
    await Promise.allSettled(registries.map((r) => r.close()));
    registries = [];
    records.length = 0;
    await tracker.assertAllGone();
  });
  return {
    make(specs, options = {}) {
      const registry = new McpRegistry(specs, { logger: createLogger({ level: "debug", sink: (r) => records.push(r) }), ...options });
      registries.push(registry);
      return registry;
    },
    records,
    tracker,
  };
}

/** The messages logged under a server's name (optionally one level). */
export function logsOf(records: readonly LogRecord[], server: string, level?: LogRecord["level"]): string[] {
  return records.filter((r) => r.prefix.includes(server) && (level === undefined || r.level === level)).map((r) => r.message);
}
