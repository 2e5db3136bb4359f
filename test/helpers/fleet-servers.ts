/**
 * Real Redis and nginx processes for the scale-out tests, on loopback only, each in a temp folder of its own and
 * stopped by the test's cleanup. Redis cannot pick its own port (`--port 0` means "no TCP"), so a free one is found
 * by binding 127.0.0.1:0 first; it runs without persistence (`--save "" --appendonly no`) and can be stopped and
 * started again on the same port (the outage tests). nginx runs the example's own configuration
 * (examples/scale-out/nginx/mcp-host.conf.template), its `${…}` placeholders filled in as the nginx image's envsubst
 * would, inside a main file that keeps every path nginx writes in the temp folder. Both binaries come from Debian's
 * packages (scripts/ensure-fleet-servers.mjs installs them).
 */
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Cleanup } from "./http-host.js";
import { REPO } from "./cli-process.js";

export const REDIS_SERVER = "/usr/bin/redis-server";
export const NGINX = "/usr/sbin/nginx";
/** The example's nginx configuration: what the fleet test runs is what docs/scale-out.md shows. */
export const NGINX_TEMPLATE = join(REPO, "examples", "scale-out", "nginx", "mcp-host.conf.template");

/** Fails with what to do when the servers are not installed. */
export function assertFleetServers(): void {
  for (const binary of [REDIS_SERVER, NGINX]) {
    assert.ok(existsSync(binary), `${binary} is missing: run "node scripts/ensure-fleet-servers.mjs" (as root it installs redis-server and nginx)`);
  }
}

/** A TCP port nobody listens on now, on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Resolves once something accepts TCP connections on the port (bounded). */
async function accepting(port: number, what: string, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`${what} exited (${child.exitCode ?? child.signalCode}) before listening: ${log()}`);
    const ok = await new Promise<boolean>((resolve) => {
      const socket = connect(port, "127.0.0.1");
      socket.once("connect", () => {
        socket.destroy();
        resolve(true);
      });
      socket.once("error", () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`${what} did not listen on ${port} within 10 s: ${log()}`);
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
  const child = spawn(command, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.setEncoding("utf8").on("data", (d: string) => (output = (output + d).slice(-8_000)));
  child.stderr!.setEncoding("utf8").on("data", (d: string) => (output = (output + d).slice(-8_000)));
  cleanup.add(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill(stopSignal);
    await exited(child);
  });
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
    const args = [
      "--port",
      String(port),
      "--bind",
      "127.0.0.1",
      "--save",
      "",
      "--appendonly",
      "no",
      "--dir",
      dir,
      "--daemonize",
      "no",
      "--loglevel",
      "warning",
    ];
    current = spawnTracked(cleanup, REDIS_SERVER, args, dir);
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
  const template = readFileSync(NGINX_TEMPLATE, "utf8");
  const values: Record<string, string> = { NGINX_PORT: `127.0.0.1:${port}`, ...vars };
  const rendered = template.replace(/\$\{([A-Z0-9_]+)\}/g, (_, name: string) => {
    assert.ok(values[name] !== undefined, `the nginx template needs \${${name}}`);
    return values[name]!;
  });
  for (const sub of ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"]) mkdirSync(join(dir, sub));
  writeFileSync(join(dir, "mcp-host.conf"), rendered);
  // What the nginx image's own nginx.conf gives the template (conf.d), with every path in the temp folder.
  const main = [
    "daemon off;",
    "worker_processes 1;",
    `pid ${join(dir, "nginx.pid")};`,
    `error_log ${join(dir, "error.log")} warn;`,
    "events { worker_connections 1024; }",
    "http {",
    `  access_log ${join(dir, "access.log")};`,
    `  client_body_temp_path ${join(dir, "client_body")};`,
    `  proxy_temp_path ${join(dir, "proxy")};`,
    `  fastcgi_temp_path ${join(dir, "fastcgi")};`,
    `  uwsgi_temp_path ${join(dir, "uwsgi")};`,
    `  scgi_temp_path ${join(dir, "scgi")};`,
    `  include ${join(dir, "mcp-host.conf")};`,
    "}",
    "",
  ].join("\n");
  writeFileSync(join(dir, "nginx.conf"), main);
  const { child, output } = spawnTracked(cleanup, NGINX, ["-p", dir, "-c", join(dir, "nginx.conf")], dir, "SIGTERM");
  await accepting(port, "nginx", child, () => `${output()}\n${existsSync(join(dir, "error.log")) ? readFileSync(join(dir, "error.log"), "utf8") : ""}`);
  return { port, url: new URL(`http://127.0.0.1:${port}`), config: rendered };
}
