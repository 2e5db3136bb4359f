/**
 * OpenTelemetry traces through `@opentelemetry/api` (docs/design.md §18) — a no-op unless the deployment registers an
 * SDK. Spans follow the semantic conventions for MCP (semantic-conventions-genai, docs/gen-ai/mcp.md): an MCP server
 * span per request (`{mcp.method.name} {target}`, kind SERVER) whose parent is the trace context in the request's
 * `params._meta` (SEP-414), else the ambient context (the HTTP server span, or the `traceparent` header), linked when
 * both exist; inside a `tools/call`, an `execute_tool {gen_ai.tool.name}` span (GenAI execute_tool, kind INTERNAL);
 * for the gateway, an MCP client span per upstream call (kind CLIENT) whose context is injected into that call's
 * `_meta`. Every call into the API is guarded: a broken SDK, processor or exporter never fails a request.
 */
import type { Attributes, Context, Link, Span, TextMapGetter, Tracer, TracerProvider } from "@opentelemetry/api";
import { TRACEPARENT_META_KEY } from "@modelcontextprotocol/server";
import type { ObservedEnd, ObservedRequest } from "../host/observer.js";
import { defined } from "../defined.js";
import { otel, otelRegistered } from "./otel-api.js";

/**
 * The instrumentation scope of every span mcp-host makes.
 * @example
 * exporter.getFinishedSpans().filter((s) => s.instrumentationScope.name === TRACER_NAME)
 */
export const TRACER_NAME = "mcp-host";

const META_GETTER: TextMapGetter<Readonly<Record<string, unknown>>> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => {
    const value = carrier[key];
    return typeof value === "string" ? value : undefined;
  },
};

/** A span that was started, and the context it is active in. */
export interface StartedSpan {
  span: Span;
  context: Context;
}

function safely<T>(work: () => T, fallback: T): T {
  try {
    return work();
  } catch {
    return fallback;
  }
}

function hasSpan(ctx: Context): boolean {
  const { trace } = otel();
  const spanContext = trace.getSpanContext(ctx);
  return spanContext !== undefined && trace.isSpanContextValid(spanContext);
}

/**
 * The trace context a request's `params._meta` carries (`traceparent`, `tracestate`, `baggage`), or undefined.
 * @example
 * contextFromMeta({ traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01" })
 */
export function contextFromMeta(meta: Readonly<Record<string, unknown>> | undefined): Context | undefined {
  if (meta === undefined || typeof meta[TRACEPARENT_META_KEY] !== "string") return undefined;
  const { propagation, ROOT_CONTEXT } = otel();
  const extracted = safely(() => propagation.extract(ROOT_CONTEXT, meta, META_GETTER), ROOT_CONTEXT);
  return hasSpan(extracted) ? extracted : undefined;
}

/**
 * The ambient context of an HTTP request: the active one when a span is active (HTTP instrumentation), else what
 * its `traceparent` / `tracestate` headers say.
 * @example
 * context.with(ambientOfHeaders(req.headers), next);
 */
export function ambientOfHeaders(headers: Readonly<Record<string, string | string[] | undefined>>): Context {
  const { context, propagation } = otel();
  const active = context.active();
  if (hasSpan(active) || headers.traceparent === undefined) return active;
  return safely(() => propagation.extract(active, headers, META_GETTER as never), active);
}

function targetOf(request: ObservedRequest): string | undefined {
  return request.toolName ?? request.promptName;
}

function requestAttributes(request: ObservedRequest): Attributes {
  const attributes: Attributes = {
    "mcp.method.name": request.method,
    "jsonrpc.request.id": request.id,
    "network.transport": request.transport === "stdio" ? "pipe" : "tcp",
    "mcp_host.era": request.era,
  };
  if (request.transport === "http") attributes["network.protocol.name"] = "http";
  if (request.sessionId !== undefined) attributes["mcp.session.id"] = request.sessionId;
  if (request.protocolVersion !== undefined) attributes["mcp.protocol.version"] = request.protocolVersion;
  if (request.toolName !== undefined) {
    attributes["gen_ai.tool.name"] = request.toolName;
    attributes["gen_ai.operation.name"] = "execute_tool";
  }
  if (request.tool !== undefined) {
    attributes["mcp_host.toolset"] = request.tool.toolset;
    attributes["mcp_host.extension"] = request.tool.extension;
  }
  if (request.promptName !== undefined) attributes["gen_ai.prompt.name"] = request.promptName;
  if (request.resourceUri !== undefined) attributes["mcp.resource.uri"] = request.resourceUri;
  return attributes;
}

/** `error.type` for how a request ended (semantic conventions: the JSON-RPC code, or `tool_error` for `isError`). */
function errorTypeOf(ended: ObservedEnd): string | undefined {
  if (ended.errorCode !== undefined) return String(ended.errorCode);
  if (ended.outcome === "timeout") return "timeout";
  if (ended.outcome === "isError" || ended.outcome === "refused") return "tool_error";
  return undefined;
}

function endSpan(span: Span, ended: ObservedEnd): void {
  safely(() => {
    const { SpanStatusCode } = otel();
    const errorType = errorTypeOf(ended);
    if (ended.outcome !== undefined) span.setAttribute("mcp_host.outcome", ended.outcome);
    if (ended.errorCode !== undefined) span.setAttribute("rpc.response.status_code", String(ended.errorCode));
    if (errorType !== undefined) {
      span.setAttribute("error.type", errorType);
      span.setStatus({ code: SpanStatusCode.ERROR, ...defined({ message: ended.error }) });
    }
    span.end();
  }, undefined);
}

