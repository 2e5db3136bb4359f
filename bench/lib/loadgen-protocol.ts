/**
 * The messages between the suite and its load-generator process: open a target (a keep-alive pool of N
 * connections, and for the 2025 era one session per worker — or a stdio server the load generator started), drive
 * it closed-loop for a while, open and delete idle sessions, close it; start and stop stdio servers.
 */
import type { Era } from "./protocol.js";

/** `call`: tools/call echo. `list`: tools/list. `churn`: initialize, tools/list, 10 calls, DELETE (one unit). */
export type Op = "call" | "list" | "churn";

export interface OpenTarget {
  key: string;
  /** The MCP endpoint (its query, e.g. `?only=up`, is kept). Unused for a stdio target. */
  url: string;
  /** Drive this stdio server (the key it was started with) instead of HTTP: `call` only, 2025 era. */
  stdio?: string;
  era: Era;
  concurrency: number;
  /** Tools a `tools/list` must return. */
  tools: number;
  /** Open one session per worker up front (2025-era `call` / `list`). */
  sessions: boolean;
}

export type Command =
  | { cmd: "open"; target: OpenTarget }
  | { cmd: "drive"; key: string; op: Op; ms: number; collect: boolean }
  | { cmd: "open-idle"; key: string; count: number }
  | { cmd: "delete-idle"; key: string }
  | { cmd: "probe-idle"; key: string; index: number }
  | { cmd: "forget-idle"; key: string }
  | { cmd: "close"; key: string }
  | { cmd: "start-stdio"; key: string; command: string; args: string[] }
  | { cmd: "stop-stdio"; key: string };

export interface Sample {
  ok: number;
  failed: number;
  firstFailure?: string;
  /** Wall time of the driven window (until the last in-flight answer was read). */
  seconds: number;
  /** The load generator's own CPU time over the window (µs). */
  loadCpuMicros: number;
  /** Latency of every checked answer (ms), when collected. */
  latencies: number[];
  /** Answers accepted by byte comparison with a fully checked one / fully checked (see same-answer.ts). */
  sameAnswers: number;
  fullChecks: number;
  /** Content types seen (JSON, SSE). */
  bodies: string[];
}

export type Reply = { seq: number; ok: true; value: unknown } | { seq: number; ok: false; error: string };
