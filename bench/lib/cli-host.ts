/**
 * mcp-host as users run it, in its own process: the built CLI (`node dist/cli/main.js serve --port 0`) on a
 * project folder and its config file — a project whose extension serves the bench tools (scenarios 1–3), or a
 * config whose `servers:` mounts an upstream (scenario 5). Seen from the suite like a peer process: its URL (read
 * from what `serve` prints), CPU (all its threads) and RSS from /proc, its child processes (a stdio upstream it
 * started), and a graceful close (SIGTERM; `serve` then exits, which writes a --cpu-prof profile). Its stderr — the
 * JSON log lines `serve` writes when stderr is not a terminal — goes to a pipe the suite drains, counting lines (and
 * the host's own "log lines were dropped" warnings); the last 64 KiB are kept to explain a failure. With
 * `probe`, bench/servers/cli-probe.mjs is preloaded and answers `memory()` over IPC; with `logLevel: "debug"`, the
 * era each upstream connection negotiated is read from its line "[server] connected (<era> era)".
 */
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Measured } from "./measure.js";
import type { Memory } from "./peer-process.js";
import { SERVER_ENV } from "./peer-process.js";
import { childrenOf, MeasuredChild, treeCpuMicros } from "./proc.js";
import { stdioEnv } from "./stdio-client.js";

const CLI = fileURLToPath(new URL("../../dist/cli/main.js", import.meta.url));
const PROBE = pathToFileURL(fileURLToPath(new URL("../servers/cli-probe.mjs", import.meta.url))).href;
const STARTUP_MS = 60_000;
const TAIL_BYTES = 65_536;
const NEWLINE = 0x0a;
const DROPPED = Buffer.from("log lines were dropped");

export interface CliHostOptions {
  /** The project folder (`--cwd`). */
  cwd: string;
  /** Its config file (`--config`); else the one `serve` finds in the folder, or the defaults. */
  config?: string;
  /** Write a V8 CPU profile of the process into this folder when it exits. */
  cpuProfDir?: string;
  /** `--log-level`; unset, serve's own (info). "debug" also reads the upstream connections' era lines. */
  logLevel?: "debug" | "info" | "warn" | "error";
  /** Preload bench/servers/cli-probe.mjs over an IPC channel (with --expose-gc): `memory()`, and no orphan. */
  probe?: boolean;
  /** Another built CLI to run (another checkout's `dist/cli/main.js`, to compare builds in one run); default: this one's. */
  cli?: string;
}

/**
 * @example
 * const host = await CliHost.start({ cwd: dir, config: join(dir, "mcp-host.config.json") });
 * const era = await host.eraOf("up"); … await host.close();
 */
export class CliHost extends MeasuredChild implements Measured {
  private tail: Buffer[] = [];
  private tailBytes = 0;
  private bytes = 0;
  private lines = 0;
  private drops = 0;
  private partialLine = "";
  private seq = 0;
  private readonly waiting = new Map<number, { resolve(memory: Memory): void; reject(error: Error): void }>();
  private readonly eras = new Map<string, string>();
  /** After the exit, once its stdout and stderr are closed too: every line it wrote has been read. */
  private readonly closed: Promise<void>;
  /** The process and everything it started (a stdio upstream), reaped children included. */
  readonly tree: Pick<Measured, "cpuMicros"> = { cpuMicros: () => treeCpuMicros(this.pid) };

  private constructor(
    child: ChildProcess,
    readonly url: URL,
    private readonly readEras: boolean,
  ) {
    super(child);
    this.closed = new Promise((resolve) => child.once("close", () => resolve()));
    void this.exited.then(() => {
      for (const wait of this.waiting.values()) wait.reject(new Error("the mcp-host process exited"));
    });
    child.on("message", (message: { type?: string; seq?: number } & Memory) => {
      if (message.type !== "memory" || message.seq === undefined) return;
      const { heapUsed, rss, external, arrayBuffers } = message;
      this.waiting.get(message.seq)?.resolve({ heapUsed, rss, external, arrayBuffers });
      this.waiting.delete(message.seq);
    });
  }

