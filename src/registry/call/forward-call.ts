/**
 * One forwarded request under the registry's rules (docs/registry.md, "Forwarded calls"): the same idle timeout
 * (reset by progress) and total cap as a client round, the caller's signal, and reconnect-and-retry-once — only when
 * the request cannot have run, or may have run but is safe to repeat — on the connection's raw channel instead of an
 * SDK client round. Its time limits are two timers and its cancellation one listener on the caller's signal: no
 * abort controller (and so no DOMException with a stack) per call. A connection with no channel to share (not
 * connected yet, a custom transport) runs the ordinary round instead.
 */
import type { Client } from "@modelcontextprotocol/client";
import type { ClockTimer } from "../../clock.js";
import { classifyFailure } from "../failure.js";
import type { ForwardRequest, Forwarder } from "../forward/forwarder.js";
import type { DeadlineEnd } from "./deadline.js";
import { type FailureOf, type InvokeOptions, retryableFailure, UpstreamFailure } from "./invoke.js";

/** How to forward one request: a client round's options, less what only a client round has (input rounds, answers). */
export type ForwardOptions = Pick<
  InvokeOptions,
  "connection" | "openTimeoutMs" | "timeoutMs" | "maxTotalMs" | "clock" | "mayRerun" | "signal" | "onprogress" | "afterReconnect" | "onReconnectFailed"
>;

/** Why a leg ended early; its failure is then worded by the registry like a client round's. */
class Ended extends Error {
  constructor(readonly end: DeadlineEnd) {
    super(end === "caller" ? "cancelled" : "timed out");
  }
}

/** Sends `request` once on `forwarder`, under the time limits; resolves with the upstream's result. */
function leg(forwarder: Forwarder, request: ForwardRequest, options: ForwardOptions, startedAt: number): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const { clock, signal } = options;
    let idle: ClockTimer | undefined;
    let total: ClockTimer | undefined;
    let settled = false;
    const finish = () => {
      settled = true;
      idle?.clear();
      total?.clear();
      signal?.removeEventListener("abort", onAbort);
    };
    const end = (why: DeadlineEnd) => {
      if (settled) return;
      finish();
      handle.cancel(why === "caller" ? "the caller cancelled the request" : `the request timed out (${why})`);
      reject(new Ended(why));
    };
    const onAbort = () => end("caller");
    const handle = forwarder.send(request, {
      result: (value) => {
        if (settled) return;
        finish();
        resolve(value);
      },
      fail: (error) => {
        if (settled) return;
        finish();
        reject(error);
      },
      progress: (progress) => {
        if (settled) return;
        idle?.clear();
        idle = clock.setTimeout(() => end("idle"), options.timeoutMs, true);
        options.onprogress?.(progress);
      },
    });
    if (settled) return;
    // Both limits run on the registry's clock (a client round's idle timeout is the SDK's own, on real time).
    idle = clock.setTimeout(() => end("idle"), options.timeoutMs, true);
    total = clock.setTimeout(() => end("total"), Math.max(0, options.maxTotalMs - (clock.now() - startedAt)));
    if (signal?.aborted) onAbort();
    else signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * Forwards `request` on the server's connection; throws UpstreamFailure as invokeUpstream does. `fallback` runs the
 * ordinary client round when the connection has no channel to forward on.
 * @example
 * const result = await forwardUpstream(options, { method: "tools/call", params: { name, arguments: args } }, () => invoke());
 */
export async function forwardUpstream<T>(options: ForwardOptions, request: ForwardRequest, fallback: () => Promise<T>): Promise<T> {
  const startedAt = options.clock.now();
  const open = { timeoutMs: options.openTimeoutMs, ...(options.signal ? { signal: options.signal } : {}) };
  const failure: FailureOf = (error, phase, notRetried = false) => {
    if (error instanceof Ended)
      return new UpstreamFailure({ kind: error.end === "caller" ? "aborted" : "timeout", detail: error.message }, error.end, phase, false, error);
    return new UpstreamFailure(classifyFailure(error), options.signal?.aborted ? "caller" : undefined, phase, notRetried, error);
  };
  let client: Client;
  try {
    client = await options.connection.ready(open);
  } catch (error) {
    throw failure(error, "connect");
  }
  const forwarder = options.connection.forwarder();
  if (forwarder === undefined) return fallback();
  try {
    return (await leg(forwarder, request, options, startedAt)) as T;
  } catch (first) {
    const f1 = retryableFailure(first, failure, options.mayRerun);
    let next: Forwarder | undefined;
    try {
      await options.connection.reconnect(client, open);
      await options.afterReconnect();
      next = options.connection.forwarder();
    } catch (reconnectError) {
      options.onReconnectFailed(reconnectError);
      throw f1;
    }
    if (next === undefined) return fallback();
    try {
      return (await leg(next, request, options, startedAt)) as T;
    } catch (second) {
      throw failure(second, "request");
    }
  }
}
