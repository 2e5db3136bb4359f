/**
 * What one tool may take of the host (docs/design.md §16): how many of its calls run at once — the rest wait briefly
 * for a turn, then are refused with a coded `isError` result instead of piling up — and how large a result the
 * host will send. A result over the limit, or one that cannot be sent as JSON at all (a BigInt, a cycle, nesting
 * beyond what JSON tools can handle), becomes an `isError` result saying so: never a truncated body, never a
 * request left without an answer. One gate per host, shared by every build: the same tool in two selections is
 * one tool.
 */
import type { Clock, ClockTimer } from "../../clock.js";
import { McpHostError } from "../../errors.js";

/** The limits of tool calls (config `tools:`). */
export interface ToolCallLimits {
  /** Calls of one tool running at once (default 64). */
  maxConcurrent?: number;
  /** How long a call beyond that waits for a turn before it is refused (default 1000 ms; 0: refused at once). */
  queueMs?: number;
  /** Largest result, as JSON bytes, the host sends (default 8 MiB). */
  maxResultBytes?: number;
}

export const TOOL_LIMIT_DEFAULTS = { maxConcurrent: 64, queueMs: 1_000, maxResultBytes: 8 * 1024 * 1024 } as const;

/** Nesting deeper than this in a result is refused: serialisers recurse, and a stack overflow would lose the answer. */
const MAX_RESULT_DEPTH = 512;

interface Waiter {
  resolve: (release: () => void) => void;
  reject: (error: Error) => void;
  timer: ClockTimer;
}

interface Lane {
  running: number;
  waiting: Waiter[];
}

/**
 * @example
 * const gate = new ToolCallGate({ maxConcurrent: 4 }, host.clock); const release = await gate.enter("text", "text_stats"); try { … } finally { release(); }
 */
export class ToolCallGate {
  readonly maxConcurrent: number;
  readonly queueMs: number;
  readonly maxResultBytes: number;
  private readonly lanes = new Map<string, Lane>();

  /** `clock` is what a waiting call's `queueMs` runs on (the host's). */
  constructor(
    limits: ToolCallLimits,
    private readonly clock: Clock,
  ) {
    this.maxConcurrent = limits.maxConcurrent ?? TOOL_LIMIT_DEFAULTS.maxConcurrent;
    this.queueMs = limits.queueMs ?? TOOL_LIMIT_DEFAULTS.queueMs;
    this.maxResultBytes = limits.maxResultBytes ?? TOOL_LIMIT_DEFAULTS.maxResultBytes;
  }

  /**
   * Takes a turn of `tool` (of `extension`) if one is free now: the function that gives it back, else undefined
   * (then `enter` waits for one). A call that finds its turn at once needs no promise.
   * @example
   * const release = gate.tryEnter("time", "now") ?? (await gate.enter("time", "now"));
   */
  tryEnter(extension: string, tool: string): (() => void) | undefined {
    const key = `${extension}\u0000${tool}`;
    const lane = this.lanes.get(key);
    if (this.maxConcurrent < 1) return undefined;
    if (lane === undefined) {
      const fresh: Lane = { running: 1, waiting: [] };
      this.lanes.set(key, fresh);
      return this.releaser(key, fresh);
    }
    if (lane.running >= this.maxConcurrent) return undefined;
    lane.running += 1;
    return this.releaser(key, lane);
  }

  /**
   * Waits for a turn of `tool` (of `extension`); resolves with the function that gives it back. Rejects with
   * `TOOL_CONCURRENCY_LIMIT` when no turn came within `queueMs`, or as many calls as run already wait.
   */
  enter(extension: string, tool: string): Promise<() => void> {
    const key = `${extension}\u0000${tool}`;
    let lane = this.lanes.get(key);
    if (lane === undefined) {
      lane = { running: 0, waiting: [] };
      this.lanes.set(key, lane);
    }
    const current = lane;
    const release = this.releaser(key, current);
    if (current.running < this.maxConcurrent) {
      current.running += 1;
      return Promise.resolve(release);
    }
    if (this.queueMs === 0 || current.waiting.length >= this.maxConcurrent) return Promise.reject(this.refusal(extension, tool));
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        resolve,
        reject,
        timer: this.clock.setTimeout(() => {
          current.waiting.splice(current.waiting.indexOf(waiter), 1);
          reject(this.refusal(extension, tool));
        }, this.queueMs),
      };
      current.waiting.push(waiter);
    });
  }

  /** How many calls of a tool run now (for tests and the operator's view). */
  running(extension: string, tool: string): number {
    return this.lanes.get(`${extension}\u0000${tool}`)?.running ?? 0;
  }

  private releaser(key: string, lane: Lane): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = lane.waiting.shift();
      if (next !== undefined) {
        next.timer.clear();
        next.resolve(this.releaser(key, lane));
        return;
      }
      lane.running -= 1;
      if (lane.running === 0) this.lanes.delete(key);
    };
  }

  private refusal(extension: string, tool: string): McpHostError {
    return new McpHostError(
      "TOOL_CONCURRENCY_LIMIT",
      `tool "${tool}" already runs ${this.maxConcurrent} calls at once and no turn came within ${this.queueMs} ms (tools.maxConcurrent, tools.queueMs); retry shortly`,
      { extension },
    );
  }
}

/**
 * An upper bound of the JSON size of `value` in bytes, cheap to compute (no string is built): each UTF-16 unit of a
 * string counts 6 (the longest escape), and every value and key its punctuation. Or the reason it cannot be sent.
 * The walk stops once the bound passes `stopAt` (every value adds to it, so a cycle cannot keep it going).
 */
function sizeBound(value: unknown, stopAt: number): { bound: number } | { problem: string } {
  let bound = 0;
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  while (stack.length > 0 && bound <= stopAt) {
    const { value: v, depth } = stack.pop()!;
    if (depth > MAX_RESULT_DEPTH) return { problem: `it nests deeper than ${MAX_RESULT_DEPTH} levels (or refers to itself)` };
    switch (typeof v) {
      case "string":
        bound += v.length * 6 + 2;
        break;
      case "number":
      case "boolean":
        bound += 24;
        break;
      case "bigint":
        return { problem: "it holds a BigInt, which JSON cannot carry" };
      case "object":
        bound += 2;
        if (v === null) bound += 4;
        else if (Array.isArray(v)) {
          bound += v.length;
          for (const item of v) stack.push({ value: item, depth: depth + 1 });
        } else if (typeof (v as { toJSON?: unknown }).toJSON === "function") bound += 64;
        else {
          for (const [key, item] of Object.entries(v)) {
            bound += key.length * 6 + 4;
            stack.push({ value: item, depth: depth + 1 });
          }
        }
        break;
      default:
        bound += 4;
    }
  }
  return { bound };
}

/**
 * Why `result` may not be sent (too large, or not JSON), or undefined when it may.
 * @example
 * resultProblem({ content: [{ type: "text", text: "ok" }] }, 1024) // undefined
 */
export function resultProblem(result: unknown, maxBytes: number): string | undefined {
  const bounded = sizeBound(result, maxBytes);
  if ("problem" in bounded) return `cannot be sent: ${bounded.problem}`;
  if (bounded.bound <= maxBytes) return undefined;
  let bytes: number;
  try {
    bytes = Buffer.byteLength(JSON.stringify(result));
  } catch (error) {
    return `cannot be sent as JSON: ${(error as Error).message}`;
  }
  return bytes > maxBytes ? `is ${bytes} bytes, over the ${maxBytes} bytes the host sends (tools.maxResultBytes)` : undefined;
}
