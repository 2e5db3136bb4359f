// Traces (docs/design.md §18) with the OpenTelemetry SDK registered and its in-memory exporter: one client call through
// the gateway gives one trace — the gateway host's MCP server span and execute_tool span, the gateway's MCP client
// span for the upstream call, and the upstream host's own server and execute_tool spans, parented through the
// trace context the gateway put in the upstream request's `_meta` (SEP-414). The client's context comes from the
// `traceparent` header or from `_meta` (which wins, the header's span then linked), named and attributed after the
// semantic conventions for MCP.
import { after, afterEach, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import { SpanKind } from "@opentelemetry/api";
import { buildHost } from "../../src/host/build-host.js";
import { listenHost } from "../../src/http/listen.js";
import { createObservability } from "../../src/observe/observability.js";
import { createPinoLogger } from "../../src/observe/pino-logger.js";
import { createGateway } from "../../src/upstream/index.js";
import { Cleanup, raw, modernBody, modernHeaders } from "../helpers/http-host.js";
import { kit, lineSink, serveObserved } from "../helpers/observed-host.js";

const exporter = new InMemorySpanExporter();
const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
before(() => provider.register());
after(() => provider.shutdown());

const cleanup = new Cleanup();
afterEach(async () => {
  await cleanup.run();
  exporter.reset();
});

const TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
const CLIENT_SPAN = "00f067aa0ba902b7";
const TRACEPARENT = `00-${TRACE}-${CLIENT_SPAN}-01`;

/** The gateway host: the config's `servers` as code would pass them, observed like `mcp-host serve` does. */
async function serveGateway(upstream: URL) {
  const sink = lineSink();
  const logger = createPinoLogger({ format: "json", stream: sink.stream, level: "debug" });
  const observability = createObservability({ logger, metrics: { defaultMetrics: false } });
  const gateway = createGateway({ servers: { up: { url: upstream.href } }, observer: observability.gatewayObserver, logger: logger.child("gateway") });
  const host = buildHost([gateway.extension], { name: "gateway-host", logger, observer: observability.hostObserver });
  await host.start();
  const served = await listenHost(host, { port: 0, observability, upstreams: () => gateway.status() });
  observability.watch({ upstreams: () => gateway.status() });
  cleanup.add(() => served.close());
  return { served, sink, observability };
}

function shape(spans: readonly ReadableSpan[]) {
  const byId = new Map(spans.map((s) => [s.spanContext().spanId, s]));
  return spans
    .map((s) => ({
      name: s.name,
      kind: SpanKind[s.kind],
      where: String(s.attributes["mcp_host.extension"] ?? s.attributes["mcp_host.server"] ?? ""),
      parent: s.parentSpanContext?.spanId === CLIENT_SPAN ? "(client)" : (byId.get(s.parentSpanContext?.spanId ?? "")?.name ?? "(none)"),
      parentKind: s.parentSpanContext?.spanId === CLIENT_SPAN ? "" : (SpanKind[byId.get(s.parentSpanContext?.spanId ?? "")?.kind ?? -1] ?? ""),
    }))
    .sort((a, b) => a.name.localeCompare(b.name) || a.kind.localeCompare(b.kind) || a.where.localeCompare(b.where));
}

describe("tracing through the gateway", { timeout: 60_000 }, () => {
  it("gives one trace with the host's spans, the upstream call's client span and the upstream host's spans", async () => {
    const upstream = await serveObserved(cleanup, [kit]);
    const { served } = await serveGateway(upstream.url);
    const answer = await raw({
      url: new URL(`${served.url.href}?only=up`),
      method: "POST",
      headers: { ...modernHeaders("tools/call", "echo"), traceparent: TRACEPARENT },
      body: modernBody("tools/call", { name: "echo", arguments: { text: "traced" } }),
    });
    assert.equal(answer.status, 200, answer.text);
    assert.deepEqual(answer.json.result.content, [{ type: "text", text: "traced" }]);

    const inTrace = exporter.getFinishedSpans().filter((s) => s.spanContext().traceId === TRACE);
    assert.deepEqual(shape(inTrace), [
      { name: "execute_tool echo", kind: "INTERNAL", where: "gateway", parent: "tools/call echo", parentKind: "SERVER" },
      { name: "execute_tool echo", kind: "INTERNAL", where: "kit", parent: "tools/call echo", parentKind: "SERVER" },
      { name: "tools/call echo", kind: "CLIENT", where: "up", parent: "execute_tool echo", parentKind: "INTERNAL" },
      { name: "tools/call echo", kind: "SERVER", where: "gateway", parent: "(client)", parentKind: "" },
      { name: "tools/call echo", kind: "SERVER", where: "kit", parent: "tools/call echo", parentKind: "CLIENT" },
    ]);
    const gatewayServer = inTrace.find((s) => s.kind === SpanKind.SERVER && s.attributes["mcp_host.extension"] === "gateway")!;
    assert.deepEqual(gatewayServer.attributes, {
      "mcp.method.name": "tools/call",
      "jsonrpc.request.id": "1",
      "network.transport": "tcp",
      "network.protocol.name": "http",
      "mcp_host.era": "modern",
      "mcp.protocol.version": "2026-07-28",
      "gen_ai.tool.name": "echo",
      "gen_ai.operation.name": "execute_tool",
      "mcp_host.toolset": "up",
      "mcp_host.extension": "gateway",
      "mcp_host.outcome": "ok",
    });
    const client = inTrace.find((s) => s.kind === SpanKind.CLIENT)!;
    assert.deepEqual(client.attributes, {
      "mcp.method.name": "tools/call",
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "echo",
      "mcp_host.server": "up",
      "mcp_host.outcome": "ok",
    });
  });

  it("counts the upstream call's latency and each upstream's state in the gateway host's metrics", async () => {
    const upstream = await serveObserved(cleanup, [kit]);
    const { served } = await serveGateway(upstream.url);
    await raw({
      url: new URL(`${served.url.href}?only=up`),
      method: "POST",
      headers: modernHeaders("tools/call", "echo"),
      body: modernBody("tools/call", { name: "echo", arguments: { text: "x" } }),
    });
    const scrape = await raw({ url: new URL("/metrics", served.baseUrl) });
    assert.match(scrape.text, /^mcp_host_upstream_call_duration_seconds_count\{server="up",outcome="ok"\} 1$/m);
    assert.match(scrape.text, /^mcp_host_upstream_up\{server="up",state="up"\} 1$/m);
    assert.match(scrape.text, /^mcp_host_upstream_up\{server="up",state="unavailable"\} 0$/m);
    assert.match(scrape.text, /^mcp_host_tool_calls_total\{toolset="up",tool="echo",outcome="ok"\} 1$/m);
  });

  it("parents the server span on _meta's trace context, links the header's, and names the upstream server on the audit line", async () => {
    const upstream = await serveObserved(cleanup, [kit]);
    const { served, sink } = await serveGateway(upstream.url);
    const META_TRACE = "0af7651916cd43dd8448eb211c80319c";
    const body = JSON.parse(modernBody("tools/call", { name: "echo", arguments: { text: "m" } }));
    body.params._meta.traceparent = `00-${META_TRACE}-b7ad6b7169203331-01`;
    const answer = await raw({
      url: new URL(`${served.url.href}?only=up`),
      method: "POST",
      headers: { ...modernHeaders("tools/call", "echo"), traceparent: TRACEPARENT },
      body: JSON.stringify(body),
    });
    assert.equal(answer.status, 200, answer.text);
    const server = exporter.getFinishedSpans().find((s) => s.kind === SpanKind.SERVER && s.attributes["mcp_host.extension"] === "gateway")!;
    assert.equal(server.spanContext().traceId, META_TRACE);
    assert.equal(server.parentSpanContext?.spanId, "b7ad6b7169203331");
    assert.deepEqual(
      server.links.map((l) => [l.context.traceId, l.context.spanId]),
      [[TRACE, CLIENT_SPAN]],
    );
    const audit = await sink.waitFor((l) => l.component === "audit" && l.tool === "echo");
    // The upstream tool's toolset is its server; the extension serving it is the gateway.
    assert.deepEqual([audit.toolset, audit.server, audit.extension, audit.outcome], ["up", "up", "gateway", "ok"]);
  });
});
