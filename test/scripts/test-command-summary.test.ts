// `npm test` fails loudly and cleans up (issue 27 item 2). The runner (scripts/test.mjs) is run on three test files
// made to go wrong (test/fixtures/test-run): one fails inside two describes, one runs past a suite's timeout and its
// own, one passes but leaves a process running in a group of its own. Its summary must name every failed, timed-out
// and cancelled test with its file and title, name the process left running, kill it, and fail the run — before, it
// said "FAIL tests (N passed, 0 failed)" for a cancelled test and left the process alive.
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { REPO, cleanEnv, runNodeScript } from "../helpers/cli-process.js";
import { Cleanup } from "../helpers/cleanup.js";
import { alive } from "../helpers/processes.js";

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

const FIXTURES = ["fails", "times-out", "leaves-a-process"].map((name) => `test/fixtures/test-run/${name}.test.mjs`);

describe("the test command's summary", { timeout: 120_000 }, () => {
  it("names every failed and cancelled test by file and title, and kills and reports what a test left running", async () => {
    const run = await runNodeScript(cleanup, join(REPO, "scripts", "test.mjs"), FIXTURES, { env: { ...cleanEnv(), MCP_HOST_TESTS_ONLY: "1" } });
    assert.equal(run.code, 1, run.stderr);
    const summary = run.stdout.slice(run.stdout.indexOf("=== mcp-host test summary")).trimEnd().split("\n");
    const left = summary.findIndex((line) => line.startsWith("FAIL 1 process(es) left running"));
    assert.ok(left > 0, summary.join("\n"));
    const leftover = /^ {5}(\d+) (.*) \(in (.*)\)$/.exec(summary[left + 1] ?? "");
    assert.ok(leftover, summary.join("\n"));
    assert.equal(leftover[2], `${process.execPath} -e setInterval(() => {}, 1000)`);
    assert.equal(alive(Number(leftover[1])), false, "the process left running was killed (a zombie at most)");
    assert.deepEqual(summary, [
      "=== mcp-host test summary",
      "FAIL tests (2 passed, 1 failed, 2 cancelled)",
      "     failed: test/fixtures/test-run/fails.test.mjs — outer > inner > fails on purpose: Expected values to be strictly equal:",
      "     cancelled: test/fixtures/test-run/times-out.test.mjs — slow suite > waits for something that never comes: test did not finish before its parent and was cancelled",
      "     timed out: test/fixtures/test-run/times-out.test.mjs — slow suite: test timed out after 300ms",
      "     timed out: test/fixtures/test-run/times-out.test.mjs — runs past its own timeout: test timed out after 300ms",
      "FAIL 1 process(es) left running (now killed)",
      summary[left + 1],
      "tests: 2 passed, 3 failed",
    ]);
  });
});
