/**
 * The stdio transport for upstream servers. The SDK's StdioClientTransport spawns children in the parent's process
 * group and signals only the child itself, which orphans a server started through a launcher. This transport
 * spawns each server as the leader of a new process group (no shell), feeds its stderr to the log line by line,
 * reads its stdout within the answer limits (answers/line-reader.ts, in place of the SDK's quadratic ReadBuffer),
 * and on close terminates the whole group. Until the group is gone, the process's exit SIGKILLs it: a host that exits
 * while a close is still in its grace period (a start-up that failed) leaves no server behind.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { deserializeMessage, serializeMessage, type JSONRPCMessage, type Transport } from "@modelcontextprotocol/client";
import { systemClock, type Clock } from "../../clock.js";
import type { Logger } from "../../logger.js";
import { type AnswerLimits, registryAnswer } from "../answers/answer-limits.js";
import { LineReader, type RefusedLine } from "../answers/line-reader.js";
import { CHILD_GONE } from "../failure.js";
import { ForwardedRequests } from "../forward/forwarded-requests.js";
import { waitAtMost } from "../limits.js";
import { childEnv } from "./child-env.js";
import { guardOnExit } from "./exit-guard.js";
import { lineSplitter } from "./line-splitter.js";
import { KILL_GRACE_MS, groupAlive, signalGroup, terminateGroup } from "./process-group.js";

/** How to start one stdio server. */
export interface StdioProcessOptions {
  command: string;
  args?: readonly string[];
  /** Added to the minimal inherited environment. */
  env?: Readonly<Record<string, string>>;
  cwd?: string;
  /** The server's logger: the child's stderr goes to its `[stderr]` child, one line per record, at debug. */
  logger: Logger;
  /** Applied to every stderr line before it is logged (a child may print its own credentials). */
  redact?: (line: string) => string;
  /** Between SIGTERM and SIGKILL on close (default 3000 ms). */
  killGraceMs?: number;
  /** What the kill grace and the transport's other waits run on (default: the system clock). */
  clock?: Clock;
  /** How long a line of stdout may be, and how deep its JSON may nest. */
  limits: AnswerLimits;
}

/** How the child ended. */
export interface ChildExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Its last stderr lines (redacted, each cut at 200 characters): the reason a server gave, e.g. npx's 404. */
  stderrTail?: readonly string[];
  /**
   * Its first stderr line that names a problem (redacted, cut at 200 characters): `Error: Cannot find module …`
   * comes before Node's stack, whose tail is all the last lines would show.
   */
  stderrProblem?: string;
}

