/**
 * What tool isolation costs (docs/design.md §16): the same tools called on the host's main thread and in a worker
 * thread (`isolation`), side by side in one run — per-call latency (one call at a time) and throughput (N calls in
 * flight), for a trivial tool and for text_stats on a small and a large text — with the ratios isolated / main.
 * Calls go through a real host and a real SDK client over an in-memory pair (the 2025 era), so the numbers are the
 * tools/call path itself, without HTTP. Asserts nothing; exits 1 if any answer is wrong.
 *
 * This file is also the module the isolated variant names: a worker imports it to find the tools, so everything
 * that measures runs only on the main thread.
 *
 *   node --import tsx bench/isolation-cost.bench.ts [--calls 2000] [--seconds 3] [--concurrency 8] [--rounds 2]
 */
import { availableParallelism, cpus, loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { isMainThread } from "node:worker_threads";
import { Client } from "@modelcontextprotocol/client";
import { InMemoryTransport } from "@modelcontextprotocol/server";
import { textStats, textStatsTool } from "../plugins/text/src/stats.js";
import { defineExtension, silentLogger, type McpExtension, type ToolSpec } from "../src/index.js";
import { buildHost, parseSelection, type McpHost } from "../src/entries/host.js";

const echo: ToolSpec<any> = {
  name: "echo",
  inputSchema: { type: "object", properties: { message: { type: "string" } }, required: ["message"] },
  handler: (args: { message: string }) => ({ content: [{ type: "text", text: args.message }] }),
};

/** The same tools twice: on the main thread, and in workers (this module is what the workers import). */
export const extensions: McpExtension[] = [
  defineExtension({ name: "main", tools: [echo, { ...textStatsTool, isolation: undefined }] }),
  defineExtension({ name: "isolated", isolation: { module: import.meta.url, cpuMs: 60_000 }, tools: [echo, { ...textStatsTool, isolation: undefined }] }),
];

type Variant = "main" | "isolated";

interface Workload {
  label: string;
  tool: string;
  args: Record<string, unknown>;
  /** Checks an answer; returns what was wrong, or undefined. */
  check(result: { isError?: boolean; content?: unknown; structuredContent?: Record<string, unknown> }): string | undefined;
}

const PROSE = "Hello, world! Don't panic. This is ordinary prose with some words in it, e.g. this one.\n";

function statsWorkload(label: string, length: number): Workload {
  const text = PROSE.repeat(Math.ceil(length / PROSE.length)).slice(0, length);
  const { words } = textStats(text);
  return {
    label,
    tool: "text_stats",
    args: { text },
    check: (r) =>
      r.isError || r.structuredContent?.characters !== length || r.structuredContent?.words !== words ? JSON.stringify(r).slice(0, 300) : undefined,
  };
}

const WORKLOADS: Workload[] = [
  {
    label: "echo (trivial)",
    tool: "echo",
    args: { message: "hi" },
    check: (r) => ((r.content as Array<{ text?: string }> | undefined)?.[0]?.text === "hi" ? undefined : JSON.stringify(r).slice(0, 300)),
  },
  statsWorkload("text_stats 1 KB", 1_000),
  statsWorkload("text_stats 100 KB", 100_000),
];

interface Connected {
  host: McpHost;
  clients: Record<Variant, Client>;
  close(): Promise<void>;
}

async function connect(): Promise<Connected> {
  const host = buildHost(extensions, { name: "isolation-bench", logger: silentLogger, eventLoopWarnMs: false });
  await host.start();
  const clients = {} as Record<Variant, Client>;
  const closers: Array<() => Promise<void>> = [];
  for (const variant of ["main", "isolated"] as const) {
    const built = await host.build(parseSelection(`only=${variant}`));
    const server = built.createServer({ era: "legacy" });
    const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: `bench-${variant}`, version: "1.0.0" });
    await client.connect(clientSide);
    clients[variant] = client;
    closers.push(async () => {
      await client.close();
      await server.close();
    });
  }
  return {
    host,
    clients,
    close: async () => {
      for (const close of closers) await close();
      await host.stop();
    },
  };
}

async function callChecked(client: Client, work: Workload): Promise<void> {
  const result = (await client.callTool({ name: work.tool, arguments: work.args })) as Parameters<Workload["check"]>[0];
  const wrong = work.check(result);
  if (wrong !== undefined) {
    console.error(`wrong answer from ${work.tool}: ${wrong}`);
    process.exit(1);
  }
}

function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

function median(values: readonly number[]): number {
  return quantile(
    [...values].sort((a, b) => a - b),
    0.5,
  );
}

interface Sample {
  p50: number;
  p99: number;
  perSecond: number;
  /** CPU of the whole process (every thread) per call, in µs. */
  cpuPerCall: number;
}

