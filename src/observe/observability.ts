/**
 * `createObservability`: logs, metrics and traces composed into the listeners the host, the gateway and the HTTP
 * edge call (docs/design.md §18). The host gets a `HostObserver` (`HostOptions.observer`), the gateway an upstream-call
 * observer (`GatewayOptions.observer`), the HTTP app the whole object (`HostAppOptions.observability`). Every listener
 * records and returns; none can fail a request.
 */
import type { TracerProvider } from "@opentelemetry/api";
import type { HostObserver, ObservedEnd, ObservedRequest, RequestObservation } from "../host/observer.js";
import { toolOutcomeOf } from "../host/protocol/tool-outcome.js";
import type { Logger } from "../logger.js";
import { auditTask, auditToolCall } from "./audit-line.js";
import { type LogFields, requestTrack, withLogFields } from "./log-context.js";
import { type GaugeSources, HostMetrics } from "./metrics.js";
import { RequestRates } from "./request-rates.js";
import { HostTracing } from "./tracing.js";
import { otel } from "./otel-api.js";
import { defined } from "../defined.js";

export interface ObservabilityOptions {
  /** Where access and audit lines go (the host's logger). */
  logger: Logger;
  /** One access line per HTTP request (default true). */
  accessLog?: boolean;
  /** One audit line per tool call (default true). */
  auditLog?: boolean;
  /** Put a tool call's arguments (secret-looking keys masked) on its audit line (default false). */
  includeArguments?: boolean;
  /** Prometheus metrics (default off); `defaultMetrics: false` leaves out prom-client's process metrics. */
  metrics?: boolean | { defaultMetrics?: boolean };
  /** OpenTelemetry spans (default on: a no-op until an SDK is registered); a provider other than the global one. */
  tracing?: boolean | { provider?: TracerProvider };
  /** The version spans name as their instrumentation scope's. */
  version?: string;
  /** The gateway extension's name (its tools' toolsets are upstream servers); default `gateway`. */
  gatewayExtension?: string;
}

/** One finished HTTP request, as the edge saw it. */
export interface HttpRequestSample {
  method: string;
  /** The path, never the query (it may carry what must not be logged). */
  path: string;
  /** `mcp`, `toolsets`, `healthz`, `metrics`, `ui` or `other`. */
  route: string;
  status: number;
  durationMs: number;
  /** The protocol era of an MCP request. */
  era?: "legacy" | "modern";
  /** The JSON-RPC method of an MCP request (bounded: known methods, else `other`). */
  rpcMethod?: string;
  /** The selection's build key. */
  selection?: string;
  subject?: string;
  requestId: string;
  /** The caller's address (behind a trusted proxy, the client it forwarded for). */
  client?: string;
  /** A long-lived stream (listen, a legacy GET stream). */
  stream: boolean;
}

/** What the gateway calls around each upstream call (the shape of the gateway's `UpstreamCallObserver`). */
export interface GatewayCallObserver {
  call<T>(info: { server: string; tool: string }, call: (meta: Readonly<Record<string, string>>) => Promise<T>): Promise<T>;
}

export interface Observability {
  readonly hostObserver: HostObserver;
  readonly gatewayObserver: GatewayCallObserver;
  /** Absent unless metrics were asked for. */
  readonly metrics: HostMetrics | undefined;
  /**
   * Absent when tracing was turned off. What the HTTP layer and the gateway start spans with.
   * @internal
   */
  readonly tracing: HostTracing | undefined;
  /**
   * The last minutes of requests, for the operator page.
   * @internal
   */
  readonly rates: RequestRates;
  readonly logger: Logger;
  /**
   * True when nothing but the page's counters listens (no access lines, metrics or spans): the HTTP edge then only
   * times requests, with no request id or log context.
   */
  readonly countsOnly: boolean;
  /** Records one finished HTTP request: its access line, its metrics, the page's counters. */
  httpRequest(sample: HttpRequestSample): void;
  /** Where the gauges read from. */
  watch(sources: GaugeSources): void;
}

function safely(work: () => void): void {
  try {
    work();
  } catch {
    // A listener's failure stays its own.
  }
}

function accessLine(logger: Logger, sample: HttpRequestSample): void {
  const durationMs = Math.round(sample.durationMs * 1000) / 1000;
  const rpc = sample.rpcMethod === undefined ? "" : ` ${sample.rpcMethod}`;
  // The request's fields are passed as data: the line is written after the request's log scope has ended.
  logger.info(`${sample.method} ${sample.path}${rpc} ${sample.status} in ${durationMs.toFixed(1)} ms`, {
    requestId: sample.requestId,
    ...defined({ client: sample.client }),
    method: sample.method,
    path: sample.path,
    status: sample.status,
    durationMs,
    ...defined({ selection: sample.selection, era: sample.era, rpcMethod: sample.rpcMethod, subject: sample.subject }),
    ...(sample.stream ? { stream: true } : {}),
  });
}

