// Scenario 6's smoke test: `npm run bench -- --quick --scenario search` — every request of the set through a real
// find_tools call, and the latency at 516 and 5 000+ tools. Retrieval is deterministic (the same index, the same
// ranking), so its figures are checked: recall@5 must stay at or above 0.9 over the request set. No timing is
// asserted: the numbers of a smoke run mean nothing.
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { RunResults } from "../../bench/lib/results.js";
import { runBench } from "../helpers/bench-run.js";
import { Cleanup } from "../helpers/cleanup.js";

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

describe("npm run bench -- --quick --scenario search", { timeout: 115_000 }, () => {
  it("ranks the intended tool in the top 5 for at least 90% of the requests, and measures both sizes", async () => {
    const run = await runBench(cleanup, ["--quick", "--scenario", "search"], "mcp-host-bench-search-test-");
    assert.equal(run.code, 0, `the bench failed:\n${run.stderr.slice(-3000)}`);
    const results = JSON.parse(readFileSync(join(run.out, "latest.json"), "utf8")) as RunResults;
    assert.deepEqual(
      results.scenarios.map((s) => s.name),
      ["search"],
    );
    const [search] = results.scenarios;
    assert.deepEqual(search!.errors, []);
    const data = search!.data as { tools: number; queries: number; recallAt5: number; mrr: number; latency: Array<{ tools: number; callP50: number }> };
    assert.ok(data.tools >= 500, `${data.tools} tools`);
    assert.ok(data.queries >= 100, `${data.queries} requests`);
    assert.ok(data.recallAt5 >= 0.9, `recall@5 ${data.recallAt5}`);
    assert.ok(data.mrr > 0 && data.mrr <= 1);
    assert.deepEqual(
      data.latency.map((l) => l.tools),
      [517, 5161],
    );
    for (const l of data.latency) assert.ok(Number.isFinite(l.callP50) && l.callP50 > 0);
    assert.equal(search!.targets.find((t) => t.id === "search-recall")?.pass, true);
    assert.match(readFileSync(join(run.out, "latest.md"), "utf8"), /Retrieval: 182 requests over 516 tools in 74 toolsets/);
  });
});