/** The provider the API hands out while no SDK is registered (the same no-op object behind every empty proxy). */
let noopProvider: TracerProvider | undefined;

/**
 * Starts and ends the spans of the host and the gateway.
 * @example
 * const tracing = new HostTracing(); const started = tracing.startRequest(request, context.active());
 */
export class HostTracing {
  private tracerNow?: Tracer;

  constructor(private readonly options: { provider?: TracerProvider; version?: string } = {}) {}

  /** The tracer, made on first use (the API is loaded then, not before: see otel-api.ts). */
  private get tracer(): Tracer {
    this.tracerNow ??= (this.options.provider ?? otel().trace.getTracerProvider()).getTracer(TRACER_NAME, this.options.version);
    return this.tracerNow;
  }

  /**
   * True when a span could go anywhere: a provider was given, the deployment registered an SDK, or a propagator that
   * would carry a caller's trace context on to an upstream. Asked per request (an SDK may be registered after start),
   * and cheap: while it is false, the host makes no span, reads no trace header and switches no context, so the
   * default deployment (the API alone — not even loaded while nothing registered with it) pays nothing for tracing.
   */
  live(): boolean {
    if (this.options.provider !== undefined) return true;
    if (!otelRegistered()) return false;
    const { trace, propagation, ProxyTracerProvider } = otel();
    noopProvider ??= new ProxyTracerProvider().getDelegate();
    const provider = trace.getTracerProvider();
    if (!(provider instanceof ProxyTracerProvider) || provider.getDelegate() !== noopProvider) return true;
    return safely(() => propagation.fields().length > 0, true);
  }

  /** The MCP server span of one request, parented on `_meta`'s context, else on `ambient` (then linked). */
  startRequest(request: ObservedRequest, ambient: Context): StartedSpan | undefined {
    return safely(() => {
      const { trace, SpanKind } = otel();
      const fromMeta = contextFromMeta(request.meta);
      const parent = fromMeta ?? ambient;
      const ambientSpan = fromMeta !== undefined && hasSpan(ambient) ? trace.getSpanContext(ambient) : undefined;
      const links: Link[] = ambientSpan === undefined ? [] : [{ context: ambientSpan }];
      const target = targetOf(request);
      const span = this.tracer.startSpan(
        target === undefined ? request.method : `${request.method} ${target}`,
        { kind: SpanKind.SERVER, attributes: requestAttributes(request), links },
        parent,
      );
      return { span, context: trace.setSpan(parent, span) };
    }, undefined);
  }

  /** The `execute_tool` span of a tool call, inside its request's span. */
  startToolCall(request: ObservedRequest, parent: Context): StartedSpan | undefined {
    if (request.toolName === undefined) return undefined;
    return safely(() => {
      const { trace, SpanKind } = otel();
      const attributes: Attributes = { "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": request.toolName! };
      if (request.tool !== undefined) {
        attributes["mcp_host.toolset"] = request.tool.toolset;
        attributes["mcp_host.extension"] = request.tool.extension;
      }
      const span = this.tracer.startSpan(`execute_tool ${request.toolName}`, { kind: SpanKind.INTERNAL, attributes }, parent);
      return { span, context: trace.setSpan(parent, span) };
    }, undefined);
  }

  /** The MCP client span of an upstream call, and the `_meta` entries that carry its context upstream. */
  startUpstreamCall(server: string, tool: string): { started: StartedSpan; meta: Record<string, string> } | undefined {
    return safely(() => {
      const { context, trace, propagation, SpanKind } = otel();
      const parent = context.active();
      const span = this.tracer.startSpan(
        `tools/call ${tool}`,
        {
          kind: SpanKind.CLIENT,
          attributes: {
            "mcp.method.name": "tools/call",
            "gen_ai.operation.name": "execute_tool",
            "gen_ai.tool.name": tool,
            "mcp_host.server": server,
          },
        },
        parent,
      );
      const active = trace.setSpan(parent, span);
      const meta: Record<string, string> = {};
      propagation.inject(active, meta);
      return { started: { span, context: active }, meta };
    }, undefined);
  }

  /**
   * The MCP server span of a request the protocol core did not answer itself (`initialize`, `ping`, listen streams,
   * refusals at the HTTP edge), made once it finished, with its real start time.
   */
  recordFinished(request: ObservedRequest, ambient: Context, startTime: Date, ended: ObservedEnd): void {
    safely(() => {
      const { trace, SpanKind } = otel();
      const fromMeta = contextFromMeta(request.meta);
      const parent = fromMeta ?? ambient;
      const ambientSpan = fromMeta !== undefined && hasSpan(ambient) ? trace.getSpanContext(ambient) : undefined;
      const span = this.tracer.startSpan(
        request.method,
        { kind: SpanKind.SERVER, attributes: requestAttributes(request), links: ambientSpan === undefined ? [] : [{ context: ambientSpan }], startTime },
        parent,
      );
      endSpan(span, ended);
    }, undefined);
  }

  end(started: StartedSpan | undefined, ended: ObservedEnd): void {
    if (started !== undefined) endSpan(started.span, ended);
  }

  /** Runs `work` with `started`'s context active (or as it is, without one). */
  within<T>(started: StartedSpan | undefined, work: () => T): T {
    if (started === undefined) return work();
    return otel().context.with(started.context, work);
  }
}
