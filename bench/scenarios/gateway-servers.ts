/**
 * The processes of scenario 5, started together and closed together: the HTTP upstreams (the raw SDK v2 peer, and
 * its 2025-sessions form, each in its own process — also "the same server served over HTTP", the direct leg of the
 * stdio cases), mcp-host as users run it (the built CLI's `serve` with its default logging, one process per measured
 * subject) mounting an upstream — or the stdio echo server it starts — as the toolset `up` through `servers:` in a
 * config file in a temp folder, mcp-host serving the same echo as a native tool (the reference), the third-party
 * gateways (mcp-proxy, supergateway) fronting the same stdio echo server, and that server started by the load
 * generator for the direct stdio calls. With a compared build (`--compare-cli`), the same mcp-host gateways of that
 * build too, in the same run.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { CliHost } from "../lib/cli-host.js";
import { GatewayPeer } from "../lib/gateway-peer.js";
import type { LoadGenerator } from "../lib/loadgen-client.js";
import type { Measured } from "../lib/measure.js";
import { PeerProcess } from "../lib/peer-process.js";
import { commandLine, cpuMicros, rssBytes } from "../lib/proc.js";

/** The stdio echo server of every stdio leg: raw SDK v2 `serveStdio`, plain node (bench/servers/stdio/). */
export const STDIO_ECHO = fileURLToPath(new URL("../servers/stdio/sdk-v2-stdio.mjs", import.meta.url));
/** The project whose one extension serves echo natively (the stdio cold start's fixture). */
const NATIVE_PROJECT = fileURLToPath(new URL("../fixtures/stdio-project", import.meta.url));
/** The toolset the upstream is mounted as, and the native extension's toolset. */
export const UPSTREAM_TOOLSET = "up";
export const NATIVE_TOOLSET = "bench";
/** The key of the load generator's own stdio server. */
export const DIRECT_STDIO_KEY = "gateway-direct-stdio";

export type HostRole = "http" | "http-session" | "stdio" | "stdio-session" | "native" | "native-session";
export const HOST_ROLES: readonly HostRole[] = ["http", "http-session", "stdio", "stdio-session", "native", "native-session"];
/** The gateways whose upstream connection's era the scenario reports. */
export const GATEWAY_ROLES = ["http", "http-session", "stdio", "stdio-session"] as const;
export type GatewayRole = (typeof GATEWAY_ROLES)[number];
/** The roles a compared build runs too (the proxied ones). */
export const COMPARED_ROLES: readonly GatewayRole[] = GATEWAY_ROLES;

export type PeerRole = "mcp-proxy" | "mcp-proxy-session" | "supergateway" | "supergateway-session";
export const PEER_ROLES: readonly PeerRole[] = ["mcp-proxy", "mcp-proxy-session", "supergateway", "supergateway-session"];

/** A measured mcp-host gateway: its process, the stdio upstream it started (if any), and both as one tree. */
export interface HostGateway {
  host: CliHost;
  stdioChild?: Measured;
  tree: Pick<Measured, "cpuMicros">;
}

export interface GatewayServers {
  /** The HTTP upstream (2026-07-28 and stateless 2025), and the same server with 2025 sessions. */
  upstream: PeerProcess;
  upstreamSessions: PeerProcess;
  /** One mcp-host process per measured subject, so each profile holds one kind of request. */
  hosts: Record<HostRole, CliHost>;
  /** The mcp-host gateways, with their stdio children and process trees. */
  gateways: Record<GatewayRole, HostGateway>;
  /** The same gateways of the compared build, when one was given. */
  compared?: Record<GatewayRole, HostGateway>;
  /** The third-party gateways, one process per subject, each fronting its own copy of the stdio echo server. */
  peers: Record<PeerRole, GatewayPeer>;
  /** The stdio server the load generator started. */
  directStdio: Measured;
  /** The era each mounted upstream connection negotiated, per gateway role ("modern" or "legacy"). */
  eras: Partial<Record<GatewayRole, string>>;
  close(): Promise<void>;
}

export interface StartOptions {
  loadgen: LoadGenerator;
  /** Profile the mcp-host processes (and, with `profileUpstream`, the HTTP upstream; with `profileGateways`, the peers). */
  profileDir?: string;
  profileUpstream: boolean;
  profileGateways: boolean;
  /** Another built CLI (`dist/cli/main.js`) whose gateways are measured in the same run. */
  compareCli?: string;
}

/** mcp-host's own project and config: nothing but `servers:` — its logging is the default one (access and audit lines). */
function project(dir: string, servers: Record<string, unknown>): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "package.json"), `${JSON.stringify({ private: true, name: "bench-gateway", version: "1.0.0", type: "module" }, null, 2)}\n`);
  const config = join(dir, "mcp-host.config.json");
  writeFileSync(config, `${JSON.stringify({ extensions: { discover: false }, servers }, null, 2)}\n`);
  return config;
}

