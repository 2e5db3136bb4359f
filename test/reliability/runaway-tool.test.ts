// A runaway tool cannot take the host down (docs/design.md §16, docs/extensions.md "Isolation"), against the real
// `mcp-host serve`: a tool that spins for ever and one that allocates without end (a fixture, isolated with 500 ms
// of CPU and 64 MB of heap), a catastrophic regular expression and the largest text_stats input (the isolated text
// plugin). Each call ends with an isError result naming the tool and the limit; another client is served all the
// while; the process lives on, its memory bounded.
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { Cleanup } from "../helpers/cleanup.js";
import { messageOf, modernCall } from "./kit/mcp-requests.js";
import { figure, mib, ms } from "./kit/report.js";
import { serveCli } from "./kit/served.js";

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

interface Outcome {
  tool: string;
  isError: boolean;
  text: string;
  ms: number;
}

async function call(url: URL, tool: string, args: Record<string, unknown>): Promise<Outcome> {
  const started = performance.now();
  const answer = await messageOf(await modernCall(url, tool, args));
  const result = answer.result as { isError?: boolean; content: Array<{ text: string }> };
  return { tool, isError: result.isError === true, text: result.content[0]?.text ?? "", ms: performance.now() - started };
}

describe("a runaway tool", { timeout: 120_000 }, () => {
  it("ends with an isError result naming its limit, while another client is served and the process lives on", async () => {
    const served = await serveCli(cleanup);
    const url = new URL("?only=runaway,steady,text", served.url);
    await call(url, "text_stats", { text: "warm the worker up" });
    const rssBefore = served.rss();

    let runaway = true;
    let echoes = 0;
    const steady = (async () => {
      while (runaway) {
        const echo = await call(url, "echo", { text: "still here" });
        assert.deepEqual([echo.isError, echo.text], [false, "echo: still here"]);
        echoes += 1;
      }
    })();
    const outcomes = await Promise.all([
      call(url, "spin", {}),
      call(url, "hog", {}),
      call(url, "regex_test", { pattern: "^(a+)+$", text: `${"a".repeat(40)}b` }),
      call(url, "text_stats", { text: "All work and no play makes Jack a dull boy. ".repeat(45_000) }),
    ]);
    runaway = false;
    await steady;
    const rssAfter = served.rss();

    for (const o of outcomes) figure("runaway tool", `${o.tool}: ${o.isError ? "isError" : "ok"} after ${ms(o.ms)}: ${o.text.slice(0, 140)}`);
    figure("runaway tool", `another client was answered ${echoes} times meanwhile; server RSS before ${mib(rssBefore)}, after ${mib(rssAfter)}`);
    const [spin, hog, regex, stats] = outcomes as [Outcome, Outcome, Outcome, Outcome];
    assert.deepEqual([spin.isError, spin.text], [true, 'tool "spin" used more than its 500 ms of CPU and was stopped']);
    assert.equal(hog.isError, true);
    assert.match(hog.text, /^tool "hog" ran out of its 64 MB heap and was stopped/);
    assert.deepEqual([regex.isError, regex.text], [true, 'tool "regex_test" used more than its 1000 ms of CPU and was stopped']);
    // 2,000,000 characters, the schema's most: linear now, so it finishes (or, on a starved machine, meets its budget).
    assert.ok(!stats.isError || /used more than its \d+ ms of CPU/.test(stats.text), stats.text);
    assert.ok(echoes > 0);
    assert.ok(served.alive());
    assert.match(served.cli.stderr, /TOOL_CPU_LIMIT/);
    assert.match(served.cli.stderr, /TOOL_HEAP_LIMIT/);
    // The workers' heaps are bounded (64 MB for the runaway pool); the host's own memory stays within reach of it.
    assert.ok(rssAfter - rssBefore < 512 * 1024 * 1024, `RSS grew by ${mib(rssAfter - rssBefore)}`);
  });
});
