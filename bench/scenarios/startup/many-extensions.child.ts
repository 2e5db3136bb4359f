/**
 * In a fresh process: start-up of a host with many extensions (100 × 50 = 5000 zod tools), phase by phase —
 * define the extensions, buildHost + start, the first build of the whole selection, listen, the first 2026-07-28
 * tools/list answered over HTTP. Prints one `RESULT {json}` line.
 *
 *   node --import tsx bench/scenarios/startup/many-extensions.child.ts '{"extensions":100,"toolsEach":50}'
 */
import { performance } from "node:perf_hooks";
import { z } from "zod";
import { buildHost, defineExtension, listenHost, parseSelection, silentLogger, type McpExtension, type ToolSpec } from "../../servers/mcp-host-api.js";
import { MODERN } from "../../lib/protocol.js";

const { extensions: count, toolsEach } = JSON.parse(process.argv[2] ?? "{}") as { extensions: number; toolsEach: number };
const t0 = performance.now();
const extensions: McpExtension[] = Array.from({ length: count }, (_, e) => {
  const name = `ext${String(e).padStart(3, "0")}`;
  const tools: ToolSpec<any>[] = Array.from({ length: toolsEach }, (_, t) => ({
    name: `${name}_tool_${String(t).padStart(2, "0")}`,
    description: `Tool ${t} of ${name}: searches a space.`,
    inputSchema: z.object({
      space: z.string(),
      limit: z.number().int().min(1).max(100).optional(),
      mode: z.enum(["fast", "thorough", "exact"]).default("fast"),
    }),
    handler: () => ({ content: [{ type: "text" as const, text: "ok" }] }),
  }));
  return defineExtension({ name, toolsets: [{ name, description: `The tools of ${name}` }], tools });
});
const tDefined = performance.now();
const host = buildHost(extensions, { name: "bench", logger: silentLogger, toolsetsTool: false });
await host.start();
const tStarted = performance.now();
const built = await host.build(parseSelection(""));
const tBuilt = performance.now();
const served = await listenHost(host, { host: "127.0.0.1", port: 0 });
const tListening = performance.now();
const response = await fetch(served.url, {
  method: "POST",
  headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": MODERN, "mcp-method": "tools/list" },
  body: JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/list",
    params: { _meta: { "io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": {} } },
  }),
});
const listed = (await response.json()) as { result?: { tools: unknown[] } };
const tAnswered = performance.now();
const uptimeMs = process.uptime() * 1000;
await served.close();
const tools = listed.result?.tools.length ?? 0;
if (tools !== count * toolsEach || built.toolNames.length !== count * toolsEach)
  throw new Error(`listed ${tools} tools and built ${built.toolNames.length}, expected ${count * toolsEach}`);
process.stdout.write(
  `RESULT ${JSON.stringify({
    tools,
    defineMs: tDefined - t0,
    startMs: tStarted - tDefined,
    firstBuildMs: tBuilt - tStarted,
    listenMs: tListening - tBuilt,
    firstAnswerMs: tAnswered - tListening,
    hostReadyMs: tAnswered - tDefined,
    processUptimeMs: uptimeMs,
  })}\n`,
);
