/**
 * Scenario 6, `search`: how well tool-search mode finds the tool a request means, and what a search costs. The
 * catalogue (bench/fixtures/search/catalogue.json) is the first-party plugins and server-everything as this
 * repository serves them plus generated services that read like real MCP servers — 516 tools in 74 toolsets — and
 * 182 requests written as people ask, each with its intended tool. Every request goes through a real client's
 * `tools/call find_tools` on `?all&search` (in-process: the SDK client and server over the in-memory pair), and
 * recall@1, recall@5 and MRR (over the 25 results find_tools gives at most) are computed from the ranks. Latency is
 * measured on the catalogue and on 5 000 tools (the catalogue ten times over, as ten look-alike gateways would
 * mount it), after the first search made the index: the whole call over the SDK's 2025 in-memory pair (the protocol
 * path alone), the same through the in-process 2026-07-28 handler, and the search alone (the tool's handler).
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { fixed } from "../lib/format.js";
import { percentile } from "../lib/stats.js";
import { point, target } from "../lib/targets.js";
import { buildHost, compiledOf, connectInProcess, type McpExtension, parseSelection, silentLogger } from "../servers/mcp-host-api.js";
import { emptyOutcome, type Scenario } from "./scenario.js";

interface CatalogueTool {
  toolset: string;
  name: string;
  title?: string;
  description: string;
  inputSchema: Record<string, unknown>;
  annotations?: Record<string, unknown>;
}
interface Catalogue {
  toolsets: Array<{ name: string; title: string; description?: string }>;
  tools: CatalogueTool[];
}
interface Query {
  query: string;
  tool: string;
}

const FIXTURES = (name: string) => fileURLToPath(new URL(`../fixtures/search/${name}`, import.meta.url));
const MAX_LIMIT = 25;
const BIG = 5_000;

function loadFixtures(): { catalogue: Catalogue; queries: Query[] } {
  const catalogue = JSON.parse(readFileSync(FIXTURES("catalogue.json"), "utf8")) as Catalogue;
  const queries = (JSON.parse(readFileSync(FIXTURES("queries.json"), "utf8")) as { queries: Query[] }).queries;
  return { catalogue, queries };
}

/** One extension per copy of the catalogue; copy n > 1 puts every toolset under `<name>-<n>`. */
function extensionsOf(catalogue: Catalogue, copies: number): McpExtension[] {
  const extensions: McpExtension[] = [];
  for (let copy = 1; copy <= copies; copy += 1) {
    const suffix = copy === 1 ? "" : `-${copy}`;
    extensions.push({
      name: `catalogue${suffix}`,
      toolsets: catalogue.toolsets.map((t) => ({ ...t, name: `${t.name}${suffix}` })),
      tools: catalogue.tools.map((tool) => ({
        ...tool,
        toolset: `${tool.toolset}${suffix}`,
        inputSchema: tool.inputSchema as never,
        handler: () => ({ content: [{ type: "text", text: tool.name }] }),
      })),
    });
  }
  return extensions;
}

type Found = { structuredContent?: { tools: Array<{ name: string; toolset?: string }>; searched: number } };

async function served(catalogue: Catalogue, copies: number) {
  const host = buildHost(extensionsOf(catalogue, copies), { name: "search-bench", logger: silentLogger });
  await host.start();
  // The 2025 in-memory pair is the protocol path alone; the in-process 2026-07-28 handler adds the SDK entry's web
  // Request/Response copies per call (which HTTP serving's fast path skips) and a selection lookup per request.
  const legacy = await connectInProcess(host, "all&search", { era: "legacy" });
  const modern = await connectInProcess(host, "all&search", { era: "modern" });
  const built = await host.build(parseSelection("all&search"));
  const find = compiledOf(built).protocol.tables.toolByName.get("find_tools")!;
  const over = (connection: typeof legacy) => async (query: string, limit: number) =>
    ((await connection.client.callTool({ name: "find_tools", arguments: { query, limit } })) as Found).structuredContent!;
  return {
    call: over(legacy),
    callModern: over(modern),
    /** The search alone: the tool's handler, as call-tool.ts runs it after validation. */
    handler: (query: string) => find.handler({ query, limit: 5 }, {} as never),
    close: async () => {
      await legacy.close();
      await modern.close();
      await host.stop();
    },
  };
}

async function timed(times: number, queries: readonly Query[], run: (query: string) => unknown): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < times; i += 1) {
    const started = performance.now();
    await run(queries[i % queries.length]!.query);
    samples.push(performance.now() - started);
  }
  return samples.sort((a, b) => a - b);
}