/** The config of the native reference: its project's extensions, as found, with the default logging. */
function nativeConfig(dir: string): string {
  const config = join(dir, "native.config.json");
  writeFileSync(config, "{}\n");
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

function gatewayOf(host: CliHost, stdio: boolean): HostGateway {
  return { host, ...(stdio ? { stdioChild: stdioChildOf(host) } : {}), tree: host.tree };
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
 * const servers = await startGatewayServers({ loadgen, profileUpstream: false, profileGateways: false });
 * try { … } finally { await servers.close(); }
 */
export async function startGatewayServers(options: StartOptions): Promise<GatewayServers> {
  const { loadgen, profileDir } = options;
  const dir = mkdtempSync(join(tmpdir(), "mcp-host-bench-gateway-"));
  const upstreams: PeerProcess[] = [];
  let hosts: CliHost[] = [];
  let comparedHosts: CliHost[] = [];
  let peers: GatewayPeer[] = [];
  let directStarted = false;
  const closeAll = async () => {
    await Promise.allSettled([
      ...[...hosts, ...comparedHosts, ...peers, ...upstreams].map((p) => p.close()),
      directStarted ? loadgen.stopStdio(DIRECT_STDIO_KEY) : undefined,
    ]);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const upstreamProf = profileDir && options.profileUpstream ? { cpuProfDir: profileDir } : {};
    upstreams.push(
      ...(await settleAll(
        [PeerProcess.start({ peer: "sdk-v2", extraTools: 0 }, upstreamProf), PeerProcess.start({ peer: "sdk-v2-sessions", extraTools: 0 }, upstreamProf)],
        (p) => p.close(),
      )),
    );
    const [upstream, upstreamSessions] = upstreams as [PeerProcess, PeerProcess];
    const httpConfig = project(join(dir, "http"), { [UPSTREAM_TOOLSET]: { url: upstream.url.href } });
    const stdioConfig = project(join(dir, "stdio"), { [UPSTREAM_TOOLSET]: { command: process.execPath, args: [STDIO_ECHO] } });
    const native = nativeConfig(dir);
    const prof = profileDir ? { cpuProfDir: profileDir } : {};
    const configs: Record<HostRole, { cwd: string; config?: string }> = {
      http: { cwd: join(dir, "http"), config: httpConfig },
      "http-session": { cwd: join(dir, "http"), config: httpConfig },
      stdio: { cwd: join(dir, "stdio"), config: stdioConfig },
      "stdio-session": { cwd: join(dir, "stdio"), config: stdioConfig },
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
    if (options.compareCli) {
      const cli = options.compareCli;
      comparedHosts = await settleAll(
        COMPARED_ROLES.map((role) => CliHost.start({ ...configs[role], cli, logLevel: "debug" })),
        (h) => h.close(),
      );
    }
    const peerProf = profileDir && options.profileGateways ? { cpuProfDir: profileDir } : {};
    peers = await settleAll(
      [
        GatewayPeer.start({ kind: "mcp-proxy", upstreamScript: STDIO_ECHO, ...peerProf }),
        GatewayPeer.start({ kind: "mcp-proxy", upstreamScript: STDIO_ECHO, ...peerProf }),
        GatewayPeer.start({ kind: "supergateway", upstreamScript: STDIO_ECHO, ...peerProf }),
        GatewayPeer.start({ kind: "supergateway", upstreamScript: STDIO_ECHO, stateful: true, ...peerProf }),
      ],
      (p) => p.close(),
    );
    const { pid: directPid } = await direct;
    const byRole = Object.fromEntries(HOST_ROLES.map((role, i) => [role, hosts[i]!])) as Record<HostRole, CliHost>;
    const eras: Partial<Record<GatewayRole, string>> = {};
    for (const role of GATEWAY_ROLES) eras[role] = await byRole[role].eraOf(UPSTREAM_TOOLSET);
    const gateways = (list: readonly CliHost[]) =>
      Object.fromEntries(GATEWAY_ROLES.map((role, i) => [role, gatewayOf(list[i]!, role.startsWith("stdio"))])) as Record<GatewayRole, HostGateway>;
    if (comparedHosts.length > 0) for (const host of comparedHosts) await host.eraOf(UPSTREAM_TOOLSET);
    return {
      upstream,
      upstreamSessions,
      hosts: byRole,
      gateways: gateways(GATEWAY_ROLES.map((role) => byRole[role])),
      ...(comparedHosts.length > 0 ? { compared: gateways(comparedHosts) } : {}),
      peers: Object.fromEntries(PEER_ROLES.map((role, i) => [role, peers[i]!])) as Record<PeerRole, GatewayPeer>,
      directStdio: measuredPid(directPid),
      eras,
      close: closeAll,
    };
  } catch (error) {
    await closeAll();
    throw error;
  }
}
