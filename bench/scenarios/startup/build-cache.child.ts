/**
 * In a fresh process: a 1000-tool selection's build on a cache miss (gather, onServer, compile every schema,
 * precompute the lists) against a cache hit (resolve the selection, find the build), through `host.build`.
 * Prints one `RESULT {json}` line.
 *
 *   node --import tsx bench/scenarios/startup/build-cache.child.ts '{"extraTools":1000,"misses":30,"hits":2000}'
 */
import { performance } from "node:perf_hooks";
import { buildHost, compiledOf, defineExtension, defineTool, parseSelection, silentLogger, type ToolSpec } from "../../servers/mcp-host-api.js";
import { ECHO_NAME, echoInput, echoResult, extraResult, extraTools } from "../../servers/tools.js";

const { extraTools: extra, misses, hits } = JSON.parse(process.argv[2] ?? "{}") as { extraTools: number; misses: number; hits: number };
const echo = defineTool({ name: ECHO_NAME, inputSchema: echoInput, handler: ({ text }) => echoResult(text) });
const tools: ToolSpec<any>[] = extraTools(extra).map((t) => ({ ...t, handler: () => extraResult() }));
const host = buildHost([defineExtension({ name: "bench", tools: [echo, ...tools] })], { name: "bench", logger: silentLogger, toolsetsTool: false });
await host.start();
const selection = parseSelection("");
const missMs: number[] = [];
const hitMs: number[] = [];
let built = 0;
for (let i = 0; i < misses; i += 1) {
  host.forgetBuilt();
  let started = performance.now();
  const fresh = await host.build(selection);
  missMs.push(performance.now() - started);
  built = fresh.toolNames.length;
  for (let j = 0; j < Math.ceil(hits / misses); j += 1) {
    started = performance.now();
    const cached = await host.build(selection);
    hitMs.push(performance.now() - started);
    if (compiledOf(cached) !== compiledOf(fresh)) throw new Error("a cache hit returned different tables than the build it hit");
  }
}
await host.stop();
if (built !== extra + 1) throw new Error(`built ${built} tools, expected ${extra + 1}`);
process.stdout.write(`RESULT ${JSON.stringify({ tools: built, missMs, hitMs })}\n`);
