/**
 * Cold start of a stdio MCP server, timed from spawn to the first checked `tools/list` answer: spawn the
 * command, send the opening (2025: `initialize`, then `notifications/initialized`; 2026-07-28: `server/discover`
 * with the `_meta` envelope) and `tools/list`, check both answers, close stdin and wait for the exit. Calls given
 * after the list are timed one by one (send → answer), e.g. a tool's first call against its second.
 */
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { LEGACY, MODERN } from "./protocol.js";

export type StdioEra = "legacy" | "modern";

export interface ColdStart {
  /** Spawn → first tools/list answer read and checked (ms). */
  ms: number;
  /** Spawn → opening answer (ms). */
  openingMs: number;
  /**
   * CPU time the server's threads had spent by the first tools/list answer (ms; Linux `/proc/<pid>/task/<tid>/schedstat`,
   * undefined elsewhere): less sensitive than `ms` to other work on a shared machine.
   */
  cpuMs?: number;
  tools: number;
  /** Each call of `options.calls`, in order: send → answer (ms). */
  callMs: number[];
}

/** A tools/call to time after the first tools/list. */
export interface TimedCall {
  name: string;
  arguments: Record<string, unknown>;
}

/** The CPU time all threads of a live process have run, in ms, or undefined where /proc is not there. */
function cpuMsOf(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    let ns = 0;
    for (const tid of readdirSync(`/proc/${pid}/task`)) ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ")[0]);
    return ns / 1e6;
  } catch {
    return undefined;
  }
}

const META = {
  "io.modelcontextprotocol/protocolVersion": MODERN,
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "bench", version: "1.0.0" },
};

/** The environment a stdio server gets: ours, minus anything that would change which extensions mcp-host loads. */
export function stdioEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined && !key.startsWith("MCP_HOST")) env[key] = value;
  return env;
}

export async function coldStart(
  args: readonly string[],
  era: StdioEra,
  expectedTools: number,
  options: { timeoutMs?: number; calls?: readonly TimedCall[] } = {},
): Promise<ColdStart> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const started = performance.now();
  const child = spawn(process.execPath, args, { stdio: ["pipe", "pipe", "pipe"], env: stdioEnv() });
  let stderr = "";
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk: string) => (stderr = (stderr + chunk).slice(-2000)));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const waiting = new Map<number, (message: Record<string, any>) => void>();
  let buffer = "";
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk: string) => {
    buffer += chunk;
    for (let newline = buffer.indexOf("\n"); newline >= 0; newline = buffer.indexOf("\n")) {
      const line = buffer.slice(0, newline).trim();
      buffer = buffer.slice(newline + 1);
      if (!line) continue;
      try {
        const message = JSON.parse(line) as Record<string, any>;
        if (typeof message.id === "number") waiting.get(message.id)?.(message);
      } catch {
        // not protocol: a stdio server must not write it, and the answer we wait for will not come
      }
    }
  });
  const send = (message: unknown) => child.stdin.write(`${JSON.stringify(message)}\n`);
  const answer = (id: number) =>
    new Promise<Record<string, any>>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no answer to request ${id} within ${timeoutMs} ms; stderr: ${stderr}`)), timeoutMs);
      waiting.set(id, (message) => {
        clearTimeout(timer);
        resolve(message);
      });
      void exited.then(() => reject(new Error(`the server exited before answering request ${id}; stderr: ${stderr}`)));
    });
  try {
    const opened = answer(1);
    if (era === "legacy")
      send({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: "bench", version: "1.0.0" } },
      });
    else send({ jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: META } });
    const opening = await opened;
    const openingMs = performance.now() - started;
    if (!opening.result) throw new Error(`the opening failed: ${JSON.stringify(opening).slice(0, 300)}`);
    if (era === "legacy") send({ jsonrpc: "2.0", method: "notifications/initialized" });
    const listed = answer(2);
    send({ jsonrpc: "2.0", id: 2, method: "tools/list", params: era === "modern" ? { _meta: META } : {} });
    const list = await listed;
    const ms = performance.now() - started;
    const cpuMs = cpuMsOf(child.pid);
    const tools = (list.result?.tools ?? []) as Array<{ name: string }>;
    if (tools.length !== expectedTools || !tools.some((t) => t.name === "echo")) {
      throw new Error(`tools/list answered ${tools.length} tools (expected ${expectedTools}, echo among them): ${JSON.stringify(list).slice(0, 300)}`);
    }
    const callMs: number[] = [];
    for (const [index, call] of (options.calls ?? []).entries()) {
      const id = 3 + index;
      const called = answer(id);
      const sent = performance.now();
      send({ jsonrpc: "2.0", id, method: "tools/call", params: { name: call.name, arguments: call.arguments, ...(era === "modern" ? { _meta: META } : {}) } });
      const result = await called;
      callMs.push(performance.now() - sent);
      if (!result.result || result.result.isError) throw new Error(`tools/call ${call.name} failed: ${JSON.stringify(result).slice(0, 300)}`);
    }
    return { ms, openingMs, ...(cpuMs === undefined ? {} : { cpuMs }), tools: tools.length, callMs };
  } finally {
    child.stdin.end();
    const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
    await exited;
    clearTimeout(timer);
  }
}
