/**
 * HTTP throughput of one `tools/call echo` (DESIGN.md §15): mcp-host side by side with the raw SDK v2 and a bare
 * node:http server (the floor), each with 1 tool and with 1000 extra tools, in one run. Each server lives in its own
 * child process (so one's heap, GC and async hooks do not tax another, and the server under load gets the other
 * core of a 2-core machine); this process is the closed-loop load generator (undici Pool, pipelining 1, N
 * connections), checks every response, and interleaves the servers over rounds so machine noise lands on all alike. Prints req/s, latency, CPU per request and ratios. Asserts no timing; exits 1 if
 * any answer was wrong (numbers over wrong answers mean nothing).
 *
 *   node --import tsx bench/http-throughput.bench.ts [--seconds 3] [--conns 8] [--rounds 2]
 */
import { fork, type ChildProcess } from "node:child_process";
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { toNodeHandler } from "@modelcontextprotocol/node";
import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import { Pool } from "undici";
import { z } from "zod";
import { defineExtension, defineTool, silentLogger, type ToolSpec } from "../src/index.js";
import { buildHost, listenHost } from "../src/deployment.js";

const EXTRA_TOOLS = 1000;
/** Before every measurement. */
const WARMUP_MS = 1000;
/** Once per server before round 1: a fresh process takes 4-5 s of load before its JIT settles (measured). */
const FIRST_WARMUP_MS = 4000;
const MODERN = "2026-07-28";
const LEGACY = "2025-11-25";

// ---------------------------------------------------------------------------------------------------------------
// The servers (child process)

type ServerId = "host-1" | "host-1000" | "sdk-1" | "sdk-1000" | "sdk-1-reads-body" | "bare";
type ToChild = { type: "cpu"; seq: number } | { type: "close" };
type FromChild = { type: "ready"; url: string } | { type: "cpu"; seq: number; micros: number };

const echoInput = z.object({ message: z.string() });
const echo = (message: string) => ({ content: [{ type: "text" as const, text: message }] });

/** The extra tools: one distinct, realistic zod schema each, made once (as a cached module would hold them). */
const extraTools: ToolSpec<any>[] = Array.from({ length: EXTRA_TOOLS }, (_, i) => ({
  name: `tool_${String(i).padStart(4, "0")}`,
  description: `Tool number ${i}: searches a space.`,
  inputSchema: z.object({ space: z.string(), limit: z.number().int().min(1).max(100).optional(), mode: z.enum(["fast", "thorough", "exact"]).default("fast") }),
  handler: () => echo("ok"),
}));

async function startHost(extra: boolean) {
  const echoTool = defineTool({ name: "echo", inputSchema: echoInput, handler: ({ message }) => echo(message) });
  const extension = defineExtension({ name: "bench", tools: [echoTool, ...(extra ? extraTools : [])] });
  const host = buildHost([extension], { name: "bench", logger: silentLogger, toolsetsTool: false });
  await host.start();
  return listenHost(host, { host: "127.0.0.1", port: 0 });
}

/** What a plain SDK user writes: a fresh McpServer with its tools registered, per request (the factory contract). */
function sdkServer(extra: boolean): McpServer {
  const server = new McpServer({ name: "bench", version: "1.0.0" });
  server.registerTool("echo", { inputSchema: echoInput }, ({ message }) => echo(message));
  if (extra) for (const tool of extraTools) server.registerTool(tool.name, { description: tool.description!, inputSchema: tool.inputSchema }, () => echo("ok"));
  return server;
}

/** Reads a request body and parses it as JSON; undefined when it is not JSON. (Listeners, not `for await`: cheaper.) */
function readJson(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve) => {
    let text = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (text += chunk));
    req.on("error", () => resolve(undefined));
    req.on("end", () => {
      try {
        resolve(JSON.parse(text));
      } catch {
        resolve(undefined);
      }
    });
  });
}

function parseError(res: ServerResponse): void {
  res.writeHead(400, { "content-type": "application/json" }).end('{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"},"id":null}');
}

/**
 * The raw SDK on bare node:http. By default the body is parsed here and passed as toNodeHandler's third argument
 * (as an express.json() app does); with `readsBody` toNodeHandler reads the stream itself.
 */
function startSdk(extra: boolean, readsBody = false) {
  const handler = createMcpHandler(() => sdkServer(extra));
  const node = toNodeHandler(handler);
  const serve = readsBody
    ? (req: IncomingMessage, res: ServerResponse) => void node(req, res)
    : (req: IncomingMessage, res: ServerResponse) =>
        void readJson(req).then((body) => (body === undefined ? parseError(res) : node(req, res, body)));
  return listen(createServer(serve), () => handler.close());
}

