/**
 * What a huge upstream answer costs the host that reads it (issue 30 §1): a gateway host over the unruly upstreams
 * (test/fixtures/upstream/unruly-*.mjs) is called once per case — a 16 MiB SSE `data:` line and a 300 MiB JSON body,
 * both forwarded and through an SDK client round (a tool with an outputSchema), and a 300 MiB stdio line — and the
 * serving process is watched meanwhile: how long the call took, the event loop's longest delay, the slowest
 * `/healthz`, and the resident memory's peak. Each case runs in a fresh process, so one case's memory is not the
 * next one's. Asserts nothing.
 *
 *   node --import tsx bench/upstream-answers.bench.ts [--case json-300mib] [--max-result-bytes 8388608]
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { silentLogger } from "../src/index.js";
import { buildHost, listenHost } from "../src/entries/host.js";
import { createGateway } from "../src/entries/gateway.js";
import { startUnrulyHttp, unrulyStdio, watchServing } from "./lib/unruly-upstream.js";

const MIB = 1 << 20;

/** Each case: the server, the tool and its arguments. */
const CASES: Record<string, { server: "web" | "pipe"; tool: string; args: Record<string, unknown> }> = {
  "sse-16mib": { server: "web", tool: "text", args: { bytes: 16 * MIB, via: "sse" } },
  "json-300mib": { server: "web", tool: "text", args: { bytes: 300 * MIB, via: "json" } },
  "sdk-sse-16mib": { server: "web", tool: "checked_text", args: { bytes: 16 * MIB, via: "sse" } },
  "sdk-json-300mib": { server: "web", tool: "checked_text", args: { bytes: 300 * MIB, via: "json" } },
  "stdio-300mib": { server: "pipe", tool: "text", args: { bytes: 300 * MIB } },
};

const CASE_TIMEOUT_MS = 300_000;

/** One case, in this process: prints its figures as one JSON line. */
async function runOne(name: string, maxResultBytes: number): Promise<void> {
  const ends: Array<() => Promise<void>> = [];
  try {
    const { tool, server, args } = CASES[name]!;
    const web = await startUnrulyHttp((stop) => ends.push(stop));
    const gateway = createGateway({
      servers: { web: { url: web.url, era: "legacy", timeoutMs: CASE_TIMEOUT_MS }, pipe: { ...unrulyStdio(), timeoutMs: CASE_TIMEOUT_MS } },
      logger: silentLogger,
      maxResultBytes,
    } as Parameters<typeof createGateway>[0]);
    const host = buildHost([gateway.extension], { name: "bench", logger: silentLogger, toolLimits: { maxResultBytes } });
    await host.start();
    const served = await listenHost(host, { port: 0, host: "127.0.0.1" });
    ends.push(() => served.close());
    const client = new Client({ name: "bench", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${served.url.href}?only=${server}`)));
    ends.push(() => client.close());
    await client.callTool({ name: "echo", arguments: { text: "warm" } });
    const watch = watchServing(new URL("/healthz", served.url));
    const started = performance.now();
    const result = await client.callTool({ name: tool, arguments: args }, { timeout: CASE_TIMEOUT_MS });
    const ms = performance.now() - started;
    const figures = await watch.stop();
    const text = JSON.stringify(result.content).slice(0, 160);
    process.stdout.write(`${JSON.stringify({ name, ms, ...figures, isError: result.isError === true, text })}\n`);
  } finally {
    for (const end of ends.reverse()) await end().catch(() => undefined);
  }
}

/** Every case, each in a child process; prints a table. */
async function runAll(names: string[], maxResultBytes: number): Promise<void> {
  const self = fileURLToPath(import.meta.url);
  process.stdout.write(`| case | call | loop max delay | slowest /healthz (count) | RSS start → peak | answer |\n|---|---|---|---|---|---|\n`);
  for (const name of names) {
    const child = spawn(process.execPath, ["--import", "tsx", self, "--one", name, "--max-result-bytes", String(maxResultBytes)], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), CASE_TIMEOUT_MS + 30_000);
    const code = await new Promise<number | null>((resolve) => child.once("close", (c) => resolve(c)));
    clearTimeout(timer);
    const line = out.trim().split("\n").pop() ?? "";
    if (!line.startsWith("{")) {
      process.stdout.write(`| ${name} | did not finish (exit ${code}) | | | | |\n`);
      continue;
    }
    const f = JSON.parse(line) as Record<string, number | string | boolean>;
    const mib = (n: unknown) => `${Math.round(Number(n) / MIB)} MiB`;
    const ms = (n: unknown) => `${Math.round(Number(n))} ms`;
    process.stdout.write(
      `| ${name} | ${ms(f.ms)} | ${ms(f.loopMaxMs)} | ${ms(f.healthzMaxMs)} (${f.healthzCount}${f.healthzFailed ? `, ${f.healthzFailed} failed` : ""}) | ${mib(f.rssStart)} → ${mib(f.rssPeak)} | ${f.isError ? "isError " : ""}${String(f.text).slice(0, 100)} |\n`,
    );
  }
}

const { values } = parseArgs({ options: { case: { type: "string", multiple: true }, one: { type: "string" }, "max-result-bytes": { type: "string" } } });
const maxResultBytes = Number(values["max-result-bytes"] ?? 8 * MIB);
if (values.one !== undefined) await runOne(values.one, maxResultBytes);
else await runAll(values.case ?? Object.keys(CASES), maxResultBytes);
