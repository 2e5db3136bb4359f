/**
 * The gateway's seam for observing its upstream calls (docs/design.md §18): around each call to an upstream tool, an
 * observer may time it, make a client span for it and hand back the trace context to send with it in `_meta`
 * (`traceparent`, `tracestate`, `baggage`: SEP-414). The gateway knows nothing of how; with no observer it calls as
 * it always did. An observer's failure never fails the call.
 */

/** What one upstream call is. */
export interface UpstreamCallInfo {
  /** The server's name (its toolset's name). */
  server: string;
  /** The tool's name on the upstream server. */
  tool: string;
}

/**
 * @example
 * createGateway({ servers, observer: createObservability({ logger }).gatewayObserver });
 */
export interface UpstreamCallObserver {
  /** Runs `call` (once) with the `_meta` entries to add to the upstream request; returns what it returns. */
  call<T>(info: UpstreamCallInfo, call: (meta: Readonly<Record<string, string>>) => Promise<T>): Promise<T>;
}

const NO_META: Readonly<Record<string, string>> = Object.freeze({});

/**
 * Runs `call` under `observer` when there is one; an observer that throws before calling is bypassed.
 * @example
 * observeUpstreamCall(observer, { server: "fs", tool: "read" }, (meta) => registry.callTool("read", args, { meta }));
 */
export async function observeUpstreamCall<T>(
  observer: UpstreamCallObserver | undefined,
  info: UpstreamCallInfo,
  call: (meta: Readonly<Record<string, string>>) => Promise<T>,
): Promise<T> {
  if (observer === undefined) return call(NO_META);
  let ran = false;
  const once = (meta: Readonly<Record<string, string>>) => {
    ran = true;
    return call(meta);
  };
  try {
    return await observer.call(info, once);
  } catch (error) {
    if (ran) throw error;
    return call(NO_META);
  }
}
