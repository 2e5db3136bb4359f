/**
 * What a per-request server costs (docs/design.md §3, §15), for a build of 10 tools and one of 1000, side by side:
 * the host's `built.createServer()` over precomputed tables, against an SDK `McpServer` with the same zod tools
 * registered per request (what §3 avoids). Server side only: raw JSON-RPC over an in-memory pair, so the client's
 * own parsing of a large list is not counted. Prints medians and ratios; asserts nothing.
 *
 *   node --import tsx bench/per-request-server.bench.ts
 */
import { performance } from "node:perf_hooks";
import { createMcpHandler, InMemoryTransport, McpServer, type Server } from "@modelcontextprotocol/server";
import { z } from "zod";
import { buildHost, compiledOf, parseSelection, silentLogger, type BuiltServer, type ToolSpec } from "./servers/mcp-host-api.js";

const SIZES = [10, 1000] as const;
const CREATE_RUNS = 2000;
const LIST_RUNS = 200;
const MCP_SERVER_RUNS = 20;

/** One realistic zod input schema per tool, distinct objects (as separately written tools would have). */
function inputSchema() {
  return z.object({
    space: z.string().describe("the space to search"),
    limit: z.number().int().min(1).max(100).optional(),
    mode: z.enum(["fast", "thorough", "exact"]).default("fast"),
  });
}

function tools(count: number): ToolSpec<any>[] {
  return Array.from({ length: count }, (_, i) => ({
    name: `tool_${String(i).padStart(4, "0")}`,
    description: `Tool number ${i}: searches a space.`,
    inputSchema: inputSchema(),
    handler: () => ({ content: [{ type: "text" as const, text: "ok" }] }),
  }));
}

function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

async function measure(runs: number, once: () => unknown): Promise<number> {
  for (let i = 0; i < Math.min(20, runs); i += 1) await once(); // warm up
  const samples: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const start = performance.now();
    await once();
    samples.push(performance.now() - start);
  }
  return median(samples);
}

/** Connects a server to an in-memory pair, does the 2025 handshake and one tools/list; returns the tool count. */
async function handshakeAndList(server: Pick<Server, "connect" | "close">): Promise<number> {
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  const waiting = new Map<number, (message: Record<string, unknown>) => void>();
  clientSide.onmessage = (message) => {
    const id = (message as { id?: number }).id;
    if (typeof id === "number") waiting.get(id)?.(message as Record<string, unknown>);
  };
  await server.connect(serverSide);
  await clientSide.start();
  const request = (id: number, method: string, params: Record<string, unknown>) =>
    new Promise<Record<string, unknown>>((resolve) => {
      waiting.set(id, resolve);
      void clientSide.send({ jsonrpc: "2.0", id, method, params });
    });
  await request(1, "initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench", version: "1.0.0" } });
  await clientSide.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  const listed = await request(2, "tools/list", {});
  await server.close();
  return (listed.result as { tools: unknown[] }).tools.length;
}

/** A 2026-07-28 tools/list POST through the SDK's per-request handler, as the host serves the modern era. */
function modernListRequest(): Request {
  return new Request("http://bench.local/mcp", {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/list",
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/list",
      params: {
        _meta: {
          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientCapabilities": {},
          "io.modelcontextprotocol/clientInfo": { name: "bench", version: "1.0.0" },
        },
      },
    }),
  });
}

async function modernList(handler: ReturnType<typeof createMcpHandler>): Promise<number> {
  const response = await handler.fetch(modernListRequest());
  const body = (await response.json()) as { result?: { tools: unknown[] }; error?: unknown };
  if (!body.result) throw new Error(`tools/list failed: ${JSON.stringify(body.error)}`);
  return body.result.tools.length;
}

function mcpServerWith(specs: ToolSpec<any>[]): McpServer {
  const server = new McpServer({ name: "bench", version: "1.0.0" });
  for (const spec of specs) {
    server.registerTool(spec.name, { description: spec.description!, inputSchema: spec.inputSchema }, () => ({
      content: [{ type: "text" as const, text: "ok" }],
    }));
  }
  return server;
}

