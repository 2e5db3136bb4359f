/**
 * Shared set-up for registry tests: spec builders for the fixture servers, temporary state folders, free ports on
 * 127.0.0.1, and a harness that keeps the registries' log (and lets a test wait for a line to be logged — the
 * registry's events: a server connected, listed, reported; a stdio child's stderr line), closes every registry after
 * each test and then proves that no process the test started (nor anything left in their process groups) is alive.
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
import { INHERITED_ENV_VARS } from "../../../src/registry/connect/child-env.js";
import { ProcessTracker } from "../processes.js";

/** Which log records a test waits for. */
export type LogMatch = (record: LogRecord) => boolean;

/** How long a wait for a log line may take before the test fails saying what never came (a bound, not a sleep). */
const LOG_WAIT_MS = 15_000;

/** The folder of the upstream fixture servers. */
export const FIXTURES = fileURLToPath(new URL("../../fixtures/upstream/", import.meta.url));
/** The entry point of @modelcontextprotocol/server-everything. */
export const EVERYTHING = fileURLToPath(new URL("../../../node_modules/@modelcontextprotocol/server-everything/dist/index.js", import.meta.url));
/** The documents server-everything lists as its static resources (`demo://resource/static/document/<name>`). */
export const EVERYTHING_DOCS = fileURLToPath(new URL("../../../node_modules/@modelcontextprotocol/server-everything/dist/docs/", import.meta.url));
/** What server-everything (the version the lock file pins) offers. */
export const EVERYTHING_OFFER = {
  /** Its tools for a client with no sampling handler (with one, it adds `trigger-sampling-request`). */
  tools: [
    "echo",
    "get-annotated-message",
    "get-env",
    "get-resource-links",
    "get-resource-reference",
    "get-structured-content",
    "get-sum",
    "get-tiny-image",
    "gzip-file-as-resource",
    "toggle-simulated-logging",
    "toggle-subscriber-updates",
    "trigger-long-running-operation",
    "simulate-research-query",
  ],
  documents: ["architecture.md", "extension.md", "features.md", "how-it-works.md", "instructions.md", "startup.md", "structure.md"],
  templates: ["demo://resource/dynamic/text/{resourceId}", "demo://resource/dynamic/blob/{resourceId}"],
  prompts: ["simple-prompt", "args-prompt", "completable-prompt", "resource-prompt"],
};

/** Fixture tools with every combination of hints that decides whether a tool is destructive (all run "count"). */
export const ANNOTATED_TOOLS = [
  { name: "wipe", behaviour: "count", annotations: { destructiveHint: true } },
  { name: "edit", behaviour: "count", annotations: { readOnlyHint: false } },
  { name: "look", behaviour: "count", annotations: { readOnlyHint: true } },
  { name: "plain", behaviour: "count" },
  { name: "safe_write", behaviour: "count", annotations: { readOnlyHint: false, destructiveHint: false } },
];

/** The environment a stdio child should get from this process: the inherited variables that are set (no functions). */
export function minimalEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of INHERITED_ENV_VARS) {
    const value = process.env[key];
    if (value !== undefined && !value.startsWith("()")) env[key] = value;
  }
  return env;
}

/** A 2025-era (v1 SDK) fixture server over stdio. */
export function legacyStdio(name: string, config: FixtureConfig = {}, options: StdioServerOptions = {}): ServerSpecification {
  return ServerSpec.stdio(name, process.execPath, [join(FIXTURES, "legacy-stdio.mjs"), JSON.stringify({ name, ...config })], options);
}

/** The same server, started through a launcher that does not forward signals (as `npx` does). */
export function wrappedLegacyStdio(name: string, config: FixtureConfig = {}, options: StdioServerOptions = {}): ServerSpecification {
  return ServerSpec.stdio(
    name,
    process.execPath,
    [join(FIXTURES, "npx-like-wrapper.mjs"), join(FIXTURES, "legacy-stdio.mjs"), JSON.stringify({ name, ...config })],
    options,
  );
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

/** What registryHarness() gives a test. */
export interface RegistryHarness {
  /** A registry that logs (at debug) into `records` and is closed after the test. */
  make: (specs: readonly ServerSpecification[], options?: RegistryOptions) => McpRegistry;
  /** Everything this test's registries logged, in order. */
  records: LogRecord[];
  tracker: ProcessTracker;
  /** The first record that matches, logged already or from now on. */
  logged: (match: LogMatch, what: string) => Promise<LogRecord>;
  /** The next record that matches, logged from now on (start waiting before the action that causes it). */
  nextLog: (match: LogMatch, what: string) => Promise<LogRecord>;
}

/**
 * Registers an afterEach that closes this test's registries and asserts no process it started is left.
 * Call inside a describe() (or at the top of a file).
 */
export function registryHarness(): RegistryHarness {
  let registries: McpRegistry[] = [];
  const records: LogRecord[] = [];
  const waiters = new Set<(record: LogRecord) => void>();
  const tracker = new ProcessTracker();
  afterEach(async () => {
    const groups = registries.flatMap((r) => r.status().flatMap((s) => (s.pid !== undefined ? [s.pid] : [])));
    tracker.snapshot(groups);
    await Promise.allSettled(registries.map((r) => r.close()));
    registries = [];
    records.length = 0;
    waiters.clear();
    await tracker.assertAllGone();
  });
  const nextLog = (match: LogMatch, what: string) =>
    new Promise<LogRecord>((resolve, reject) => {
      const bound = setTimeout(() => {
        waiters.delete(waiter);
        reject(new Error(`never logged: ${what}; the log was:\n${records.map((r) => `${r.level} [${r.prefix.join("] [")}] ${r.message}`).join("\n")}`));
      }, LOG_WAIT_MS);
      const waiter = (record: LogRecord) => {
        if (!match(record)) return;
        clearTimeout(bound);
        waiters.delete(waiter);
        resolve(record);
      };
      waiters.add(waiter);
    });
  const sink = (record: LogRecord) => {
    records.push(record);
    for (const waiter of [...waiters]) waiter(record);
  };
  return {
    make(specs, options = {}) {
      const registry = new McpRegistry(specs, { logger: createLogger({ level: "debug", sink }), ...options });
      registries.push(registry);
      return registry;
    },
    records,
    tracker,
    logged: (match, what) => {
      const past = records.find(match);
      return past ? Promise.resolve(past) : nextLog(match, what);
    },
    nextLog,
  };
}

/** The registry's own messages about a server (optionally of one level): logged under its name, not its stderr. */
export function logsOf(records: readonly LogRecord[], server: string, level?: LogRecord["level"]): string[] {
  return records.filter((r) => r.prefix.at(-1) === server && (level === undefined || r.level === level)).map((r) => r.message);
}

/** Matches a line a stdio server wrote to its stderr (logged under `[server] [stderr]`). */
export function stderrLine(server: string, line: string | ((text: string) => boolean)): LogMatch {
  return (r) => r.prefix.join("/") === `${server}/stderr` && (typeof line === "string" ? r.message === line : line(r.message));
}

/** Matches a message the registry logged about a server (under `[server]`). */
export function serverLog(server: string, message: string | ((text: string) => boolean)): LogMatch {
  return (r) => r.prefix.at(-1) === server && (typeof message === "string" ? r.message === message : message(r.message));
}
