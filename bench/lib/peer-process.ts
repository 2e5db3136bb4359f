/**
 * A peer server in its own process, seen from the suite: started with `fork` (tsx, --expose-gc, telemetry off
 * for every third-party framework), asked for its CPU and RSS through /proc and for its heap over IPC, closed
 * gracefully (killed by its pid if it will not go). Its stderr is kept (the last few KiB) to explain a failure.
 */
import { fork, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { PeerConfig } from "../servers/peer.js";
import type { FromServer, ToServer } from "../servers/serve.js";
import { MeasuredChild } from "./proc.js";

const SERVE = fileURLToPath(new URL("../servers/serve.ts", import.meta.url));

/** Every server process gets these: no framework may phone home, and none is in a dev or test mode. */
export const SERVER_ENV: Readonly<Record<string, string>> = {
  MCP_USE_ANONYMIZED_TELEMETRY: "false",
  // mcp-use reads these too; make sure no inherited value turns on debug dumps or a validation run.
  MCP_USE_LOG_LEVEL: "info",
};

export interface Memory {
  heapUsed: number;
  rss: number;
  external: number;
  arrayBuffers: number;
}

export interface StartOptions {
  /** Write a V8 CPU profile of this process into this folder when it exits. */
  cpuProfDir?: string;
}

export class PeerProcess extends MeasuredChild {
  private seq = 0;
  private readonly waiting = new Map<number, { resolve(memory: Memory): void; reject(error: Error): void }>();
  private stderrTail = "";

  private constructor(
    readonly config: PeerConfig,
    child: ChildProcess,
    readonly url: URL,
  ) {
    super(child);
    child.on("message", (message: FromServer) => {
      if (message.type !== "memory") return;
      const { seq, type: _type, ...memory } = message;
      this.waiting.get(seq)?.resolve(memory);
      this.waiting.delete(seq);
    });
    void this.exited.then(() => {
      for (const wait of this.waiting.values()) wait.reject(new Error(`the ${config.peer} server process exited`));
    });
    child.stderr?.setEncoding("utf8");
    child.stderr?.on("data", (chunk: string) => (this.stderrTail = (this.stderrTail + chunk).slice(-4096)));
  }

  static async start(config: PeerConfig, options: StartOptions = {}): Promise<PeerProcess> {
    const execArgv = ["--import", "tsx", "--expose-gc"];
    if (options.cpuProfDir) execArgv.push("--cpu-prof", `--cpu-prof-dir=${options.cpuProfDir}`);
    const child = fork(SERVE, [JSON.stringify(config)], {
      execArgv,
      env: { ...process.env, ...SERVER_ENV },
      stdio: ["ignore", "ignore", "pipe", "ipc"],
    });
    let stderr = "";
    child.stderr!.setEncoding("utf8");
    const collect = (chunk: string) => (stderr = (stderr + chunk).slice(-4096));
    child.stderr!.on("data", collect);
    const url = await new Promise<string>((resolve, reject) => {
      child.once("message", (message: FromServer) => {
        if (message.type === "ready") resolve(message.url);
        else reject(new Error(`the ${config.peer} server failed to start: ${message.type === "failed" ? message.message : message.type}`));
      });
      child.once("exit", (code) => reject(new Error(`the ${config.peer} server process exited early (code ${code}): ${stderr.slice(-1000)}`)));
    });
    child.stderr!.off("data", collect);
    const peer = new PeerProcess(config, child, new URL(url));
    peer.stderrTail = stderr;
    return peer;
  }

  /** The server's memory after a full GC (its own process.memoryUsage()). */
  memory(): Promise<Memory> {
    this.seq += 1;
    const seq = this.seq;
    return new Promise((resolve, reject) => {
      this.waiting.set(seq, { resolve, reject });
      this.child.send({ type: "memory", seq } satisfies ToServer);
    });
  }

  /** What the server wrote on stderr lately (for failure reports). */
  stderr(): string {
    return this.stderrTail;
  }

  /** Asks the server to close and exit; kills it (by its pid) if it has not after 10 s. */
  async close(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    if (this.child.connected) this.child.send({ type: "close" } satisfies ToServer);
    const timer = setTimeout(() => this.child.kill("SIGKILL"), 10_000);
    await this.exited;
    clearTimeout(timer);
  }
}
