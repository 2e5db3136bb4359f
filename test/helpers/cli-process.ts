/**
 * Runs the built `mcp-host` command (dist/cli/main.js, so `npm run build` first) as a real child process, the way
 * a user or a desktop client would: one-shot runs collected to the end, and long-running ones (serve, stdio)
 * read line by line, waited on by event (a line, an exit), and always ended by the test's cleanup — each in a process
 * group of its own, ended with every process it started (its upstreams too: child-group.ts).
 */
import assert from "node:assert/strict";
import type { ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { endTree, spawnInGroup } from "./child-group.js";
import type { Cleanup } from "./http-host.js";

export const REPO = fileURLToPath(new URL("../..", import.meta.url));
export const CLI_MAIN = join(REPO, "dist", "cli", "main.js");
/** The fixture project the CLI tests serve: extensions echo and clock, and broken (setup fails). */
export const CLI_PROJECT = join(REPO, "test", "fixtures", "cli-project");

/** Fails with a clear message when the command has not been built. */
export function assertBuilt(): void {
  assert.ok(existsSync(CLI_MAIN), `${CLI_MAIN} is missing: run "npm run build" before the CLI and stdio tests`);
}

export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs a node script to completion, collecting its output; the cleanup kills it should the test end first. */
export function runNodeScript(
  cleanup: Cleanup,
  script: string,
  args: readonly string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawnInGroup(process.execPath, [script, ...args], {
      cwd: options.cwd ?? REPO,
      env: options.env ?? cleanEnv(),
      stdio: ["ignore", "pipe", "pipe"],
    });
    cleanup.add(() => endTree(child));
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** Runs `mcp-host ...args` to completion; the cleanup kills it should the test end first. */
export function runCli(cleanup: Cleanup, args: readonly string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<CliRun> {
  return runNodeScript(cleanup, CLI_MAIN, args, options);
}

/** The environment for a child: this one without a names limit that would change what loads, nor the test runner's own context. */
export function cleanEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.MCP_HOST_EXTENSIONS;
  // A child that runs `node --test` itself must not think it is part of this test run.
  delete env.NODE_TEST_CONTEXT;
  return env;
}

/** True while a process with this pid exists. */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** A running `mcp-host` child whose output is read as it comes. */
export class CliProcess {
  readonly child: ChildProcess;
  readonly stdoutLines: string[] = [];
  stderr = "";
  /** Resolves when the child has exited (and its pipes closed). */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private readonly lineWaiters: Array<{ pattern: RegExp; resolve: (line: string) => void }> = [];
  private readonly stderrWaiters: Array<{ pattern: RegExp; resolve: () => void }> = [];

  /** `cli`: another build of the command to run (e.g. one installed from the packed tarball). */
  constructor(args: readonly string[], options: { cwd?: string; stdin?: "pipe" | "ignore"; cli?: string; env?: NodeJS.ProcessEnv } = {}) {
    this.child = spawnInGroup(process.execPath, [options.cli ?? CLI_MAIN, ...args], {
      cwd: options.cwd ?? REPO,
      env: { ...cleanEnv(), ...options.env },
      stdio: [options.stdin ?? "ignore", "pipe", "pipe"],
    });
    this.exited = new Promise((resolve) => this.child.once("close", (code, signal) => resolve({ code, signal })));
    let pending = "";
    this.child.stdout!.setEncoding("utf8").on("data", (data: string) => {
      pending += data;
      let at: number;
      while ((at = pending.indexOf("\n")) >= 0) {
        const line = pending.slice(0, at);
        pending = pending.slice(at + 1);
        this.stdoutLines.push(line);
        for (const w of this.lineWaiters.filter((w) => w.pattern.test(line))) {
          this.lineWaiters.splice(this.lineWaiters.indexOf(w), 1);
          w.resolve(line);
        }
      }
    });
    this.child.stderr!.setEncoding("utf8").on("data", (data: string) => {
      this.stderr += data;
      for (const w of this.stderrWaiters.filter((w) => w.pattern.test(this.stderr))) {
        this.stderrWaiters.splice(this.stderrWaiters.indexOf(w), 1);
        w.resolve();
      }
    });
  }

  get pid(): number {
    return this.child.pid!;
  }

  /** Resolves with the first stdout line (already seen or still to come) matching `pattern`; fails if the child exits first. */
  line(pattern: RegExp): Promise<string> {
    const seen = this.stdoutLines.find((l) => pattern.test(l));
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise<string>((resolve, reject) => {
      let found = false;
      this.lineWaiters.push({
        pattern,
        resolve: (line) => {
          found = true;
          resolve(line);
        },
      });
      // Only a waiter still waiting builds the message: a long session leaves thousands of answered waiters, and
      // each joining every stdout line at exit would take the test process out of memory.
      void this.exited.then(({ code, signal }) => {
        if (!found) reject(new Error(`mcp-host exited (code ${code}, signal ${signal}) before printing ${pattern}; ${this.outputTail()}`));
      });
    });
  }

  /** The last stdout lines and stderr, each cut short: enough to see why, never megabytes. */
  private outputTail(): string {
    const cut = (text: string) => (text.length > 2_000 ? `${text.slice(0, 2_000)}… (${text.length} characters)` : text);
    return `stdout (last 20 lines):\n${this.stdoutLines.slice(-20).map(cut).join("\n")}\nstderr:\n${this.stderr.slice(-8_000)}`;
  }

  /** Resolves once stderr (so far and to come) matches `pattern`. */
  stderrMatches(pattern: RegExp): Promise<void> {
    if (pattern.test(this.stderr)) return Promise.resolve();
    return new Promise((resolve) => this.stderrWaiters.push({ pattern, resolve }));
  }

  /**
   * Ends the child (if still running) and every process it started, and waits for them to be gone. With a signal
   * other than SIGKILL it is asked first (a graceful shutdown), and whatever it leaves after 15 s is killed.
   */
  async stop(signal: NodeJS.Signals = "SIGKILL"): Promise<void> {
    await endTree(this.child, signal === "SIGKILL" ? {} : { first: signal, graceMs: 15_000 });
    await this.exited;
  }
}

/** Starts `mcp-host ...args`; the cleanup kills it if the test did not end it. */
export function startCli(
  cleanup: Cleanup,
  args: readonly string[],
  options: { cwd?: string; stdin?: "pipe" | "ignore"; env?: NodeJS.ProcessEnv } = {},
): CliProcess {
  const cli = new CliProcess(args, options);
  cleanup.add(() => cli.stop());
  return cli;
}
