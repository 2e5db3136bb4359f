/**
 * Redis and nginx as the fleet test (test/helpers/fleet-servers.ts) and the scale-out scenario
 * (bench/scenarios/scale-out-servers.ts) run them: Debian's binaries (scripts/ensure-fleet-servers.mjs installs
 * them), on loopback, in a folder of their own. Redis cannot pick its own port (`--port 0` means "no TCP"), so a free
 * one is found by binding 127.0.0.1:0 first, and it runs without persistence. nginx runs the example's own template
 * (examples/scale-out/nginx/), its `${…}` placeholders filled in as the nginx image's envsubst would, inside a main
 * file that keeps every path nginx writes in that folder.
 */
import type { ChildProcess } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { connect, createServer } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const REDIS_SERVER = "/usr/bin/redis-server";
export const NGINX = "/usr/sbin/nginx";
/** The example's nginx configuration: what the test and the bench run is what docs/scale-out.md shows. */
export const NGINX_TEMPLATE = fileURLToPath(new URL("../../examples/scale-out/nginx/mcp-host.conf.template", import.meta.url));

/**
 * A TCP port nobody listens on now, on 127.0.0.1.
 * @example
 * const port = await freePort();
 */
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

/**
 * Resolves once something accepts TCP connections on the port, within 10 s; fails at once if `child` exits first,
 * with `log()` (what it printed) in the message.
 * @example
 * await accepting(port, "redis-server", child, () => output);
 */
export async function accepting(port: number, what: string, child: ChildProcess, log: () => string = () => ""): Promise<void> {
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

/**
 * redis-server's arguments: this port on loopback, no persistence, its files in `dir`.
 * @example
 * spawn(REDIS_SERVER, redisArgs(port, dir));
 */
export function redisArgs(port: number, dir: string): string[] {
  return ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir, "--daemonize", "no", "--loglevel", "warning"];
}

export interface NginxFiles {
  /** The example's template as rendered. */
  rendered: string;
  /** nginx's arguments to run it. */
  args: string[];
  /** Its error log (for a failing start's message). */
  errorLog: string;
}

/**
 * Writes nginx's files into `dir`: the example's template rendered with `values` (each `${NAME}` it has must be
 * given) and a main file around it. `accessLog: false` for load (the bench), on for a test to read.
 * @example
 * const { args } = nginxFiles(dir, { NGINX_PORT: "127.0.0.1:8080", MCP_HOST_A: "127.0.0.1:4001", … }, { accessLog: false, workerConnections: 4096 });
 */
export function nginxFiles(dir: string, values: Readonly<Record<string, string>>, options: { accessLog: boolean; workerConnections: number }): NginxFiles {
  const rendered = readFileSync(NGINX_TEMPLATE, "utf8").replace(/\$\{([A-Z0-9_]+)\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`the nginx template needs \${${name}}`);
    return value;
  });
  const temps = ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"];
  for (const sub of temps) mkdirSync(join(dir, sub), { recursive: true });
  writeFileSync(join(dir, "mcp-host.conf"), rendered);
  const errorLog = join(dir, "error.log");
  // What the nginx image's own nginx.conf gives the template (conf.d), with every path in `dir`.
  const main = [
    "daemon off;",
    "worker_processes 1;",
    `pid ${join(dir, "nginx.pid")};`,
    `error_log ${errorLog} warn;`,
    `events { worker_connections ${options.workerConnections}; }`,
    "http {",
    options.accessLog ? `  access_log ${join(dir, "access.log")};` : "  access_log off;",
    ...temps.map((sub) => `  ${sub}_temp_path ${join(dir, sub)};`),
    `  include ${join(dir, "mcp-host.conf")};`,
    "}",
    "",
  ];
  writeFileSync(join(dir, "nginx.conf"), main.join("\n"));
  return { rendered, args: ["-p", dir, "-c", join(dir, "nginx.conf")], errorLog };
}