/** The floor: parse the JSON-RPC body, answer the echo result. No MCP machinery at all. */
async function bareHandler(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = (await readJson(req)) as { id?: unknown; method?: string; params?: { name?: string; arguments?: { message?: unknown } } } | undefined;
  if (body?.method !== "tools/call" || body.params?.name !== "echo" || typeof body.params.arguments?.message !== "string") return parseError(res);
  const reply = JSON.stringify({ jsonrpc: "2.0", id: body.id, result: echo(body.params.arguments.message) });
  res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(reply) }).end(reply);
}

async function listen(http: HttpServer, onClose: () => Promise<void> = async () => {}) {
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  const close = async () => {
    await onClose();
    http.closeAllConnections();
    await new Promise<void>((resolve) => http.close(() => resolve()));
  };
  return { url: new URL(`http://127.0.0.1:${port}/mcp`), close };
}

const STARTERS: Record<ServerId, () => Promise<{ url: URL; close(): Promise<void> }>> = {
  "host-1": () => startHost(false),
  "host-1000": () => startHost(true),
  "sdk-1": () => startSdk(false),
  "sdk-1000": () => startSdk(true),
  "sdk-1-reads-body": () => startSdk(false, true),
  bare: () => listen(createServer((req, res) => void bareHandler(req, res))),
};

/** Runs one server in this (child) process until the load generator says close or goes away. */
async function serveOne(id: ServerId): Promise<void> {
  const server = await STARTERS[id]();
  let closing: Promise<void> | undefined;
  const shutdown = () => (closing ??= server.close().finally(() => process.exit(0)));
  process.on("disconnect", shutdown); // the load generator went away: never linger
  process.on("message", (message: ToChild) => {
    if (message.type === "close") void shutdown();
    else {
      const { user, system } = process.cpuUsage();
      process.send!({ type: "cpu", seq: message.seq, micros: user + system } satisfies FromChild);
    }
  });
  process.send!({ type: "ready", url: server.url.href } satisfies FromChild);
}

// ---------------------------------------------------------------------------------------------------------------
// The load generator (this process)

interface Target {
  label: string;
  /** What the row is, printed as the table's legend. */
  what: string;
  server: ServerId;
  era: "modern" | "legacy";
}

const TARGETS: Target[] = [
  { label: "host 1", server: "host-1", era: "modern", what: "mcp-host via listenHost (express, DNS-rebinding check, selection, build cache), echo tool only, 2026-07-28" },
  { label: `host 1+${EXTRA_TOOLS}`, server: "host-1000", era: "modern", what: `the same host with ${EXTRA_TOOLS} more zod tools in the same toolset; same echo call` },
  { label: "sdk 1", server: "sdk-1", era: "modern", what: "raw SDK: createMcpHandler, factory = new McpServer + registerTool(echo) per request, toNodeHandler on node:http, body parsed by us" },
  { label: `sdk 1+${EXTRA_TOOLS}`, server: "sdk-1000", era: "modern", what: `the same with the ${EXTRA_TOOLS} zod tools also registered per request (schemas made once)` },
  { label: "sdk 1 (reads body)", server: "sdk-1-reads-body", era: "modern", what: "as sdk 1, but toNodeHandler reads the body stream itself (no parsed body passed)" },
  { label: "bare floor", server: "bare", era: "modern", what: "bare node:http: JSON.parse the body, answer the echo result directly (no MCP machinery)" },
  { label: "host 1 legacy", server: "host-1", era: "legacy", what: "host 1 in the 2025 era: initialize once, then tools/call with mcp-session-id (one shared session)" },
];

interface Sample {
  ok: number;
  failed: number;
  seconds: number;
  serverCpuMicros: number;
  loadCpuMicros: number;
  latencies: number[];
  bodyKinds: Set<string>;
  firstFailure?: string;
}

class ServerProcess {
  private seq = 0;
  private readonly waiting = new Map<number, { resolve(micros: number): void; reject(error: Error): void }>();
  private readonly exited: Promise<void>;

  constructor(readonly child: ChildProcess, readonly url: URL) {
    child.on("message", (message: FromChild) => {
      if (message.type === "cpu") this.waiting.get(message.seq)?.resolve(message.micros);
    });
    this.exited = new Promise((resolve) => child.once("exit", () => resolve()));
    void this.exited.then(() => {
      for (const wait of this.waiting.values()) wait.reject(new Error("the server process exited"));
    });
  }

