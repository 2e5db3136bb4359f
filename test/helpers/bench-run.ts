/**
 * The benchmark smoke tests' one way to run `bench/run.ts`: in its own process from the repository root, its output
 * into a fresh temporary folder, both gone once the test is done (the run and every process it started killed if it
 * still runs), so a failed or timed-out smoke run leaves no process and no folder behind.
 */
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { endTree, spawnInGroup } from "./child-group.js";
import type { Cleanup } from "./cleanup.js";

const REPO = fileURLToPath(new URL("../..", import.meta.url));

/** How a bench run ended, and the folder it wrote latest.json and latest.md into. */
export interface BenchRun {
  code: number | null;
  stdout: string;
  stderr: string;
  out: string;
}

/**
 * Runs `node --import tsx bench/run.ts <args> --out <fresh folder>` to its end.
 * @example
 * const run = await runBench(cleanup, ["--quick", "--scenario", "echo"]);
 * assert.equal(run.code, 0, run.stderr);
 */
export function runBench(cleanup: Cleanup, args: readonly string[], folderPrefix = "mcp-host-bench-test-"): Promise<BenchRun> {
  const out = mkdtempSync(join(tmpdir(), folderPrefix));
  cleanup.add(() => rmSync(out, { recursive: true, force: true }));
  return new Promise((resolve) => {
    const child: ChildProcess = spawnInGroup(process.execPath, ["--import", "tsx", "bench/run.ts", ...args, "--out", out], {
      cwd: REPO,
      stdio: ["ignore", "pipe", "pipe"],
    });
    // The run starts a dozen servers, and mcp-host's own stdio upstreams in groups of their own: all of them go.
    cleanup.add(() => endTree(child));
    let stdout = "";
    let stderr = "";
    child.stdout!.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr!.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.once("exit", (code) => resolve({ code, stdout, stderr, out }));
  });
}
