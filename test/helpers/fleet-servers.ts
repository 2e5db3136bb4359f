/**
 * Real Redis and nginx processes for the scale-out tests, on loopback only, each in a temp folder of its own and
 * stopped by the test's cleanup; how each is started and configured is bench/lib/loopback-servers.ts, shared with the
 * scale-out scenario. Redis can be stopped and started again on the same port (the outage tests).
 */
import assert from "node:assert/strict";
import type { ChildProcess } from "node:child_process";
import { endTree, spawnInGroup } from "./child-group.js";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { accepting, freePort, NGINX, nginxFiles, REDIS_SERVER, redisArgs } from "../../bench/lib/loopback-servers.js";
import type { Cleanup } from "./http-host.js";

export { freePort, NGINX, NGINX_TEMPLATE, REDIS_SERVER } from "../../bench/lib/loopback-servers.js";

/** Fails with what to do when the servers are not installed. */
export function assertFleetServers(): void {
  for (const binary of [REDIS_SERVER, NGINX]) {
    assert.ok(existsSync(binary), `${binary} is missing: run "node scripts/ensure-fleet-servers.mjs" (as root it installs redis-server and nginx)`);
  }
}

function tempFolder(cleanup: Cleanup, name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `mcp-host-${name}-`));
  cleanup.add(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/**
 * A child that cleanup always ends and waits for. nginx is ended with SIGTERM, which its master passes on to its
 * workers (a SIGKILLed master would leave them running, holding the port and this process's pipes).
 */
function spawnTracked(
  cleanup: Cleanup,
  command: string,
  args: string[],
  cwd: string,
  stopSignal: NodeJS.Signals = "SIGKILL",
): { child: ChildProcess; output: () => string } {
  const child = spawnInGroup(command, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.setEncoding("utf8").on("data", (d: string) => (output = (output + d).slice(-8_000)));
  child.stderr!.setEncoding("utf8").on("data", (d: string) => (output = (output + d).slice(-8_000)));
  cleanup.add(() => endTree(child, stopSignal === "SIGKILL" ? {} : { first: stopSignal }));
  return { child, output: () => output };
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once("exit", () => resolve()));
}

/** One redis-server on a fixed loopback port, which can be stopped and started again there. */
export interface RedisProcess {
  port: number;
  url: string;
  /** Stops it (SIGKILL: an outage, not a shutdown) and waits until it is gone. */
  stop(): Promise<void>;
  /** Starts it again on the same port (empty: it keeps nothing). */
  start(): Promise<void>;
}

/**
 * @example
 * const redis = await startRedis(cleanup); redis.url // "redis://127.0.0.1:40123"
 */
export async function startRedis(cleanup: Cleanup): Promise<RedisProcess> {
  const dir = tempFolder(cleanup, "redis");
  const port = await freePort();
  let current: ReturnType<typeof spawnTracked> | undefined;
  const start = async () => {
    current = spawnTracked(cleanup, REDIS_SERVER, redisArgs(port, dir), dir);
    await accepting(port, "redis-server", current.child, current.output);
  };
  await start();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    start,
    async stop() {
      const child = current?.child;
      if (child === undefined) return;
      child.kill("SIGKILL");
      await exited(child);
    },
  };
}

/** nginx in front of the fleet, listening on a loopback port. */
export interface NginxProcess {
  port: number;
  url: URL;
  /** The configuration it runs, as rendered (for a failing test's message). */
  config: string;
}

/**
 * Renders the example's template with `vars` (every `${NAME}` it has must be given) and runs it.
 * @example
 * const nginx = await startNginx(cleanup, { MCP_HOST_A: "127.0.0.1:4001", … });
 */
export async function startNginx(cleanup: Cleanup, vars: Record<string, string>): Promise<NginxProcess> {
  const dir = tempFolder(cleanup, "nginx");
  const port = await freePort();
  const files = nginxFiles(dir, { NGINX_PORT: `127.0.0.1:${port}`, ...vars }, { accessLog: true, workerConnections: 1024 });
  const { child, output } = spawnTracked(cleanup, NGINX, files.args, dir, "SIGTERM");
  await accepting(port, "nginx", child, () => `${output()}\n${existsSync(files.errorLog) ? readFileSync(files.errorLog, "utf8") : ""}`);
  return { port, url: new URL(`http://127.0.0.1:${port}`), config: files.rendered };
}