  static async start(options: CliHostOptions): Promise<CliHost> {
    const execArgv = [
      ...(options.probe ? ["--expose-gc", "--import", PROBE] : []),
      ...(options.cpuProfDir ? ["--cpu-prof", `--cpu-prof-dir=${options.cpuProfDir}`] : []),
    ];
    const args = [
      ...execArgv,
      options.cli ?? CLI,
      "serve",
      "--port",
      "0",
      "--cwd",
      options.cwd,
      ...(options.logLevel ? ["--log-level", options.logLevel] : []),
      ...(options.config ? ["--config", options.config] : []),
    ];
    const child = spawn(process.execPath, args, {
      cwd: options.cwd,
      env: { ...stdioEnv(), ...SERVER_ENV },
      stdio: options.probe ? ["ignore", "pipe", "pipe", "ipc"] : ["ignore", "pipe", "pipe"],
    });
    // One listener from the first byte: what comes before the URL is kept and counted like the rest.
    const early: Buffer[] = [];
    let sink: (chunk: Buffer) => void = (chunk) => void early.push(chunk);
    child.stderr!.on("data", (chunk: Buffer) => sink(chunk));
    let stdout = "";
    child.stdout!.setEncoding("utf8");
    const url = await new Promise<URL>((resolve, reject) => {
      const said = () => Buffer.concat(early).toString("utf8").slice(-1500);
      const timer = setTimeout(() => reject(new Error(`mcp-host serve printed no URL within ${STARTUP_MS} ms: ${said()}`)), STARTUP_MS);
      child.stdout!.on("data", (chunk: string) => {
        stdout += chunk;
        const match = /over MCP at (\S+)/.exec(stdout);
        if (match) {
          clearTimeout(timer);
          resolve(new URL(match[1]!));
        }
      });
      child.once("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`mcp-host serve exited early (code ${code}): ${said()}`));
      });
    });
    const host = new CliHost(child, url, options.logLevel === "debug");
    for (const chunk of early) host.absorb(chunk);
    sink = (chunk) => host.absorb(chunk);
    child.stdout!.removeAllListeners("data");
    child.stdout!.resume(); // it prints nothing more that matters; keep the pipe drained
    return host;
  }

  /** Counts and keeps what the host writes on stderr: a Buffer each time, never decoded unless eras are read. */
  private absorb(chunk: Buffer): void {
    this.bytes += chunk.length;
    for (let at = chunk.indexOf(NEWLINE); at !== -1; at = chunk.indexOf(NEWLINE, at + 1)) this.lines += 1;
    if (chunk.includes(DROPPED)) this.drops += 1;
    this.tail.push(chunk);
    this.tailBytes += chunk.length;
    while (this.tailBytes - this.tail[0]!.length >= TAIL_BYTES) this.tailBytes -= this.tail.shift()!.length;
    if (this.readEras) this.readEraLines(chunk.toString("utf8"));
  }

  private readEraLines(text: string): void {
    this.partialLine += text;
    const lines = this.partialLine.split("\n");
    this.partialLine = lines.pop()!;
    for (const line of lines) {
      // A readable line says `[up] connected (modern era)`; a JSON line (stderr is a pipe) says it in `component`/`msg`.
      const match = /\[([^\]\s]+)\] connected \((\w+) era\)/.exec(line) ?? /"component":"gateway\/([^"]+)".*"msg":"connected \((\w+) era\)"/.exec(line);
      if (match) this.eras.set(match[1]!, match[2]!);
    }
  }

  /** Lines written on stderr so far (the access and audit lines, at the default logging). */
  logLines(): number {
    return this.lines;
  }

  /** How many times the host said it dropped log lines (its log stream was full: the pipe was not drained fast enough). */
  get dropWarnings(): number {
    return this.drops;
  }

  /** The processes it started (a stdio upstream leads its own process group, but its parent is still the host). */
  children(): number[] {
    return childrenOf(this.pid);
  }

  /** Its memory after a full GC, from the preloaded probe (started with `probe: true`). */
  memory(): Promise<Memory> {
    if (!this.child.connected) return Promise.reject(new Error("this mcp-host process has no probe (start it with probe: true)"));
    this.seq += 1;
    const seq = this.seq;
    return new Promise((resolve, reject) => {
      this.waiting.set(seq, { resolve, reject });
      this.child.send({ type: "memory", seq });
    });
  }

  /** The era the connection to upstream `server` negotiated ("modern" or "legacy"), once its log line is read. */
  async eraOf(server: string, timeoutMs = 5_000): Promise<string> {
    if (!this.readEras) throw new Error('eras are read from debug lines: start the host with logLevel: "debug"');
    await this.until(() => this.eras.has(server), timeoutMs, `mcp-host logged no "[${server}] connected (… era)" line`);
    return this.eras.get(server)!;
  }

  /** Resolves once it has written at least `count` lines on stderr (rejects after `timeoutMs`, quoting its stderr). */
  async waitForLogLines(count: number, timeoutMs = 5_000): Promise<void> {
    await this.until(() => this.lines >= count, timeoutMs, `mcp-host wrote ${this.lines} lines on stderr, not ${count}`);
  }

  /** Waits for stderr data until `done()` holds; `timeoutMs` bounds a failure, it is not the synchronisation. */
  private async until(done: () => boolean, timeoutMs: number, failure: string): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!done()) {
      if (Date.now() >= deadline) throw new Error(`${failure}: ${this.stderr().slice(-1000)}`);
      await new Promise<void>((resolve) => {
        const next = () => {
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          this.child.stderr!.off("data", next);
          resolve();
        }, deadline - Date.now());
        this.child.stderr!.once("data", next);
      });
    }
  }

  /** What it wrote on stderr lately (the last 64 KiB or so). */
  stderr(): string {
    return Buffer.concat(this.tail).toString("utf8");
  }

  /** How many bytes it has written on stderr so far. */
  get stderrLength(): number {
    return this.bytes;
  }

  /**
   * SIGTERM (serve shuts down gracefully and exits 0), SIGKILL by its pid if it has not exited after 10 s; then up
   * to 2 s for its pipes to close, so every line it wrote is counted (a child of its own may hold them open longer).
   */
  async close(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      this.child.kill("SIGTERM");
      const timer = setTimeout(() => this.child.kill("SIGKILL"), 10_000);
      await this.exited;
      clearTimeout(timer);
    }
    let bound: NodeJS.Timeout | undefined;
    await Promise.race([this.closed, new Promise<void>((resolve) => (bound = setTimeout(resolve, 2_000)))]);
    clearTimeout(bound);
  }
}