export const searchScenario: Scenario = {
  name: "search",
  title: "Scenario 6 — search: tool-search mode's retrieval quality and latency",
  about:
    "516 tools (the first-party plugins, server-everything, and generated services that read like real MCP servers) and 182 requests as people write them, each with its intended tool. Each request is a real find_tools call on ?all&search; recall@1, recall@5 and MRR come from the intended tool's rank. Latency: find_tools p50/p95 on the catalogue and on 5 000 tools, the whole call in-process and the search alone, once the first search made the index.",
  async run(context) {
    const outcome = emptyOutcome();
    const { catalogue, queries } = loadFixtures();
    const small = await served(catalogue, 1);
    const ranks: number[] = [];
    const misses: string[] = [];
    try {
      for (const { query, tool } of queries) {
        const answer = await small.call(query, MAX_LIMIT);
        const [toolset, name] = [tool.slice(0, tool.indexOf(".")), tool.slice(tool.indexOf(".") + 1)];
        const rank = answer.tools.findIndex((t) => t.name === name && t.toolset === toolset) + 1;
        ranks.push(rank);
        if (rank === 0 || rank > 5)
          misses.push(
            `"${query}" → ${tool} ranked ${rank === 0 ? `below ${MAX_LIMIT}` : rank}; got ${answer.tools
              .slice(0, 3)
              .map((t) => t.name)
              .join(", ")}`,
          );
      }
    } finally {
      await small.close();
    }
    const recallAt = (k: number) => ranks.filter((r) => r > 0 && r <= k).length / ranks.length;
    const mrr = ranks.reduce((sum, r) => sum + (r > 0 ? 1 / r : 0), 0) / ranks.length;

    const times = context.options.quick ? 200 : 2_000;
    const latency: Array<{ tools: number; call: number[]; modern: number[]; search: number[]; indexMs: number }> = [];
    for (const copies of [1, BIG / 500]) {
      const subject = await served(catalogue, copies);
      try {
        const started = performance.now();
        const searched = (await subject.call(queries[0]!.query, 1)).searched;
        const madeIndex = performance.now() - started;
        const call = await timed(times, queries, (q) => subject.call(q, 5));
        const modern = await timed(times, queries, (q) => subject.callModern(q, 5));
        const search = await timed(times, queries, (q) => subject.handler(q));
        latency.push({ tools: searched, call, modern, search, indexMs: madeIndex });
        context.log(`search: ${searched} tools, find_tools p50 ${fixed(percentile(call, 50), 3)} ms`);
      } finally {
        await subject.close();
      }
    }

    outcome.tables.push({
      title: `Retrieval: ${queries.length} requests over ${catalogue.tools.length} tools in ${catalogue.toolsets.length} toolsets`,
      columns: ["recall@1", "recall@5", "MRR", "misses (not in the top 5)"],
      rows: [[fixed(recallAt(1), 3), fixed(recallAt(5), 3), fixed(mrr, 3), String(misses.length)]],
      notes: misses,
    });
    outcome.tables.push({
      title: "find_tools latency, after the first search made the index (ms)",
      columns: [
        "tools searched",
        "index made (first search)",
        "tools/call p50 (2025 in-memory)",
        "tools/call p95 (2025 in-memory)",
        "tools/call p50 (2026 in-process handler)",
        "search alone p50",
        "search alone p95",
      ],
      rows: latency.map((l) => [
        String(l.tools),
        fixed(l.indexMs, 1),
        fixed(percentile(l.call, 50), 3),
        fixed(percentile(l.call, 95), 3),
        fixed(percentile(l.modern, 50), 3),
        fixed(percentile(l.search, 50), 3),
        fixed(percentile(l.search, 95), 3),
      ]),
    });
    const big = latency.find((l) => l.tools >= BIG);
    outcome.targets.push(
      target("search-recall", "recall@5 ≥ 0.9 over the request set", [
        point(
          "catalogue",
          recallAt(5),
          (v) => v >= 0.9,
          (v) => fixed(v, 3),
        ),
      ]),
      target("search-latency", `find_tools p50 under 2 ms at ${BIG} tools (the whole tools/call, SDK client and server over the in-memory pair)`, [
        point(
          `${big?.tools ?? BIG} tools`,
          big ? percentile(big.call, 50) : Number.NaN,
          (v) => v < 2,
          (v) => `${fixed(v, 3)} ms`,
        ),
      ]),
    );
    outcome.data = {
      tools: catalogue.tools.length,
      toolsets: catalogue.toolsets.length,
      queries: queries.length,
      recallAt1: recallAt(1),
      recallAt5: recallAt(5),
      mrr,
      misses,
      latency: latency.map((l) => ({
        tools: l.tools,
        indexMs: l.indexMs,
        callP50: percentile(l.call, 50),
        callP95: percentile(l.call, 95),
        modernCallP50: percentile(l.modern, 50),
        searchP50: percentile(l.search, 50),
        searchP95: percentile(l.search, 95),
      })),
    };
    return outcome;
  },
};