  static async start(id: ServerId): Promise<ServerProcess> {
    const child = fork(fileURLToPath(import.meta.url), ["--serve", id], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
    const url = await new Promise<string>((resolve, reject) => {
      child.once("message", (message: FromChild) => (message.type === "ready" ? resolve(message.url) : reject(new Error("unexpected message"))));
      child.once("exit", (code) => reject(new Error(`the "${id}" server process exited early (code ${code})`)));
    });
    return new ServerProcess(child, new URL(url));
  }

  /** CPU time (user + system, µs) the server process has used so far. */
  cpu(): Promise<number> {
    const seq = (this.seq += 1);
    return new Promise((resolve, reject) => {
      this.waiting.set(seq, { resolve, reject });
      this.child.send({ type: "cpu", seq } satisfies ToChild);
    });
  }

  /** Asks the server process to close its servers and exit; kills it (by its pid) if it has not after 10 s. */
  async close(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    if (this.child.connected) this.child.send({ type: "close" } satisfies ToChild);
    const timer = setTimeout(() => this.child.kill(), 10_000);
    await this.exited;
    clearTimeout(timer);
  }
}

function headers(era: Target["era"], sessionId?: string): Record<string, string> {
  const common = { "content-type": "application/json", accept: "application/json, text/event-stream" };
  if (era === "legacy") return { ...common, "mcp-protocol-version": LEGACY, ...(sessionId ? { "mcp-session-id": sessionId } : {}) };
  return { ...common, "mcp-protocol-version": MODERN, "mcp-method": "tools/call", "mcp-name": "echo" };
}

function echoCall(era: Target["era"], id: number, message: string): string {
  const params: Record<string, unknown> = { name: "echo", arguments: { message } };
  if (era === "modern") params["_meta"] = { "io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": {} };
  return JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params });
}

/** The JSON-RPC messages of a JSON body or of an SSE stream's `data:` lines. */
function messagesOf(text: string, contentType: string): Array<Record<string, any>> {
  if (!contentType.includes("text/event-stream")) return text ? [JSON.parse(text)] : [];
  return text
    .split("\n")
    .filter((line) => line.startsWith("data:"))
    .map((line) => line.slice(5).trim())
    .filter(Boolean)
    .map((data) => JSON.parse(data));
}

/** Undefined when the response is HTTP 200 with this request's echoed text; otherwise what was wrong. */
function problemWith(status: number, contentType: string, text: string, id: number, message: string): string | undefined {
  if (status !== 200) return `HTTP ${status}: ${text.slice(0, 200)}`;
  const answer = messagesOf(text, contentType).find((m) => m["id"] === id);
  const result = answer?.["result"] as { content?: Array<{ text?: string }>; isError?: boolean } | undefined;
  if (!result || result.isError || result.content?.[0]?.text !== message) return `not the echo: ${text.slice(0, 200)}`;
  return undefined;
}

function firstHeader(value: string | string[] | undefined): string {
  return (Array.isArray(value) ? value[0] : value) ?? "";
}

async function openLegacySession(pool: Pool, path: string): Promise<string> {
  const initialize = { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: "bench", version: "1.0.0" } } };
  const init = await pool.request({ path, method: "POST", headers: headers("legacy"), body: JSON.stringify(initialize) });
  const text = await init.body.text();
  const sessionId = firstHeader(init.headers["mcp-session-id"]);
  if (init.statusCode !== 200 || !sessionId) throw new Error(`initialize failed: HTTP ${init.statusCode} ${text.slice(0, 200)}`);
  const initialized = await pool.request({ path, method: "POST", headers: headers("legacy", sessionId), body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) });
  await initialized.body.text();
  return sessionId;
}

let nextId = 1;

