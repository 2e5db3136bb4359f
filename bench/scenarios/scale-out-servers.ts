/**
 * The processes scenario 7 (`scale-out`) measures, self-contained: a redis-server and nginx from Debian's packages
 * (`node scripts/ensure-fleet-servers.mjs` installs them), and `mcp-host serve` instances run from the built CLI on
 * the stdio project's echo. nginx runs the example's own template (examples/scale-out/nginx/). Everything listens on
 * loopback, in a temp folder; `close` ends it all. A group of processes is measured as one: its CPU is the sum of
 * theirs (three instances and nginx for a fleet), read from /proc like every other subject's.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { connect, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Measured } from "../lib/measure.js";
import { childrenOf, cpuMicros, rssBytes } from "../lib/proc.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const CLI = join(ROOT, "dist/cli/main.js");
const PROJECT = join(ROOT, "bench/fixtures/stdio-project");
const TEMPLATE = join(ROOT, "examples/scale-out/nginx/mcp-host.conf.template");
export const REDIS_SERVER = "/usr/bin/redis-server";
export const NGINX = "/usr/sbin/nginx";

/** Why the scenario cannot run here, or undefined. */
export function missingServers(): string | undefined {
  const missing = [CLI, REDIS_SERVER, NGINX].filter((path) => !existsSync(path));
  return missing.length === 0 ? undefined : `${missing.join(", ")} missing (npm run build; node scripts/ensure-fleet-servers.mjs)`;
}

/** Processes measured as one subject (their CPU and RSS summed; nginx's workers included). */
export class ProcessGroup implements Measured {
  constructor(
    private readonly roots: readonly number[],
    readonly url?: URL,
  ) {}

  get pid(): number {
    return this.roots[0]!;
  }

  private pids(): number[] {
    return this.roots.flatMap((pid) => [pid, ...childrenOf(pid)]);
  }

  cpuMicros(): number {
    return this.pids().reduce((sum, pid) => sum + safe(() => cpuMicros(pid)), 0);
  }

  rssBytes(): number {
    return this.pids().reduce((sum, pid) => sum + safe(() => rssBytes(pid)), 0);
  }
}

function safe(read: () => number): number {
  try {
    return read();
  } catch {
    return 0;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function accepting(port: number, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
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
  throw new Error(`${what} did not listen on ${port} within 10 s`);
}

/** One started process and how to end it. */
interface Started {
  child: ChildProcess;
  stop(): Promise<void>;
}

function started(child: ChildProcess, signal: NodeJS.Signals): Started {
  return {
    child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill(signal);
      }),
  };
}

/** What the scenario runs: the fleet's Redis, and instances and fleets made on demand. */
export class ScaleOutServers {
  private readonly dir = mkdtempSync(join(tmpdir(), "mcp-host-bench-scale-out-"));
  private readonly running: Started[] = [];
  redisUrl = "";
  redisPid = 0;

  async startRedis(): Promise<void> {
    const port = await freePort();
    const args = ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", this.dir, "--loglevel", "warning"];
    const child = spawn(REDIS_SERVER, args, { stdio: "ignore" });
    this.running.push(started(child, "SIGTERM"));
    await accepting(port, "redis-server");
    this.redisUrl = `redis://127.0.0.1:${port}`;
    this.redisPid = child.pid!;
  }

  /** One `mcp-host serve` with `config` (YAML lines under the defaults: port 0, no access or audit lines). */
  async instance(name: string, config: string[], env: Record<string, string> = {}): Promise<{ url: URL; pid: number }> {
    const file = join(this.dir, `${name}.yaml`);
    writeFileSync(file, ["http:", "  port: 0", ...config, "logging: { access: false, audit: false }", ""].join("\n"));
    const child = spawn(process.execPath, [CLI, "serve", "--cwd", PROJECT, "--config", file], {
      env: { ...process.env, ...env, MCP_HOST_EXTENSIONS: "" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    this.running.push(started(child, "SIGTERM"));
    let stderr = "";
    child.stderr!.setEncoding("utf8").on("data", (d: string) => (stderr = (stderr + d).slice(-4_000)));
    const url = await new Promise<URL>((resolve, reject) => {
      let out = "";
      child.stdout!.setEncoding("utf8").on("data", (d: string) => {
        out += d;
        const match = /over MCP at (\S+)/.exec(out);
        if (match) resolve(new URL(match[1]!));
      });
      child.once("exit", (code) => reject(new Error(`mcp-host ${name} exited (${code}) before serving: ${stderr}`)));
    });
    return { url, pid: child.pid! };
  }

  /** nginx over `upstreams` (three instance URLs), with the example's template. */
  async nginx(name: string, upstreams: readonly URL[]): Promise<{ url: URL; pid: number }> {
    const dir = join(this.dir, name);
    for (const sub of ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"]) mkdirSync(join(dir, sub), { recursive: true });
    const port = await freePort();
    const values: Record<string, string> = {
      NGINX_PORT: `127.0.0.1:${port}`,
      MCP_HOST_A: upstreams[0]!.host,
      MCP_HOST_B: upstreams[1]!.host,
      MCP_HOST_C: upstreams[2]!.host,
    };
    writeFileSync(
      join(dir, "mcp-host.conf"),
      readFileSync(TEMPLATE, "utf8").replace(/\$\{([A-Z0-9_]+)\}/g, (_, key: string) => values[key] ?? ""),
    );
    const main = [
      "daemon off;",
      "worker_processes 1;",
      `pid ${join(dir, "nginx.pid")};`,
      `error_log ${join(dir, "error.log")} warn;`,
      "events { worker_connections 4096; }",
      "http {",
      "  access_log off;",
      ...["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map((sub) => `  ${sub}_temp_path ${join(dir, sub)};`),
      `  include ${join(dir, "mcp-host.conf")};`,
      "}",
      "",
    ];
    writeFileSync(join(dir, "nginx.conf"), main.join("\n"));
    const child = spawn(NGINX, ["-p", dir, "-c", join(dir, "nginx.conf")], { stdio: "ignore" });
    this.running.push(started(child, "SIGTERM"));
    await accepting(port, "nginx");
    return { url: new URL(`http://127.0.0.1:${port}/mcp`), pid: child.pid! };
  }

  /** Three instances sharing Redis (each with `config` besides `scaleOut`) behind their own nginx. */
  async fleet(name: string, config: string[]): Promise<ProcessGroup> {
    const instances = await Promise.all(
      ["a", "b", "c"].map((id) =>
        this.instance(`${name}-${id}`, [...config, "scaleOut:", `  instanceId: ${name}-${id}`, "  redis:", `    url: "${this.redisUrl}"`]),
      ),
    );
    const nginx = await this.nginx(
      name,
      instances.map((i) => i.url),
    );
    return new ProcessGroup([nginx.pid, ...instances.map((i) => i.pid)], nginx.url);
  }

  async close(): Promise<void> {
    await Promise.all(this.running.splice(0).map((s) => s.stop()));
    rmSync(this.dir, { recursive: true, force: true });
  }
}
