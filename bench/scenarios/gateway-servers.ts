/**
 * The processes of scenario 5, started together and closed together: the HTTP upstream (the raw SDK v2 peer, its
 * own process), mcp-host as users run it (the built CLI's `serve`, one process per measured subject) mounting that
 * upstream — or a stdio echo server it starts — as the toolset `up` through `servers:` in a config file in a temp
 * folder, mcp-host serving the same echo as a native tool (the reference), and the same stdio echo server started
 * by the load generator for the direct stdio calls.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { CliHost } from "../lib/cli-host.js";
import type { LoadGenerator } from "../lib/loadgen-client.js";
import type { Measured } from "../lib/measure.js";
import { PeerProcess } from "../lib/peer-process.js";
import { commandLine, cpuMicros, rssBytes } from "../lib/proc.js";

/** The stdio echo server of both stdio legs: raw SDK v2 `serveStdio`, plain node (bench/servers/stdio/). */
export const STDIO_ECHO = fileURLToPath(new URL("../servers/stdio/sdk-v2-stdio.mjs", import.meta.url));
/** The project whose one extension serves echo natively (the stdio cold start's fixture). */
const NATIVE_PROJECT = fileURLToPath(new URL("../fixtures/stdio-project", import.meta.url));
/** The toolset the upstream is mounted as, and the native extension's toolset. */
export const UPSTREAM_TOOLSET = "up";
export const NATIVE_TOOLSET = "bench";
/** The key of the load generator's own stdio server. */
export const DIRECT_STDIO_KEY = "gateway-direct-stdio";

export type HostRole = "http" | "http-session" | "stdio" | "native" | "native-session";
export const HOST_ROLES: readonly HostRole[] = ["http", "http-session", "stdio", "native", "native-session"];

export interface GatewayServers {
  /** The HTTP upstream. */
  upstream: PeerProcess;
  /** One mcp-host process per measured subject, so each profile holds one kind of request. */
  hosts: Record<HostRole, CliHost>;
  /** The stdio server the `stdio` host started (its child process). */
  hostStdioChild: Measured;
  /** The stdio server the load generator started. */
  directStdio: Measured;
  /** The era each mounted upstream connection negotiated, per host role ("modern" or "legacy"). */
  eras: Partial<Record<HostRole, string>>;
  close(): Promise<void>;
}

export interface StartOptions {
  loadgen: LoadGenerator;
  /** Profile the mcp-host processes (and, with `profileUpstream`, the HTTP upstream) into this folder. */
  profileDir?: string;
  profileUpstream: boolean;
}

/**
 * No access or audit line per request: this scenario compares a proxied call with a direct one, and what those
 * lines cost is what scenarios 1–3 show (mcp-host beside mcp-host-silent). Debug stays on for the one era line per
 * upstream connection.
 */
const QUIET = { access: false, audit: false };

function project(dir: string, servers: Record<string, unknown>): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "package.json"), `${JSON.stringify({ private: true, name: "bench-gateway", version: "1.0.0", type: "module" }, null, 2)}\n`);
  const config = join(dir, "mcp-host.config.json");
  writeFileSync(config, `${JSON.stringify({ extensions: { discover: false }, servers, logging: QUIET }, null, 2)}\n`);
  return config;
}

/** The config of the native reference: its project's extensions, as found, with the same logging. */
function nativeConfig(dir: string): string {
  const config = join(dir, "native.config.json");
  writeFileSync(config, `${JSON.stringify({ logging: QUIET }, null, 2)}\n`);
  return config;
}

function measuredPid(pid: number): Measured {
  return { pid, cpuMicros: () => cpuMicros(pid), rssBytes: () => rssBytes(pid) };
}

/** The one child of `host` running the stdio echo server. */
function stdioChildOf(host: CliHost): Measured {
  const children = host.children().filter((pid) => {
    try {
      return commandLine(pid).includes(STDIO_ECHO);
    } catch {
      return false;
    }
  });
  if (children.length !== 1) throw new Error(`expected mcp-host (pid ${host.pid}) to have started one stdio echo server, found ${children.length}`);
  return measuredPid(children[0]!);
}

async function settleAll<T>(starts: ReadonlyArray<Promise<T>>, close: (value: T) => Promise<unknown>): Promise<T[]> {
  const settled = await Promise.allSettled(starts);
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === "rejected");
  const values = settled.flatMap((s) => (s.status === "fulfilled" ? [s.value] : []));
  if (failed) {
    await Promise.allSettled(values.map(close));
    throw failed.reason;
  }
  return values;
}

/**
 * @example
 * const servers = await startGatewayServers({ loadgen, profileUpstream: false });
 * try { … } finally { await servers.close(); }
 */
export async function startGatewayServers(options: StartOptions): Promise<GatewayServers> {
  const { loadgen, profileDir } = options;
  const dir = mkdtempSync(join(tmpdir(), "mcp-host-bench-gateway-"));
  let upstream: PeerProcess | undefined;
  let hosts: CliHost[] = [];
  let directStarted = false;
  const closeAll = async () => {
    await Promise.allSettled([...hosts.map((h) => h.close()), upstream?.close(), directStarted ? loadgen.stopStdio(DIRECT_STDIO_KEY) : undefined]);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    upstream = await PeerProcess.start({ peer: "sdk-v2", extraTools: 0 }, profileDir && options.profileUpstream ? { cpuProfDir: profileDir } : {});
    const httpConfig = project(join(dir, "http"), { [UPSTREAM_TOOLSET]: { url: upstream.url.href } });
    const stdioConfig = project(join(dir, "stdio"), { [UPSTREAM_TOOLSET]: { command: process.execPath, args: [STDIO_ECHO] } });
    const native = nativeConfig(dir);
    const prof = profileDir ? { cpuProfDir: profileDir } : {};
    const configs: Record<HostRole, { cwd: string; config?: string }> = {
      http: { cwd: join(dir, "http"), config: httpConfig },
      "http-session": { cwd: join(dir, "http"), config: httpConfig },
      stdio: { cwd: join(dir, "stdio"), config: stdioConfig },
      native: { cwd: NATIVE_PROJECT, config: native },
      "native-session": { cwd: NATIVE_PROJECT, config: native },
    };
    const direct = loadgen.startStdio(DIRECT_STDIO_KEY, process.execPath, [STDIO_ECHO]).then((started) => {
      directStarted = true;
      return started;
    });
    direct.catch(() => {}); // awaited below; if a host fails first, this one's failure is not the one reported
    hosts = await settleAll(
      HOST_ROLES.map((role) => CliHost.start({ ...configs[role], ...prof, logLevel: "debug" })),
      (h) => h.close(),
    );
    const { pid: directPid } = await direct;
    const byRole = Object.fromEntries(HOST_ROLES.map((role, i) => [role, hosts[i]!])) as Record<HostRole, CliHost>;
    const eras: Partial<Record<HostRole, string>> = {};
    for (const role of ["http", "http-session", "stdio"] as const) eras[role] = await byRole[role].eraOf(UPSTREAM_TOOLSET);
    return {
      upstream,
      hosts: byRole,
      hostStdioChild: stdioChildOf(byRole.stdio),
      directStdio: measuredPid(directPid),
      eras,
      close: closeAll,
    };
  } catch (error) {
    await closeAll();
    throw error;
  }
}
