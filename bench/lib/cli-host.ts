/**
 * mcp-host as users run it, in its own process: the built CLI (`node dist/cli/main.js serve --port 0`) on a
 * project folder and its config file, e.g. a config whose `servers:` mounts an upstream (scenario 5). Seen from the
 * suite like a peer process: its URL (read from what `serve` prints), CPU and RSS from /proc, its child processes
 * (a stdio upstream it started), the era each upstream connection negotiated (from its debug log line
 * "[server] connected (<era> era)", written once per connection), and a graceful close (SIGTERM; `serve` then
 * exits, which writes a --cpu-prof profile).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { Measured } from "./measure.js";
import { SERVER_ENV } from "./peer-process.js";
import { childrenOf, cpuMicros, rssBytes } from "./proc.js";
import { stdioEnv } from "./stdio-client.js";

const CLI = fileURLToPath(new URL("../../dist/cli/main.js", import.meta.url));
const STARTUP_MS = 60_000;

export interface CliHostOptions {
  /** The project folder (`--cwd`). */
  cwd: string;
  /** Its config file (`--config`); else the one `serve` finds in the folder, or the defaults. */
  config?: string;
  /** Write a V8 CPU profile of the process into this folder when it exits. */
  cpuProfDir?: string;
}

/**
 * @example
 * const host = await CliHost.start({ cwd: dir, config: join(dir, "mcp-host.config.json") });
 * const era = await host.eraOf("up"); … await host.close();
 */
export class CliHost implements Measured {
  private stderrText = "";
  private stderrCount = 0;
  private partialLine = "";
  private readonly eras = new Map<string, string>();
  private readonly exited: Promise<void>;

  private constructor(
    private readonly child: ChildProcess,
    readonly url: URL,
  ) {
    this.exited = new Promise((resolve) => child.once("exit", () => resolve()));
  }

  static async start(options: CliHostOptions): Promise<CliHost> {
    const execArgv = options.cpuProfDir ? ["--cpu-prof", `--cpu-prof-dir=${options.cpuProfDir}`] : [];
    // --log-level debug for the era line: mcp-host logs nothing at debug on a call's happy path (the scenario checks
    // that its stderr did not grow while measured).
    const args = [
      ...execArgv,
      CLI,
      "serve",
      "--port",
      "0",
      "--cwd",
      options.cwd,
      "--log-level",
      "debug",
      ...(options.config ? ["--config", options.config] : []),
    ];
    const child = spawn(process.execPath, args, { cwd: options.cwd, env: { ...stdioEnv(), ...SERVER_ENV }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stderr!.setEncoding("utf8");
    child.stdout!.setEncoding("utf8");
    const url = await new Promise<URL>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`mcp-host serve printed no URL within ${STARTUP_MS} ms: ${stderr.slice(-1000)}`)), STARTUP_MS);
      child.stdout!.on("data", (chunk: string) => {
        stdout += chunk;
        const match = /over MCP at (\S+)/.exec(stdout);
        if (match) {
          clearTimeout(timer);
          resolve(new URL(match[1]!));
        }
      });
      child.stderr!.on("data", (chunk: string) => (stderr += chunk));
      child.once("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`mcp-host serve exited early (code ${code}): ${stderr.slice(-1500)}`));
      });
    });
    const host = new CliHost(child, url);
    host.absorb(stderr);
    child.stderr!.removeAllListeners("data");
    child.stderr!.on("data", (chunk: string) => host.absorb(chunk));
    child.stdout!.removeAllListeners("data");
    child.stdout!.resume(); // it prints nothing more that matters; keep the pipe drained
    return host;
  }

  private absorb(chunk: string): void {
    this.stderrCount += chunk.length;
    this.stderrText = (this.stderrText + chunk).slice(-65_536);
    this.partialLine += chunk;
    const lines = this.partialLine.split("\n");
    this.partialLine = lines.pop()!;
    for (const line of lines) {
      // A readable line says `[up] connected (modern era)`; a JSON line (stderr is a pipe) says it in `component`/`msg`.
      const match = /\[([^\]\s]+)\] connected \((\w+) era\)/.exec(line) ?? /"component":"gateway\/([^"]+)".*"msg":"connected \((\w+) era\)"/.exec(line);
      if (match) this.eras.set(match[1]!, match[2]!);
    }
  }

  get pid(): number {
    return this.child.pid!;
  }

  cpuMicros(): number {
    return cpuMicros(this.pid);
  }

  rssBytes(): number {
    return rssBytes(this.pid);
  }

  /** The processes it started (a stdio upstream leads its own process group, but its parent is still the host). */
  children(): number[] {
    return childrenOf(this.pid);
  }

  /** The era the connection to upstream `server` negotiated ("modern" or "legacy"), once its log line is read. */
  async eraOf(server: string, timeoutMs = 5_000): Promise<string> {
    const until = Date.now() + timeoutMs;
    while (!this.eras.has(server)) {
      if (Date.now() >= until) throw new Error(`mcp-host logged no "[${server}] connected (… era)" line: ${this.stderrText.slice(-1000)}`);
      await new Promise<void>((resolve) => {
        const next = () => {
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          this.child.stderr!.off("data", next);
          resolve();
        }, until - Date.now());
        this.child.stderr!.once("data", next);
      });
    }
    return this.eras.get(server)!;
  }

  /** Everything it wrote on stderr (the last 64 KiB). */
  stderr(): string {
    return this.stderrText;
  }

  /** How many characters it has written on stderr so far. */
  get stderrLength(): number {
    return this.stderrCount;
  }

  /** SIGTERM (serve shuts down gracefully and exits 0), SIGKILL by its pid if it has not exited after 10 s. */
  async close(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.child.kill("SIGTERM");
    const timer = setTimeout(() => this.child.kill("SIGKILL"), 10_000);
    await this.exited;
    clearTimeout(timer);
  }
}
