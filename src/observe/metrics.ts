/**
 * The host's Prometheus metrics (docs/design.md §18), with prom-client on a registry of their own (several hosts in one
 * process never mix). Counters and histograms are recorded as requests end; gauges (sessions, streams, extensions,
 * upstreams) are read from their sources when scraped. Label values are bounded: only declared toolsets and the
 * tools they offer become labels, anything else is `other` (see label-guard.ts).
 */
import { createRequire } from "node:module";
import type { Counter, Histogram, Registry } from "prom-client";
import { LabelGuard } from "./label-guard.js";

type PromClient = typeof import("prom-client");
let loaded: PromClient | undefined;

/**
 * prom-client, loaded when the first HostMetrics is made: metrics are off by default, and its import (≈0.1 s) would
 * otherwise be paid by every `mcp-host stdio` cold start and every serve without `metrics:`. It is CommonJS, so it
 * loads synchronously and HostMetrics keeps its plain constructor.
 */
function promClient(): PromClient {
  loaded ??= createRequire(import.meta.url)("prom-client") as PromClient;
  return loaded;
}

/**
 * Latency buckets, in seconds: 1 ms to 60 s.
 * @example
 * new Histogram({ name, help, buckets: LATENCY_BUCKETS });
 */
export const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/** Where the gauges read from at scrape time; each is optional (absent: the gauge reports nothing). */
export interface GaugeSources {
  legacySessions?(): number;
  listenStreams?(): number;
  /** How many entries each structure a client can make the host keep holds now (sessions, subscriptions, callers…). */
  heldEntries?(): Readonly<Record<string, number>>;
  /** Every extension's status (`ready`, `failed`, `dormant`, …). */
  extensionStatuses?(): readonly { status: string }[];
  /** Each upstream server's state (`up`, `starting`, `unavailable`, `closed`). */
  upstreams?(): readonly { server: string; state: string }[];
  /** MCP tasks kept now, by status (docs/tasks.md). */
  tasks?(): Readonly<Record<string, number>>;
}

export interface HttpSample {
  route: string;
  era: string;
  rpcMethod: string;
  status: number;
  durationMs: number;
  /** A long-lived stream: counted, but kept out of the latency histogram. */
  stream: boolean;
}

export interface ToolSample {
  toolset: string | undefined;
  tool: string | undefined;
  outcome: string;
  durationMs: number;
}

const UPSTREAM_STATES = ["up", "starting", "unavailable", "closed"] as const;
const TASK_STATES = ["working", "input_required", "completed", "failed", "cancelled"] as const;
const EXTENSION_STATES = ["ready", "failed", "dormant", "pending"] as const;

function guarded<T>(read: (() => T) | undefined, fallback: T): T {
  if (read === undefined) return fallback;
  try {
    return read();
  } catch {
    return fallback;
  }
}

/**
 * @example
 * const metrics = new HostMetrics({ defaultMetrics: false }); metrics.recordTool({ toolset: "time", tool: "now", outcome: "ok", durationMs: 2 });
 * await metrics.registry.metrics(); // the Prometheus text format
 */
export class HostMetrics {
  readonly registry: Registry = new (promClient().Registry)();
  private sources: GaugeSources = {};
  private readonly labels = new LabelGuard();
  private readonly httpRequests: Counter<"route" | "era" | "rpc_method" | "status">;
  private readonly httpDuration: Histogram<"route" | "era" | "rpc_method">;
  private readonly toolCalls: Counter<"toolset" | "tool" | "outcome">;
  private readonly toolDuration: Histogram<"toolset" | "tool">;
  private readonly buildHits: Counter;
  private readonly buildMisses: Counter;
  private readonly buildDuration: Histogram;
  private readonly upstreamDuration: Histogram<"server" | "outcome">;

