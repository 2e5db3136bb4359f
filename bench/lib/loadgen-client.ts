/**
 * The suite's handle on its load-generator process (loadgen.ts): fork it, send a command, wait for its reply.
 */
import { fork, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { Command, OpenTarget, Op, Reply, Sample } from "./loadgen-protocol.js";

const LOADGEN = fileURLToPath(new URL("./loadgen.ts", import.meta.url));

export class LoadGenerator {
  private seq = 0;
  private readonly waiting = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  private readonly exited: Promise<void>;

  private constructor(private readonly child: ChildProcess) {
    child.on("message", (reply: Reply) => {
      const wait = this.waiting.get(reply.seq);
      if (!wait) return;
      this.waiting.delete(reply.seq);
      if (reply.ok) wait.resolve(reply.value);
      else wait.reject(new Error(reply.error));
    });
    this.exited = new Promise((resolve) => child.once("exit", () => resolve()));
    void this.exited.then(() => {
      for (const wait of this.waiting.values()) wait.reject(new Error("the load generator exited"));
    });
  }

  static async start(): Promise<LoadGenerator> {
    const child = fork(LOADGEN, [], { execArgv: ["--import", "tsx"], stdio: ["ignore", "inherit", "inherit", "ipc"] });
    await new Promise<void>((resolve, reject) => {
      child.once("message", () => resolve());
      child.once("exit", (code) => reject(new Error(`the load generator exited early (code ${code})`)));
    });
    return new LoadGenerator(child);
  }

  get pid(): number {
    return this.child.pid!;
  }

  private request<T>(command: Command): Promise<T> {
    this.seq += 1;
    const seq = this.seq;
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(seq, { resolve: resolve as (value: unknown) => void, reject });
      this.child.send({ ...command, seq });
    });
  }

  open(target: OpenTarget): Promise<{ sessions: number }> {
    return this.request({ cmd: "open", target });
  }

  drive(key: string, op: Op, ms: number, collect: boolean): Promise<Sample> {
    return this.request({ cmd: "drive", key, op, ms, collect });
  }

  openIdle(key: string, count: number): Promise<{ idle: number }> {
    return this.request({ cmd: "open-idle", key, count });
  }

  deleteIdle(key: string): Promise<{ deleted: number }> {
    return this.request({ cmd: "delete-idle", key });
  }

  probeIdle(key: string, index: number): Promise<{ status: number }> {
    return this.request({ cmd: "probe-idle", key, index });
  }

  forgetIdle(key: string): Promise<{ forgotten: number }> {
    return this.request({ cmd: "forget-idle", key });
  }

  closeTarget(key: string): Promise<unknown> {
    return this.request({ cmd: "close", key });
  }

  /** Starts a stdio server inside the load generator and opens it (2025 handshake); a target can then drive it. */
  startStdio(key: string, command: string, args: readonly string[]): Promise<{ pid: number }> {
    return this.request({ cmd: "start-stdio", key, command, args: [...args] });
  }

  stopStdio(key: string): Promise<unknown> {
    return this.request({ cmd: "stop-stdio", key });
  }

  async close(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.child.disconnect();
    const timer = setTimeout(() => this.child.kill("SIGKILL"), 10_000);
    await this.exited;
    clearTimeout(timer);
  }
}
