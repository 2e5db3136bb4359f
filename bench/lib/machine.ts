/**
 * The facts of the machine a run was taken on, written beside every result: absolute numbers from a shared
 * 2-core VM mislead, and the load average says how shared it was.
 */
import { execFileSync } from "node:child_process";
import { cpus, loadavg, totalmem, type as osType, release } from "node:os";

export interface Machine {
  cpuModel: string;
  cores: number;
  memoryGiB: number;
  os: string;
  node: string;
  date: string;
  loadAverageAtStart: number[];
  loadAverageAtEnd?: number[];
  gitCommit: string | null;
}

function gitCommit(): string | null {
  try {
    const commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
    const dirty = execFileSync("git", ["status", "--porcelain", "--untracked-files=no"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
    return dirty ? `${commit}+changes` : commit;
  } catch {
    return null;
  }
}

export function machineFacts(): Machine {
  const list = cpus();
  return {
    cpuModel: list[0]?.model.trim() ?? "unknown",
    cores: list.length,
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    os: `${osType()} ${release()}`,
    node: process.version,
    date: new Date().toISOString(),
    loadAverageAtStart: loadavg().map((n) => Math.round(n * 100) / 100),
    gitCommit: gitCommit(),
  };
}
