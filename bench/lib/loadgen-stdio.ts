/**
 * A stdio MCP server driven by the load generator (scenario 5's "direct" stdio leg): spawned once, opened with the
 * 2025 handshake (`initialize`, `notifications/initialized` — what mcp-host's gateway negotiates over stdio), then
 * any number of requests in flight on its one pipe, each answer matched to its request by id, as the gateway's
 * registry multiplexes calls on its own stdio connection. The child gets the same minimal environment the
 * registry gives an upstream it starts.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { initializeBody, INITIALIZED_BODY } from "./protocol.js";

/** What the registry passes on to a stdio child (src/registry/connect/child-env.ts), so both legs run alike. */
const INHERITED = ["HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER"];

export interface StdioSpec {
  command: string;
  args: readonly string[];
}

type Message = Record<string, any>;

/**
 * @example
 * const server = await StdioConnection.open({ command: process.execPath, args: ["server.mjs"] }, 1_000_000_000);
 * const answer = await server.request(1_000_000_001, callBody("session", 1_000_000_001, "hi"));
 */
export class StdioConnection {
  private readonly waiting = new Map<number, { resolve(message: Message): void; reject(error: Error): void }>();
  private buffer = "";
  private stderrTail = "";
  private gone?: Error;
  private readonly exited: Promise<void>;

  private constructor(private readonly child: ChildProcess) {
    this.exited = new Promise((resolve) => child.once("exit", () => resolve()));
    child.stderr!.setEncoding("utf8");
    child.stderr!.on("data", (chunk: string) => (this.stderrTail = (this.stderrTail + chunk).slice(-2000)));
    child.stdout!.setEncoding("utf8");
    child.stdout!.on("data", (chunk: string) => this.read(chunk));
    child.once("exit", (code, signal) => {
      this.gone = new Error(`the stdio server exited (${signal ?? `code ${code}`}); stderr: ${this.stderrTail.slice(-500)}`);
      for (const wait of this.waiting.values()) wait.reject(this.gone);
      this.waiting.clear();
    });
    child.stdin!.on("error", () => {}); // a write after the child died: its exit rejects the waiters
  }

  /** Spawns the server and opens it with the 2025 handshake (request id `id`). */
  static async open(spec: StdioSpec, id: number): Promise<StdioConnection> {
    const env: Record<string, string> = {};
    for (const name of INHERITED) if (process.env[name] !== undefined) env[name] = process.env[name]!;
    const child = spawn(spec.command, [...spec.args], { stdio: ["pipe", "pipe", "pipe"], env });
    const connection = new StdioConnection(child);
    const opened = await connection.request(id, initializeBody(id));
    if (!opened.result || typeof opened.result.protocolVersion !== "string") {
      await connection.close();
      throw new Error(`initialize over stdio failed: ${JSON.stringify(opened).slice(0, 300)}`);
    }
    child.stdin!.write(`${INITIALIZED_BODY}\n`);
    return connection;
  }

  get pid(): number {
    return this.child.pid!;
  }

  /** Sends one JSON-RPC request (its JSON text, carrying `id`) and resolves with the message answering it. */
  request(id: number, body: string): Promise<Message> {
    if (this.gone) return Promise.reject(this.gone);
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.child.stdin!.write(`${body}\n`);
    });
  }

  private read(chunk: string): void {
    this.buffer += chunk;
    for (let newline = this.buffer.indexOf("\n"); newline >= 0; newline = this.buffer.indexOf("\n")) {
      const line = this.buffer.slice(0, newline).trim();
      this.buffer = this.buffer.slice(newline + 1);
      if (!line) continue;
      let message: Message;
      try {
        message = JSON.parse(line) as Message;
      } catch {
        continue; // not protocol; the answer waited for will not come, and the check reports it
      }
      if (typeof message.id !== "number" || message.method !== undefined) continue; // a notification or a server request
      const wait = this.waiting.get(message.id);
      if (!wait) continue;
      this.waiting.delete(message.id);
      wait.resolve(message);
    }
  }

  /** Closes stdin (a stdio server exits then) and waits for the exit; SIGKILL (by its pid) after 5 s. */
  async close(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.child.stdin!.end();
    const timer = setTimeout(() => this.child.kill("SIGKILL"), 5_000);
    await this.exited;
    clearTimeout(timer);
  }
}