function toolFields(request: ObservedRequest): LogFields | undefined {
  const tool = request.tool;
  return tool === undefined ? undefined : { tool: tool.listed, toolset: tool.toolset, extension: tool.extension };
}

/**
 * @example
 * const observability = createObservability({ logger, metrics: true });
 * const host = buildHost(extensions, { name: "tools", logger, observer: observability.hostObserver });
 * await listenHost(host, { observability });
 */
export function createObservability(options: ObservabilityOptions): Observability {
  const logger = options.logger;
  const access = options.accessLog === false ? undefined : logger.child("access");
  const audit = options.auditLog === false ? undefined : logger.child("audit");
  const auditOptions = { includeArguments: options.includeArguments === true, gatewayExtension: options.gatewayExtension ?? "gateway" };
  const metrics = options.metrics ? new HostMetrics(typeof options.metrics === "object" ? options.metrics : {}) : undefined;
  const tracingOption = options.tracing ?? true;
  const tracing =
    tracingOption === false
      ? undefined
      : new HostTracing({
          ...(typeof tracingOption === "object" && tracingOption.provider ? { provider: tracingOption.provider } : {}),
          ...defined({ version: options.version }),
        });
  const rates = new RequestRates();

  const observeRequest = (request: ObservedRequest): RequestObservation => {
    const track = requestTrack();
    if (track) track.observed = true;
    const traced = tracing?.live() === true ? tracing : undefined;
    const ambient = traced === undefined ? undefined : otel().context.active();
    const span = ambient === undefined ? undefined : traced?.startRequest(request, ambient);
    const toolSpan = ambient === undefined ? undefined : traced?.startToolCall(request, span?.context ?? ambient);
    const fields = toolFields(request);
    return {
      run: (work) => {
        const inFields = fields === undefined ? work : () => withLogFields(fields, work);
        return traced === undefined ? inFields() : traced.within(toolSpan ?? span, inFields);
      },
      end: (ended: ObservedEnd) => {
        traced?.end(toolSpan, ended);
        traced?.end(span, ended);
        if (request.method !== "tools/call") return;
        // Written inside the request's log scope: its id and client come from there; the tool's fields are the line's own.
        if (audit) safely(() => auditToolCall(audit, request, ended, auditOptions));
        if (metrics)
          safely(() =>
            metrics.recordTool({ toolset: request.tool?.toolset, tool: request.tool?.listed, outcome: ended.outcome ?? "ok", durationMs: ended.durationMs }),
          );
      },
    };
  };

  const gatewayObserver: GatewayCallObserver = {
    call: async (info, call) => {
      const traced = tracing?.live() === true ? tracing.startUpstreamCall(info.server, info.tool) : undefined;
      const started = performance.now();
      let ended: ObservedEnd = { durationMs: 0 };
      try {
        const result = await withLogFields({ server: info.server }, () => tracing?.within(traced?.started, () => call(traced?.meta ?? {})) ?? call({}));
        ended = { durationMs: performance.now() - started, outcome: toolOutcomeOf(result) };
        return result;
      } catch (error) {
        ended = { durationMs: performance.now() - started, outcome: "isError", error: (error as Error)?.message?.slice(0, 200) ?? "failed" };
        throw error;
      } finally {
        tracing?.end(traced?.started, ended);
        if (metrics) safely(() => metrics.recordUpstream(info.server, ended.outcome ?? "ok", ended.durationMs));
      }
    },
  };

  return {
    hostObserver: {
      request: observeRequest,
      ...(metrics === undefined ? {} : { build: (event) => safely(() => metrics.recordBuild(event)) }),
      ...(audit === undefined ? {} : { task: (event) => safely(() => auditTask(audit, event)) }),
    },
    gatewayObserver,
    metrics,
    tracing,
    rates,
    logger,
    countsOnly: access === undefined && metrics === undefined && tracing === undefined,
    httpRequest: (sample) => {
      safely(() => rates.record(sample));
      if (access) safely(() => accessLine(access, sample));
      if (metrics)
        safely(() =>
          metrics.recordHttp({
            route: sample.route,
            era: sample.era ?? "",
            rpcMethod: sample.rpcMethod ?? "",
            status: sample.status,
            durationMs: sample.durationMs,
            stream: sample.stream,
          }),
        );
    },
    watch: (sources) => metrics?.watch(sources),
  };
}