/** `calls` calls one after another: latency percentiles; then `concurrency` loops for `seconds`: calls per second. */
async function measure(client: Client, work: Workload, options: { calls: number; seconds: number; concurrency: number }): Promise<Sample> {
  const times: number[] = [];
  for (let i = 0; i < options.calls; i++) {
    const start = performance.now();
    await callChecked(client, work);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const cpuBefore = process.cpuUsage();
  const until = performance.now() + options.seconds * 1000;
  let done = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: options.concurrency }, async () => {
      while (performance.now() < until) {
        await callChecked(client, work);
        done++;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  return { p50: quantile(times, 0.5), p99: quantile(times, 0.99), perSecond: done / elapsed, cpuPerCall: (cpu.user + cpu.system) / done };
}

function ms(value: number): string {
  const size = Math.abs(value);
  return size < 1 ? `${(value * 1000).toFixed(0)} µs` : `${value.toFixed(2)} ms`;
}

function signed(value: number): string {
  return `${value < 0 ? "" : "+"}${ms(value)}`;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      calls: { type: "string", default: "2000" },
      seconds: { type: "string", default: "3" },
      concurrency: { type: "string", default: "8" },
      rounds: { type: "string", default: "2" },
    },
  });
  const options = { calls: Number(values.calls), seconds: Number(values.seconds), concurrency: Number(values.concurrency) };
  const rounds = Number(values.rounds);
  const loadBefore = loadavg();
  const connected = await connect();
  try {
    // The first isolated call starts a worker and imports this module in it: measured once, on its own.
    const coldStart = performance.now();
    await callChecked(connected.clients.isolated, WORKLOADS[0]!);
    const cold = performance.now() - coldStart;
    for (const work of WORKLOADS)
      for (const variant of ["main", "isolated"] as const) for (let i = 0; i < 200; i++) await callChecked(connected.clients[variant], work);
    const samples = new Map<string, Sample[]>();
    for (let round = 0; round < rounds; round++) {
      for (const work of WORKLOADS) {
        for (const variant of ["main", "isolated"] as const) {
          const sample = await measure(
            connected.clients[variant],
            work,
            work.label.includes("100 KB") ? { ...options, calls: Math.ceil(options.calls / 20) } : options,
          );
          const key = `${work.label}\u0000${variant}`;
          samples.set(key, [...(samples.get(key) ?? []), sample]);
        }
      }
    }
    report(samples, { cold, loadBefore, rounds, options });
  } finally {
    await connected.close();
  }
}

function report(
  samples: Map<string, Sample[]>,
  run: { cold: number; loadBefore: number[]; rounds: number; options: { calls: number; seconds: number; concurrency: number } },
): void {
  const cpu = cpus()[0]?.model ?? "unknown CPU";
  console.log(`Node ${process.version}, ${availableParallelism()} cores (${cpu}), ${run.rounds} rounds, medians across rounds`);
  console.log(
    `load average before: ${run.loadBefore.map((l) => l.toFixed(2)).join(" ")}; after: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
  console.log(
    `latency: ${run.options.calls} calls one at a time (100 KB: a twentieth); throughput: ${run.options.concurrency} in flight for ${run.options.seconds} s`,
  );
  console.log(`first isolated call (starts a worker, imports the module): ${ms(run.cold)}\n`);
  const header = `${"".padEnd(20)}${"variant".padEnd(10)}${"p50".padStart(10)}${"p99".padStart(10)}${"calls/s".padStart(10)}${"CPU/call".padStart(11)}`;
  console.log(header);
  const ratios: string[] = [];
  for (const work of WORKLOADS) {
    const pick = (variant: Variant) => {
      const list = samples.get(`${work.label}\u0000${variant}`)!;
      return {
        p50: median(list.map((s) => s.p50)),
        p99: median(list.map((s) => s.p99)),
        perSecond: median(list.map((s) => s.perSecond)),
        cpu: median(list.map((s) => s.cpuPerCall)),
      };
    };
    const main = pick("main");
    const isolated = pick("isolated");
    for (const [variant, s] of [
      ["main", main],
      ["isolated", isolated],
    ] as const) {
      console.log(
        `${work.label.padEnd(20)}${variant.padEnd(10)}${ms(s.p50).padStart(10)}${ms(s.p99).padStart(10)}${s.perSecond.toFixed(0).padStart(10)}${`${s.cpu.toFixed(0)} µs`.padStart(11)}`,
      );
    }
    ratios.push(
      `  ${work.label.padEnd(20)} p50 ${(isolated.p50 / main.p50).toFixed(2)}x (${signed(isolated.p50 - main.p50)})   calls/s ${(isolated.perSecond / main.perSecond).toFixed(2)}x   CPU/call ${(isolated.cpu / main.cpu).toFixed(2)}x`,
    );
  }
  console.log("\nisolated / main:");
  for (const line of ratios) console.log(line);
}

if (isMainThread) await main();
