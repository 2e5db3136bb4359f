// The text tools cannot take the host down (issue 11, defect 1): they run in worker threads, so catastrophic
// regular expressions are ended at their CPU budget while another client is served, and text_stats on the
// schema's longest text (2,000,000 characters) answers — linear in its input — or gives a clean isError, while the
// host serves everyone else. The long-text case runs `mcp-host serve` as a child process: before isolation it
// took the whole process down (V8 out of heap), which would have taken the test runner with it.
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { Client } from "@modelcontextprotocol/client";
import textExtension from "../../../plugins/text/src/index.js";
import { assertBuilt, isRunning, REPO, startCli } from "../../helpers/cli-process.js";
import { Cleanup, connectV2, serveHost } from "../../helpers/http-host.js";
import { defined } from "../../../src/defined.js";

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

const CATASTROPHIC = ["(a+)+$", "(a|a)+$", "(a|aa)+$", "([a-z]+)*$"];

/** Calls a tool and records, in `order`, when its answer arrived. */
async function call(client: Client, order: string[], label: string, name: string, args: Record<string, unknown>, timeout?: number) {
  const result = await client.callTool({ name, arguments: args }, defined({ timeout }));
  order.push(label);
  return result as { isError?: boolean; content: Array<{ type: string; text: string }>; structuredContent?: Record<string, unknown> };
}

describe("text tools in worker threads", () => {
  it("end four catastrophic patterns at their CPU budget while another client's calls are answered first", async () => {
    const served = await serveHost(cleanup, [textExtension]);
    const runaway = (await connectV2(cleanup, served.at("only=text"), "modern", { name: "runaway" })).client;
    const other = (await connectV2(cleanup, served.at("only=text"), "legacy", { name: "other" })).client;
    const order: string[] = [];
    const text = `${"a".repeat(40)}!`;
    const patterns = CATASTROPHIC.map((pattern, i) => call(runaway, order, `pattern ${i}`, "regex_test", { pattern, text }));
    for (const word of ["one", "two", "three"]) {
      const slug = await call(other, order, `slugify ${word}`, "slugify", { text: `Still ${word}` }, 20_000);
      assert.deepEqual(slug.structuredContent, { slug: `still-${word}`, length: 6 + word.length });
    }
    const results = await Promise.all(patterns);
    assert.deepEqual(order.slice(0, 3), ["slugify one", "slugify two", "slugify three"], "the other client was answered before any pattern ended");
    assert.deepEqual(
      results.map((r) => [r.isError, r.content[0]!.text]),
      CATASTROPHIC.map(() => [true, 'tool "regex_test" used more than its 1000 ms of CPU and was stopped']),
    );
    // And after them the text tools (on replacement workers) answer as before.
    const after = await call(other, order, "after", "regex_test", { pattern: "(\\d+)", text: "a 12 b 345" });
    assert.deepEqual(
      (after.structuredContent!.matches as Array<{ match: string }>).map((m) => m.match),
      ["12", "345"],
    );
  });

  it("answer text_stats on 2,000,000 characters without taking the served process down", { timeout: 120_000 }, async () => {
    assertBuilt();
    const cli = startCli(cleanup, ["serve", "--port", "0", "--cwd", REPO, "--extension", "text"]);
    const first = await cli.line(/^mcp-host is serving /);
    const url = new URL(/ at (http:\/\/\S+\/mcp)$/.exec(first)![1]!);
    const big = (await connectV2(cleanup, url, "modern", { name: "big" })).client;
    const other = (await connectV2(cleanup, url, "legacy", { name: "other" })).client;
    const order: string[] = [];
    // 52,631 paragraphs of two sentences and eight words: 1,999,978 characters, the most the schema takes.
    const unit = "Line one is here. Line two is there!\n\n";
    const text = unit.repeat(52_631);
    const stats = call(big, order, "text_stats", "text_stats", { text }, 110_000);
    const slug = await call(other, order, "slugify", "slugify", { text: "Served meanwhile" }, 20_000);
    assert.deepEqual(slug.structuredContent, { slug: "served-meanwhile", length: 16 });
    const result = await stats;
    assert.deepEqual(order, ["slugify", "text_stats"]);
    if (result.isError) {
      // A clean refusal is allowed on a machine too slow for the budget; a crash or a hang is not.
      assert.equal(result.content[0]!.text, 'tool "text_stats" used more than its 10000 ms of CPU and was stopped');
    } else {
      assert.deepEqual(result.structuredContent, {
        characters: 1_999_978,
        characters_excluding_spaces: 52_631 * 29,
        words: 52_631 * 8,
        sentences: 52_631 * 2,
        paragraphs: 52_631,
        lines: 52_631 * 2,
        average_word_length: 3.4,
        reading_time_seconds: 106_147,
        reading_time: "29 h 29 min",
      });
    }
    assert.equal(isRunning(cli.pid), true);
    const again = await call(other, order, "again", "text_stats", { text: "Still here. Still counting." }, 20_000);
    assert.deepEqual([again.structuredContent?.words, again.structuredContent?.sentences], [4, 2]);
  });
});
