/**
 * Cold start of a stdio MCP server, timed from spawn to the first checked `tools/list` answer: spawn the
 * command, send the opening (2025: `initialize`, then `notifications/initialized`; 2026-07-28: `server/discover`
 * with the `_meta` envelope) and `tools/list`, check both answers, close stdin and wait for the exit.
 */
import { spawn } from "node:child_process";
import { performance } from "node:perf_hooks";
import { LEGACY, MODERN } from "./protocol.js";

export type StdioEra = "legacy" | "modern";

export interface ColdStart {
  /** Spawn → first tools/list answer read and checked (ms). */
  ms: number;
  /** Spawn → opening answer (ms). */
  openingMs: number;
  tools: number;
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

export async function coldStart(args: readonly string[], era: StdioEra, expectedTools: number, timeoutMs = 60_000): Promise<ColdStart> {
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
    const tools = (list.result?.tools ?? []) as Array<{ name: string }>;
    if (tools.length !== expectedTools || !tools.some((t) => t.name === "echo")) {
      throw new Error(`tools/list answered ${tools.length} tools (expected ${expectedTools}, echo among them): ${JSON.stringify(list).slice(0, 300)}`);
    }
    return { ms, openingMs, tools: tools.length };
  } finally {
    child.stdin.end();
    const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
    await exited;
    clearTimeout(timer);
  }
}