/** How many of a child's last stderr lines are kept for the report when it exits during start-up. */
const STDERR_TAIL_LINES = 5;
/** A line naming a problem: an error class (`TypeError:`, `ModuleNotFoundError:`), or a word that says something failed. */
const PROBLEM_CLASS = /\w*(Error|Exception)\b/;
const PROBLEM_WORD = /\b(error|fatal|panic|cannot|could not|can't|not found|no such|denied|refused|missing|failed)\b/i;
/** A stack frame (`    at fn (file:1:2)`, Python's `  File "x.py", line 1`): never the line that says what went wrong. */
const STACK_FRAME = /^\s+(at\s|File\s")/;

/**
 * True for a stderr line that says what went wrong rather than where.
 * @example
 * namesAProblem("Error: Cannot find module '/srv/server.js'") // true
 * namesAProblem("    at Module._resolveFilename (node:internal/modules/cjs/loader:1207:15)") // false
 */
export function namesAProblem(line: string): boolean {
  return !STACK_FRAME.test(line) && (PROBLEM_CLASS.test(line) || PROBLEM_WORD.test(line));
}

function cut(line: string): string {
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

const WRITE_SETTLE_MS = 500;

/**
 * A Transport over a child process's stdin/stdout, the child leading its own process group.
 * @example
 * const transport = new StdioProcessTransport({ command: "uvx", args: ["mcp-server-git"], logger: serverLog });
 * await client.connect(transport); … await transport.close(); // SIGTERM the group, SIGKILL after 3 s
 */
export class StdioProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private child?: ChildProcess;
  private readonly lines: LineReader;
  private closed = false;
  private exitInfo?: ChildExit;
  private closing?: Promise<void>;
  private readonly writing = new Set<Promise<unknown>>();
  /** True while writes are held for this turn of the event loop (see send). */
  private corked = false;
  private readonly stderrTail: string[] = [];
  private stderrProblem?: string;
  /** Requests forwarded on this pipe beside the SDK client's (forward/): their answers are taken off the reader first. */
  readonly forwarded = new ForwardedRequests();

  private readonly clock: Clock;
  private releaseExitGuard?: () => void;

  constructor(private readonly options: StdioProcessOptions) {
    this.clock = options.clock ?? systemClock;
    this.lines = new LineReader({ limits: options.limits, line: (text) => this.onLine(text), refused: (refusal) => this.onRefused(refusal) });
  }

  /** The child's pid (and process group id) once started. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** How the child ended, once it has. */
  get exit(): ChildExit | undefined {
    return this.exitInfo && { ...this.exitInfo, ...this.said() };
  }

  /** What the child said on stderr, for a report of its exit. */
  private said(): Pick<ChildExit, "stderrTail" | "stderrProblem"> {
    return { stderrTail: [...this.stderrTail], ...(this.stderrProblem === undefined ? {} : { stderrProblem: this.stderrProblem }) };
  }

  /**
   * How the child ended, waiting up to `timeoutMs` for its exit to be reported. A write to a child that is dying
   * fails (broken pipe) before its exit event arrives; waiting lets the caller report the exit, which says more.
   */
  async exitWithin(timeoutMs: number): Promise<ChildExit | undefined> {
    const child = this.child;
    if (this.exitInfo || !child || child.exitCode !== null || child.signalCode !== null)
      return this.exit ?? (child ? { code: child.exitCode, signal: child.signalCode, ...this.said() } : undefined);
    const exited = new Promise<ChildExit>((resolve) => child.once("close", (code, signal) => resolve({ code, signal, ...this.said() })));
    return waitAtMost(this.clock, exited, timeoutMs);
  }

  start(): Promise<void> {
    if (this.child) throw new Error("StdioProcessTransport already started");
    const { command, args = [], env, cwd, logger } = this.options;
    return new Promise((resolve, reject) => {
      const child = spawn(command, [...args], {
        env: childEnv(env),
        cwd,
        stdio: ["pipe", "pipe", "pipe"],
        detached: true,
        shell: false,
        windowsHide: true,
      });
      this.child = child;
      this.releaseExitGuard = guardOnExit(() => this.killNow());
      const redact = this.options.redact ?? ((line: string) => line);
      const stderrLog = logger.child("stderr");
      const stderr = lineSplitter((line) => {
        const shown = redact(line);
        // A server's stderr is its own log, not the host's: at debug (a reference server's every start says "Failed to
        // request roots from client", which is harmless). When it matters — the server does not start — the report
        // quotes it at any level (stderrProblem, stderrTail).
        stderrLog.debug(shown);
        if (shown.trim() === "") return;
        if (this.stderrProblem === undefined && namesAProblem(shown)) this.stderrProblem = cut(shown);
        this.stderrTail.push(cut(shown));
        if (this.stderrTail.length > STDERR_TAIL_LINES) this.stderrTail.shift();
      });
      child.stderr?.on("data", stderr.push);
      child.stderr?.on("end", stderr.flush);
      child.stdout?.on("data", (chunk: Buffer) => this.lines.push(chunk));
      child.stdin?.on("error", (error) => this.onerror?.(error));
      child.once("error", (error) => {
        if (child.pid === undefined) {
          this.releaseExitGuard?.(); // nothing was started
          reject(error);
        } else this.onerror?.(error);
        this.markClosed();
      });
      child.once("spawn", () => resolve());
      child.once("exit", (code, signal) => {
        this.exitInfo = { code, signal };
      });
      // "close" (every pipe shut) rather than "exit": a launcher may exit while the server it started keeps
      // serving on the inherited pipes, and a final response may still be in flight when the child exits.
      child.once("close", () => this.markClosed());
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (this.closed || !stdin || stdin.destroyed || !stdin.writable) {
      return Promise.reject(Object.assign(new Error("the server process is not running"), { code: CHILD_GONE }));
    }
    // Messages sent in one turn of the event loop go to the pipe in one write: at concurrency, one system call and
    // one wake-up of the server for many requests, not one each (the pipe write was ~17% of a busy gateway's CPU).
    if (!this.corked) {
      this.corked = true;
      stdin.cork();
      setImmediate(() => {
        this.corked = false;
        stdin.uncork();
      });
    }
    const written = new Promise<void>((resolve, reject) => {
      stdin.write(serializeMessage(message), (error) => (error ? reject(error) : resolve()));
    });
    const settled = written.catch(() => undefined).finally(() => this.writing.delete(settled));
    this.writing.add(settled);
    return written;
  }

  close(): Promise<void> {
    this.closing ??= this.terminate();
    return this.closing;
  }

  private async terminate(): Promise<void> {
    const child = this.child;
    const pid = child?.pid;
    try {
      child?.stdin?.end();
    } catch {
      // the pipe may already be broken; the signals below still apply
    }
    if (pid !== undefined && groupAlive(pid)) {
      const gone = await terminateGroup(pid, { graceMs: this.options.killGraceMs ?? KILL_GRACE_MS, clock: this.clock });
      if (!gone) this.options.logger.warn("process group did not exit after SIGKILL", { pid });
    }
    this.releaseExitGuard?.();
    this.markClosed();
  }

  /** Synchronous last resort for process exit: SIGKILL the group without waiting. */
  killNow(): void {
    const pid = this.child?.pid;
    if (pid !== undefined && groupAlive(pid)) signalGroup(pid, "SIGKILL");
  }

  private onLine(text: string): void {
    let message: JSONRPCMessage;
    try {
      message = deserializeMessage(text);
    } catch (error) {
      if (!(error instanceof SyntaxError)) this.onerror?.(asError(error)); // not JSON at all: skipped, as the SDK's reader does
      return;
    }
    if (this.forwarded.take(message)) return;
    this.onmessage?.(message);
  }

  /** A line too large or too deep: the request it answered fails with the refusal; anything else is dropped. */
  private onRefused({ error, id, answers }: RefusedLine): void {
    if (!answers || id === undefined) {
      this.options.logger.warn(`the server wrote a line that was not read: ${error.message}`, { code: error.code });
      return;
    }
    if (this.forwarded.refuse(id, error)) return;
    // An SDK client's request settles only with an answer: the refusal is written in the server's place.
    this.onmessage?.(registryAnswer(id, error));
  }

  private markClosed(): void {
    if (this.closed) return;
    this.closed = true;
    this.lines.clear();
    const closed = () => {
      this.forwarded.failAll(); // what was written may have run
      this.onclose?.();
    };
    if (this.writing.size === 0) {
      closed();
      return;
    }
    // Let writes in flight settle first: a request written to a child that was already gone fails with EPIPE (it
    // never reached the server, so it may be retried) and must not be reported as lost in flight by the close.
    void waitAtMost(this.clock, Promise.allSettled([...this.writing]), WRITE_SETTLE_MS).then(closed);
  }
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