  constructor(options: { defaultMetrics?: boolean } = {}) {
    const { Counter, Histogram, collectDefaultMetrics } = promClient();
    const registers = [this.registry];
    this.httpRequests = new Counter({
      name: "mcp_host_http_requests_total",
      help: "HTTP requests answered, by route, protocol era, JSON-RPC method and status.",
      labelNames: ["route", "era", "rpc_method", "status"],
      registers,
    });
    this.httpDuration = new Histogram({
      name: "mcp_host_http_request_duration_seconds",
      help: "Time to answer an HTTP request (long-lived streams left out), by route, era and JSON-RPC method.",
      labelNames: ["route", "era", "rpc_method"],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.toolCalls = new Counter({
      name: "mcp_host_tool_calls_total",
      help: "Tool calls, by toolset, tool and outcome (ok, isError, timeout, refused, task).",
      labelNames: ["toolset", "tool", "outcome"],
      registers,
    });
    this.toolDuration = new Histogram({
      name: "mcp_host_tool_call_duration_seconds",
      help: "Time a tools/call took, by toolset and tool.",
      labelNames: ["toolset", "tool"],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.buildHits = new Counter({ name: "mcp_host_build_cache_hits_total", help: "Selections served from a cached build.", registers });
    this.buildMisses = new Counter({ name: "mcp_host_build_cache_misses_total", help: "Selections that had to be built.", registers });
    this.buildDuration = new Histogram({
      name: "mcp_host_build_duration_seconds",
      help: "Time to compile one build (on a cache miss).",
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.upstreamDuration = new Histogram({
      name: "mcp_host_upstream_call_duration_seconds",
      help: "Time an upstream tool call took through the gateway, by server and outcome.",
      labelNames: ["server", "outcome"],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.defineGauges(registers);
    if (options.defaultMetrics !== false) collectDefaultMetrics({ register: this.registry, prefix: "mcp_host_" });
  }

  /** Where the gauges read from (the app's sessions and streams, the host's extensions, the gateway's servers). */
  watch(sources: GaugeSources): void {
    this.sources = { ...this.sources, ...sources };
  }

  recordHttp(sample: HttpSample): void {
    const labels = { route: sample.route, era: sample.era, rpc_method: sample.rpcMethod };
    this.httpRequests.inc({ ...labels, status: String(sample.status) });
    if (!sample.stream) this.httpDuration.observe(labels, sample.durationMs / 1000);
  }

  recordTool(sample: ToolSample): void {
    // A routed tool's toolset is declared by construction; an unknown tool has none and counts as `other`.
    const { toolset, tool } = this.labels.tool(sample.toolset, sample.tool);
    this.toolCalls.inc({ toolset, tool, outcome: sample.outcome });
    this.toolDuration.observe({ toolset, tool }, sample.durationMs / 1000);
  }

  recordBuild(event: { hit: boolean; durationMs?: number }): void {
    if (event.hit) {
      this.buildHits.inc();
      return;
    }
    this.buildMisses.inc();
    if (event.durationMs !== undefined) this.buildDuration.observe(event.durationMs / 1000);
  }

  recordUpstream(server: string, outcome: string, durationMs: number): void {
    this.upstreamDuration.observe({ server: this.labels.server(server), outcome }, durationMs / 1000);
  }

  private defineGauges(registers: Registry[]): void {
    const { Gauge } = promClient();
    const sources = () => this.sources;
    new Gauge({
      name: "mcp_host_legacy_sessions",
      help: "Live 2025-era (legacy) sessions.",
      registers,
      collect() {
        this.set(guarded(sources().legacySessions, 0));
      },
    });
    new Gauge({
      name: "mcp_host_listen_streams",
      help: "Open long-lived streams: 2026-07-28 subscriptions/listen and 2025-era GET streams.",
      registers,
      collect() {
        this.set(guarded(sources().listenStreams, 0));
      },
    });
    new Gauge({
      name: "mcp_host_held_entries",
      help: "Entries in each structure clients can make the host keep (every one is bounded; docs/reliability.md).",
      labelNames: ["structure"],
      registers,
      collect() {
        this.reset();
        for (const [structure, entries] of Object.entries(guarded(sources().heldEntries, {}))) this.set({ structure }, entries);
      },
    });
    new Gauge({
      name: "mcp_host_extensions",
      help: "Extensions, by status.",
      labelNames: ["status"],
      registers,
      collect() {
        const statuses = guarded(sources().extensionStatuses, []);
        for (const status of EXTENSION_STATES) this.set({ status }, statuses.filter((s) => s.status === status).length);
      },
    });
    new Gauge({
      name: "mcp_host_tasks",
      help: "MCP tasks kept now, by status (working, input_required, completed, failed, cancelled).",
      labelNames: ["status"],
      registers,
      collect() {
        const counts = guarded(sources().tasks, {});
        for (const status of TASK_STATES) this.set({ status }, counts[status] ?? 0);
      },
    });
    const labels = this.labels;
    new Gauge({
      name: "mcp_host_upstream_up",
      help: "Each upstream server of the gateway: 1 when its state is the label's, else 0.",
      labelNames: ["server", "state"],
      registers,
      collect() {
        this.reset();
        for (const upstream of guarded(sources().upstreams, [])) {
          for (const state of UPSTREAM_STATES) this.set({ server: labels.server(upstream.server), state }, upstream.state === state ? 1 : 0);
        }
      },
    });
  }
}
