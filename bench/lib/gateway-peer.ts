/**
 * A third-party MCP gateway scenario 5 measures beside mcp-host — mcp-proxy or supergateway, installed in
 * bench/node_modules at pinned versions by scripts/bench-peers.mjs — fronting the same stdio upstream, in its own
 * process, run by plain node as its users run its bin. Bound to loopback only (`servers/gateways/loopback-listen.mjs`,
 * preloaded, also reports the port it got), with the same minimal environment as mcp-host and no telemetry (neither
 * has any). Seen from the suite like any server: its URL, its own CPU and RSS, and the CPU of its whole process tree —
 * the upstreams it started, those it already reaped included (supergateway starts one per 2026-07-28 request).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { Measured } from "./measure.js";
import { SERVER_ENV } from "./peer-process.js";
import { descendantsOf, MeasuredChild, treeCpuMicros } from "./proc.js";
import { stdioEnv } from "./stdio-client.js";

const LOOPBACK = fileURLToPath(new URL("../servers/gateways/loopback-listen.mjs", import.meta.url));
const MCP_PROXY = fileURLToPath(new URL("../node_modules/mcp-proxy/dist/bin/mcp-proxy.mjs", import.meta.url));
const SUPERGATEWAY = fileURLToPath(new URL("../node_modules/supergateway/dist/index.js", import.meta.url));
const STARTUP_MS = 30_000;

export type GatewayPeerKind = "mcp-proxy" | "supergateway";

export interface GatewayPeerOptions {
  kind: GatewayPeerKind;
  /** The stdio upstream it fronts: run as `node <script>`. */
  upstreamScript: string;
  /** supergateway: one upstream process per 2025 session (`--stateful`), else stateless (its 2026-07-28 leg). */
  stateful?: boolean;
  /** Write a V8 CPU profile of the gateway's own process into this folder when it exits. */
  cpuProfDir?: string;
}

/** The command line of each gateway, as its README shows it, bound to loopback, on the stream endpoint only. */
function argsOf(options: GatewayPeerOptions): string[] {
  if (options.kind === "mcp-proxy") {
    return [MCP_PROXY, "--host", "127.0.0.1", "--port", "0", "--server", "stream", "--", process.execPath, options.upstreamScript];
  }
  return [
    SUPERGATEWAY,
    "--stdio",
    // It runs the command through a shell and ends a request's upstream by signalling its process group: `exec` makes
    // the upstream the shell itself, so it is supergateway's own child, reaped by it — its CPU counted in the tree.
    `exec ${process.execPath} ${options.upstreamScript}`,
    "--outputTransport",
    "streamableHttp",
    "--port",
    "0",
    ...(options.stateful ? ["--stateful"] : []),
  ];
}

/**
 * @example
 * const proxy = await GatewayPeer.start({ kind: "mcp-proxy", upstreamScript: STDIO_ECHO });
 * proxy.url; proxy.tree.cpuMicros(); await proxy.close();
 */
export class GatewayPeer extends MeasuredChild implements Measured {
  private stderrTail = "";
  /** The gateway's process tree, for the CPU it costs in all. */
  readonly tree: Pick<Measured, "cpuMicros">;

  private constructor(
    child: ChildProcess,
    readonly url: URL,
    readonly kind: GatewayPeerKind,
  ) {
    super(child);
    this.tree = { cpuMicros: () => treeCpuMicros(this.pid) };
  }

  static async start(options: GatewayPeerOptions): Promise<GatewayPeer> {
    const execArgv = ["--import", LOOPBACK, ...(options.cpuProfDir ? ["--cpu-prof", `--cpu-prof-dir=${options.cpuProfDir}`] : [])];
    const child = spawn(process.execPath, [...execArgv, ...argsOf(options)], {
      env: { ...stdioEnv(), ...SERVER_ENV },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout!.setEncoding("utf8");
    child.stderr!.setEncoding("utf8");
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${options.kind} reported no port within ${STARTUP_MS} ms: ${output.slice(-1000)}`)), STARTUP_MS);
      const read = (chunk: string) => {
        output = (output + chunk).slice(-8192);
        const match = /MCP_BENCH_LISTENING 127\.0\.0\.1 (\d+)/.exec(output);
        if (match) {
          clearTimeout(timer);
          resolve(Number(match[1]));
        }
      };
      child.stdout!.on("data", read);
      child.stderr!.on("data", read);
      child.once("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`${options.kind} exited early (code ${code}): ${output.slice(-1500)}`));
      });
    });
    const peer = new GatewayPeer(child, new URL(`http://127.0.0.1:${port}/mcp`), options.kind);
    peer.stderrTail = output;
    child.stdout!.removeAllListeners("data");
    child.stderr!.removeAllListeners("data");
    // Both pipes stay drained: supergateway logs at info on stdout by default.
    const keep = (chunk: string) => (peer.stderrTail = (peer.stderrTail + chunk).slice(-4096));
    child.stdout!.on("data", keep);
    child.stderr!.on("data", keep);
    return peer;
  }

  /** What it printed lately (for failure reports). */
  output(): string {
    return this.stderrTail;
  }

  /** SIGTERM, SIGKILL by its pid after 10 s; then SIGKILL, by pid, any upstream it left running. */
  async close(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const left = descendantsOf(this.pid);
    this.child.kill("SIGTERM");
    const timer = setTimeout(() => this.child.kill("SIGKILL"), 10_000);
    await this.exited;
    clearTimeout(timer);
    for (const pid of left) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // it is gone already
      }
    }
  }
}