/** Closed loop: every connection sends its next call as soon as the previous answer is read and checked. */
async function drive(pool: Pool, path: string, target: Target, sessionId: string | undefined, conns: number, ms: number, sample: Sample): Promise<void> {
  const until = performance.now() + ms;
  const worker = async () => {
    while (performance.now() < until) {
      const id = nextId++;
      const message = `echo #${id}`;
      const started = performance.now();
      try {
        const response = await pool.request({ path, method: "POST", headers: headers(target.era, sessionId), body: echoCall(target.era, id, message) });
        const text = await response.body.text();
        const elapsed = performance.now() - started;
        const contentType = firstHeader(response.headers["content-type"]);
        const problem = problemWith(response.statusCode, contentType, text, id, message);
        sample.bodyKinds.add(contentType.includes("event-stream") ? "SSE" : "JSON");
        if (problem === undefined) {
          sample.ok += 1;
          sample.latencies.push(elapsed);
        } else {
          sample.failed += 1;
          sample.firstFailure ??= problem;
        }
      } catch (error) {
        sample.failed += 1;
        sample.firstFailure ??= String(error);
      }
    }
  };
  await Promise.all(Array.from({ length: conns }, worker));
}

function emptySample(): Sample {
  return { ok: 0, failed: 0, seconds: 0, serverCpuMicros: 0, loadCpuMicros: 0, latencies: [], bodyKinds: new Set() };
}

