/**
 * The server under test, as a user runs it: the built command (`dist/cli/main.js`) serving the reliability fixture
 * project in its own process, so a crash shows as a crash (an exit), not as a failed assertion in this one. Its
 * configuration is written to a temporary file; its memory is read from /proc.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { assertBuilt, type CliProcess, REPO, startCli } from "../../helpers/cli-process.js";
import type { Cleanup } from "../../helpers/cleanup.js";

export const RELIABILITY_PROJECT = join(REPO, "test", "fixtures", "reliability-project");

export interface ServedCli {
  cli: CliProcess;
  url: URL;
  baseUrl: URL;
  port: number;
  /** The child's resident memory now, in bytes. */
  rss(): number;
  /** True while the child has not exited. */
  alive(): boolean;
}

/**
 * Starts `mcp-host serve --port 0` with `config` (YAML) for the fixture project; the cleanup kills it.
 * @example
 * const served = await serveCli(cleanup, "http: { headersTimeoutMs: 1000 }");
 */
export async function serveCli(cleanup: Cleanup, config = "", args: readonly string[] = [], env: NodeJS.ProcessEnv = {}): Promise<ServedCli> {
  assertBuilt();
  const dir = mkdtempSync(join(tmpdir(), "mcp-host-reliability-"));
  cleanup.add(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, "mcp-host.config.yaml");
  writeFileSync(file, config);
  const cli = startCli(cleanup, ["serve", "--cwd", RELIABILITY_PROJECT, "--config", file, "--port", "0", "--log-level", "warn", ...args], { env });
  const line = await cli.line(/is serving .* at http:\/\//);
  const url = new URL(line.slice(line.lastIndexOf("http://")));
  return {
    cli,
    url,
    baseUrl: new URL("/", url),
    port: Number(url.port),
    rss: () => rssOf(cli.pid),
    alive: () => cli.child.exitCode === null && cli.child.signalCode === null,
  };
}

/** A process's resident set size, in bytes (0 once it is gone). */
export function rssOf(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = /^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1];
    return kb === undefined ? 0 : Number(kb) * 1024;
  } catch {
    return 0;
  }
}
