/**
 * One upstream request under the registry's rules: time limits (idle reset by progress, total cap, the caller's
 * signal), multi-round-trip input, and reconnect-and-retry-once — only when the request cannot have run (it was
 * never sent, or the session had expired), or when it may have run but is safe to repeat. If the reconnect fails
 * the first error is surfaced; if the retry fails, the second.
 */
import type { Client, Progress } from "@modelcontextprotocol/client";
import type { Clock } from "../../clock.js";
import type { ServerConnection } from "../connect/connection.js";
import { classifyFailure, type Failure } from "../failure.js";
import type { UpstreamRequest } from "../types.js";
import { startDeadline, type DeadlineEnd } from "./deadline.js";
import { runWithInputs, type InputLeg, type InputRounds } from "./input-required.js";

/**
 * A request that failed for good, with what the caller needs to word the error.
 * @example
 * catch (e) { if (e instanceof UpstreamFailure && e.end === "idle") return timedOut(e); }
 */
export class UpstreamFailure extends Error {
  constructor(
    readonly failure: Failure,
    /** Set when a time limit or the caller ended it. */
    readonly end: DeadlineEnd | undefined,
    /** The phase that failed: connecting, or the request itself. */
    readonly phase: "connect" | "request",
    /** True when the failure may have run and was not retried. */
    readonly notRetried: boolean,
    cause: unknown,
  ) {
    super(failure.detail, { cause });
    this.name = "UpstreamFailure";
  }
}

/** The SDK request options each leg gets. */
export interface LegOptions {
  timeout: number;
  resetTimeoutOnProgress: true;
  signal: AbortSignal;
  onprogress: (progress: Progress) => void;
  allowInputRequired: true;
}

/** How a caller words a failure for its phase; `notRetried` says it may have run and was not tried again. */
export type FailureOf = (error: unknown, phase: "connect" | "request", notRetried?: boolean) => UpstreamFailure;

/**
 * The registry's retry rule, after a request's first leg failed: returns that failure when the request may run again
 * (it cannot have run, or it may have run and is safe to repeat, and no time limit or caller ended it); throws it
 * otherwise, marked not retried when it may have run.
 * @example
 * const f1 = retryableFailure(first, failure, options.mayRerun); // then reconnect and retry once
 */
export function retryableFailure(first: unknown, failure: FailureOf, mayRerun: boolean): UpstreamFailure {
  const f1 = failure(first, "request");
  const retryable = f1.failure.kind === "not-sent" || (f1.failure.kind === "maybe-ran" && mayRerun);
  if (f1.end || !retryable) {
    if (f1.failure.kind === "maybe-ran") throw failure(first, "request", true);
    throw f1;
  }
  return f1;
}

/** How to run one request. */
export interface InvokeOptions {
  connection: ServerConnection;
  server: string;
  openTimeoutMs: number;
  timeoutMs: number;
  maxTotalMs: number;
  /** What the total cap runs on. */
  clock: Clock;
  /** True when the request may safely run twice (read-only or idempotent). */
  mayRerun: boolean;
  signal?: AbortSignal;
  onprogress?: (progress: Progress) => void;
  /** The caller's part in multi-round-trip input (its answers to an earlier round; answering rounds itself). */
  rounds?: InputRounds;
  /** Answers server-to-client requests embedded in `input_required` results. */
  answer: (method: UpstreamRequest["method"], params: Record<string, unknown>) => Promise<unknown>;
  /** Runs after a successful reconnect, before the retry (the registry re-lists that server). */
  afterReconnect: () => Promise<void>;
  onReconnectFailed: (error: unknown) => void;
}

/**
 * Runs `send` on the server's connection under the registry's rules; throws UpstreamFailure.
 * @example
 * const result = await invokeUpstream(opts, (client, leg, inputs) =>
 *   client.callTool({ name: "status", arguments: {}, ...inputs }, leg));
 */
export async function invokeUpstream<T>(options: InvokeOptions, send: (client: Client, leg: LegOptions, inputs: InputLeg) => Promise<unknown>): Promise<T> {
  const deadline = startDeadline({
    timeoutMs: options.timeoutMs,
    maxTotalMs: options.maxTotalMs,
    clock: options.clock,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const leg: LegOptions = { ...deadline.requestOptions, onprogress: (p) => options.onprogress?.(p), allowInputRequired: true };
  const open = { timeoutMs: options.openTimeoutMs, signal: deadline.requestOptions.signal };
  const attempt = (client: Client) => runWithInputs<T>((inputs) => send(client, leg, inputs), options.answer, options.server, options.rounds);
  const failure: FailureOf = (error, phase, notRetried = false) => {
    const f = classifyFailure(error);
    return new UpstreamFailure(f, deadline.ended(f.kind === "timeout"), phase, notRetried, error);
  };
  try {
    let client: Client;
    try {
      client = await options.connection.ready(open);
    } catch (error) {
      throw failure(error, "connect");
    }
    try {
      return await attempt(client);
    } catch (first) {
      const f1 = retryableFailure(first, failure, options.mayRerun);
      let next: Client;
      try {
        next = await options.connection.reconnect(client, open);
        await options.afterReconnect();
      } catch (reconnectError) {
        options.onReconnectFailed(reconnectError);
        throw f1;
      }
      try {
        return await attempt(next);
      } catch (second) {
        throw failure(second, "request");
      }
    }
  } finally {
    deadline.dispose();
  }
}
