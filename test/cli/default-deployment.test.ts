// The repository's default deployment (mcp-host.config.yaml, what `npm start` serves), issue 27: `?all` there is
// the plugins and the reference server — not the official conformance suite's 49 fixture tools, which join only when
// asked for with `--extension` (as scripts/conformance.mjs does). And the reference server's "Failed to request roots
// from client" on every start, harmless, is a debug line, not an alarming info one.
import { afterEach, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { REPO, assertBuilt, runCli, startCli } from "../helpers/cli-process.js";
import { Cleanup } from "../helpers/cleanup.js";

const cleanup = new Cleanup();
afterEach(() => cleanup.run());
before(() => assertBuilt());

interface Description {
  toolsets: Array<{ name: string; active: boolean }>;
  tools: string[];
}

async function all(extra: string[]): Promise<Description> {
  const run = await runCli(cleanup, ["toolsets", "all", "--json", ...extra], { cwd: REPO });
  assert.equal(run.code, 0, run.stderr);
  return JSON.parse(run.stdout) as Description;
}

describe("the default deployment", { timeout: 120_000 }, () => {
  it("serves the plugins and the reference server for ?all, without the conformance fixtures", async () => {
    const described = await all([]);
    assert.deepEqual(
      described.toolsets.filter((t) => t.active).map((t) => t.name),
      ["everything", "text", "time", "units"],
    );
    assert.equal(described.tools.filter((t) => t.startsWith("test_")).length, 0);
  });

  it("adds the conformance fixtures when asked for with --extension", async () => {
    const described = await all(["--extension", "time,text,units,conformance"]);
    assert.deepEqual(
      described.toolsets.filter((t) => t.active).map((t) => t.name),
      ["conformance", "everything", "text", "time", "units"],
    );
    assert.ok(described.tools.filter((t) => t.startsWith("test_")).length > 0);
  });

  it("logs the reference server's roots complaint at debug only", async () => {
    const cli = startCli(cleanup, ["serve", "--port", "0", "--log-level", "debug"], { cwd: REPO });
    await cli.line(/^ {2}upstream everything: up/);
    await cli.stderrMatches(/Failed to request roots from client/);
    const lines = cli.stderr.split("\n").filter((line) => line.includes("Failed to request roots from client"));
    assert.ok(lines.length > 0);
    for (const line of lines) assert.equal((JSON.parse(line) as { level: string }).level, "debug", line);
  });
});