async function measure(server: ServerProcess, target: Target, conns: number, ms: number, warmupMs = WARMUP_MS): Promise<Sample> {
  const url = server.url;
  const pool = new Pool(url.origin, { connections: conns, pipelining: 1, headersTimeout: 10_000, bodyTimeout: 10_000 });
  try {
    const sessionId = target.era === "legacy" ? await openLegacySession(pool, url.pathname) : undefined;
    const warmup = emptySample();
    await drive(pool, url.pathname, target, sessionId, conns, warmupMs, warmup); // JIT, connections, caches
    const sample = emptySample();
    // Warm-up answers are checked too: a failure there is still a failure.
    sample.failed = warmup.failed;
    if (warmup.firstFailure) sample.firstFailure = warmup.firstFailure;
    const cpuBefore = await server.cpu();
    const loadBefore = process.cpuUsage();
    const started = performance.now();
    await drive(pool, url.pathname, target, sessionId, conns, ms, sample);
    sample.seconds = (performance.now() - started) / 1000;
    const load = process.cpuUsage(loadBefore);
    sample.loadCpuMicros = load.user + load.system;
    sample.serverCpuMicros = (await server.cpu()) - cpuBefore;
    if (sessionId) await (await pool.request({ path: url.pathname, method: "DELETE", headers: headers("legacy", sessionId) })).body.text();
    return sample;
  } finally {
    await pool.close();
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Report

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function percentile(sorted: number[], p: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : NaN;
}

interface Row {
  target: Target;
  /** The warm-up pass before round 1: not timed, but its answers are checked like the others. */
  firstWarmup?: Sample;
  samples: Sample[];
  rps: number;
}

function cells(row: Row, floor: number): string[] {
  const latencies = row.samples.flatMap((s) => s.latencies).sort((a, b) => a - b);
  const sum = (pick: (s: Sample) => number) => row.samples.reduce((n, s) => n + pick(s), 0);
  const seconds = sum((s) => s.seconds);
  const percent = (micros: number) => `${((micros / 1e6 / seconds) * 100).toFixed(0)}%`;
  return [
    row.rps.toFixed(0),
    row.samples.map((s) => (s.ok / s.seconds).toFixed(0)).join("/"),
    percentile(latencies, 50).toFixed(2),
    percentile(latencies, 99).toFixed(2),
    String(sum((s) => s.failed) + (row.firstWarmup?.failed ?? 0)),
    (sum((s) => s.serverCpuMicros) / Math.max(sum((s) => s.ok), 1)).toFixed(0),
    percent(sum((s) => s.serverCpuMicros)),
    percent(sum((s) => s.loadCpuMicros)),
    [...new Set(row.samples.flatMap((s) => [...s.bodyKinds]))].join("+"),
    `${(row.rps / floor).toFixed(3)}x`,
  ];
}

function report(rows: Row[], options: { seconds: number; conns: number; rounds: number }): void {
  const rps = (label: string) => rows.find((r) => r.target.label === label)!.rps;
  const width = Math.max(...rows.map((r) => r.target.label.length));
  console.log(`\nHTTP tools/call echo on 127.0.0.1, closed loop: ${options.conns} connections, ${options.seconds} s per measurement after ${WARMUP_MS / 1000} s warm-up,`);
  console.log(`${options.rounds} rounds interleaved, each server in its own process (warmed ${FIRST_WARMUP_MS / 1000} s first); Node ${process.version}. Rows:`);
  for (const row of rows) console.log(`  ${row.target.label.padEnd(width)}  ${row.target.what}`);
  console.log("req/s: median of the rounds (rounds: each one's req/s); p50/p99: over every checked response of all rounds;");
  console.log("srv: the server process's CPU (µs per request, and % of one core); load: this process's CPU (the load generator)\n");
  const head = ["req/s", "rounds", "p50 ms", "p99 ms", "errors", "srv µs/req", "srv CPU", "load CPU", "body", "vs floor"];
  const widths = [6, 11, 6, 6, 6, 10, 7, 8, 4, 8];
  console.log(`${"".padEnd(width)}  ${head.map((h, i) => h.padStart(widths[i]!)).join("  ")}`);
  const floor = rps("bare floor");
  for (const row of rows) console.log(`${row.target.label.padEnd(width)}  ${cells(row, floor).map((c, i) => c.padStart(widths[i]!)).join("  ")}`);
  const ratios: Array<[string, string, string]> = [
    ["mcp-host / raw SDK, 1 tool", "host 1", "sdk 1"],
    [`mcp-host / raw SDK, 1+${EXTRA_TOOLS} tools`, `host 1+${EXTRA_TOOLS}`, `sdk 1+${EXTRA_TOOLS}`],
    ["mcp-host / raw SDK reading the body itself, 1 tool", "host 1", "sdk 1 (reads body)"],
    [`mcp-host: 1+${EXTRA_TOOLS} tools / 1 tool`, `host 1+${EXTRA_TOOLS}`, "host 1"],
    [`raw SDK:  1+${EXTRA_TOOLS} tools / 1 tool`, `sdk 1+${EXTRA_TOOLS}`, "sdk 1"],
    ["mcp-host: legacy session / modern", "host 1 legacy", "host 1"],
  ];
  const ratioWidth = Math.max(...ratios.map(([name]) => name.length));
  console.log("\nratios of req/s (medians; > 1 means the first is faster):");
  for (const [name, a, b] of ratios) console.log(`  ${name.padEnd(ratioWidth)}  ${(rps(a) / rps(b)).toFixed(2)}x`);
  for (const row of rows) {
    const failure = [row.firstWarmup, ...row.samples].find((s) => s?.firstFailure)?.firstFailure;
    if (failure) console.log(`\nfirst failure of "${row.target.label}": ${failure}`);
  }
}

function positive(value: string | undefined, name: string, fallback: number): number {
  const number = value === undefined ? fallback : Number(value);
  if (!Number.isFinite(number) || number <= 0) throw new Error(`--${name} must be a positive number, got "${value}"`);
  return number;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { seconds: { type: "string" }, conns: { type: "string" }, rounds: { type: "string" } } });
  const options = {
    seconds: positive(values.seconds, "seconds", 3),
    conns: Math.round(positive(values.conns, "conns", 8)),
    rounds: Math.round(positive(values.rounds, "rounds", 2)),
  };
  const ids = [...new Set(TARGETS.map((t) => t.server))];
  const started = await Promise.allSettled(ids.map((id) => ServerProcess.start(id)));
  const servers = new Map(started.flatMap((s, i) => (s.status === "fulfilled" ? [[ids[i]!, s.value] as const] : [])));
  try {
    const failed = started.find((s): s is PromiseRejectedResult => s.status === "rejected");
    if (failed) throw failed.reason;
    const rows: Row[] = TARGETS.map((target) => ({ target, samples: [], rps: 0 }));
    // Warm every server process well once, so round 1 does not measure the JIT still at work.
    for (const row of rows) {
      process.stderr.write(`warm-up: ${row.target.label}\n`);
      row.firstWarmup = await measure(servers.get(row.target.server)!, row.target, options.conns, 0, FIRST_WARMUP_MS);
    }
    for (let round = 1; round <= options.rounds; round += 1) {
      for (const row of rows) {
        process.stderr.write(`round ${round}/${options.rounds}: ${row.target.label}\n`);
        row.samples.push(await measure(servers.get(row.target.server)!, row.target, options.conns, options.seconds * 1000));
      }
    }
    for (const row of rows) row.rps = median(row.samples.map((s) => s.ok / s.seconds));
    report(rows, options);
    // Numbers over wrong answers mean nothing: say so in the exit code too.
    if (rows.some((row) => [row.firstWarmup, ...row.samples].some((s) => s && s.failed > 0))) process.exitCode = 1;
  } finally {
    await Promise.all([...servers.values()].map((server) => server.close()));
  }
}

const serveIndex = process.argv.indexOf("--serve");
if (serveIndex >= 0) await serveOne(process.argv[serveIndex + 1] as ServerId);
else await main();