interface Row {
  label: string;
  values: Record<number, number>;
}

async function main(): Promise<void> {
  const builds = new Map<number, BuiltServer>();
  const specs = new Map<number, ToolSpec<any>[]>();
  for (const size of SIZES) {
    specs.set(size, tools(size));
    const host = buildHost([{ name: "bench", tools: specs.get(size)! }], { name: "bench", logger: silentLogger, toolsetsTool: false });
    await host.start();
    const built = await host.build(parseSelection(""));
    if (built.toolNames.length !== size) throw new Error(`expected ${size} tools, built ${built.toolNames.length}`);
    builds.set(size, built);
  }

  const rows: Row[] = [
    { label: "host: built.createServer()", values: {} },
    { label: "host: createServer + handshake + tools/list (legacy, in-memory)", values: {} },
    { label: "host: modern tools/list via createMcpHandler (fresh server per request)", values: {} },
    { label: "reference: JSON.stringify of the tools/list result alone", values: {} },
    { label: "McpServer: new + registerTool xN + handshake + tools/list", values: {} },
    { label: "McpServer: modern tools/list via createMcpHandler (tools registered per request)", values: {} },
  ];
  for (const size of SIZES) {
    const built = builds.get(size)!;
    rows[0]!.values[size] = await measure(CREATE_RUNS, () => built.createServer({ era: "legacy" }));
    rows[1]!.values[size] = await measure(LIST_RUNS, async () => {
      if ((await handshakeAndList(built.createServer({ era: "legacy" }))) !== size) throw new Error("wrong tool count");
    });
    const hostHandler = createMcpHandler(() => built.createServer({ era: "modern" }));
    rows[2]!.values[size] = await measure(LIST_RUNS, async () => {
      if ((await modernList(hostHandler)) !== size) throw new Error("wrong tool count");
    });
    await hostHandler.close();
    rows[3]!.values[size] = await measure(LIST_RUNS, () => JSON.stringify({ tools: compiledOf(built).protocol.tables.tools }));
    const runs = size >= 1000 ? MCP_SERVER_RUNS : LIST_RUNS;
    rows[4]!.values[size] = await measure(runs, async () => {
      if ((await handshakeAndList(mcpServerWith(specs.get(size)!))) !== size) throw new Error("wrong tool count");
    });
    const sdkHandler = createMcpHandler(() => mcpServerWith(specs.get(size)!));
    rows[5]!.values[size] = await measure(runs, async () => {
      if ((await modernList(sdkHandler)) !== size) throw new Error("wrong tool count");
    });
    await sdkHandler.close();
  }

  const ms = (value: number) => (value < 1 ? `${(value * 1000).toFixed(1)} µs` : `${value.toFixed(2)} ms`);
  console.log(
    `per-request server cost, medians (Node ${process.version}; create x${CREATE_RUNS}, host lists x${LIST_RUNS}, McpServer x${LIST_RUNS}/${MCP_SERVER_RUNS})\n`,
  );
  const width = Math.max(...rows.map((r) => r.label.length));
  console.log(`${"".padEnd(width)}  ${"10 tools".padStart(10)}  ${"1000 tools".padStart(10)}  ${"1000/10".padStart(8)}`);
  for (const row of rows) {
    const small = row.values[10]!;
    const large = row.values[1000]!;
    console.log(`${row.label.padEnd(width)}  ${ms(small).padStart(10)}  ${ms(large).padStart(10)}  ${(large / small).toFixed(2).padStart(7)}x`);
  }
  console.log("");
  console.log(`McpServer / host at 1000 tools, legacy handshake + tools/list: ${(rows[4]!.values[1000]! / rows[1]!.values[1000]!).toFixed(1)}x`);
  console.log(`McpServer / host at 1000 tools, modern tools/list:            ${(rows[5]!.values[1000]! / rows[2]!.values[1000]!).toFixed(1)}x`);
}

await main();
