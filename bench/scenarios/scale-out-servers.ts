/**
 * The processes scenario 7 (`scale-out`) measures, self-contained: a redis-server and nginx from Debian's packages
 * (`node scripts/ensure-fleet-servers.mjs` installs them), and `mcp-host serve` instances run from the built CLI on
 * the stdio project's echo. nginx runs the example's own template (examples/scale-out/nginx/). Everything listens on
 * loopback, in a temp folder; `close` ends it all. A group of processes is measured as one: its CPU is the sum of
 * theirs (three instances and nginx for a fleet), read from /proc like every other subject's.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { accepting, freePort, NGINX, nginxFiles, REDIS_SERVER, redisArgs } from "../lib/loopback-servers.js";
import type { Measured } from "../lib/measure.js";
import { childrenOf, cpuMicros, rssBytes } from "../lib/proc.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const CLI = join(ROOT, "dist/cli/main.js");
const PROJECT = join(ROOT, "bench/fixtures/stdio-project");

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
    const child = spawn(REDIS_SERVER, redisArgs(port, this.dir), { stdio: "ignore" });
    this.running.push(started(child, "SIGTERM"));
    await accepting(port, "redis-server", child);
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
    const port = await freePort();
    const values: Record<string, string> = {
      NGINX_PORT: `127.0.0.1:${port}`,
      MCP_HOST_A: upstreams[0]!.host,
      MCP_HOST_B: upstreams[1]!.host,
      MCP_HOST_C: upstreams[2]!.host,
    };
    const files = nginxFiles(dir, values, { accessLog: false, workerConnections: 4096 });
    const child = spawn(NGINX, files.args, { stdio: "ignore" });
    this.running.push(started(child, "SIGTERM"));
    await accepting(port, "nginx", child);
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
