// `mcp-host serve` with the config's observability (docs/design.md §18): JSON log lines on a piped stderr, an access line
// for each request and an audit line for each tool call, `/metrics` when `metrics:` is configured (and where serve
// says it is), the operator page where serve says it is; `--log-format` chooses the format, and a bad one is one
// usage line.
import { afterEach, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CLI_PROJECT, assertBuilt, runCli, startCli } from "../helpers/cli-process.js";
import { Cleanup, connectV2, raw } from "../helpers/http-host.js";

const cleanup = new Cleanup();
afterEach(() => cleanup.run());
before(() => assertBuilt());

function config(text: string): string {
  const dir = mkdtempSync(join(tmpdir(), "mcp-host-obs-"));
  cleanup.add(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, "mcp-host.yaml"), text);
  return join(dir, "mcp-host.yaml");
}

describe("mcp-host serve, observed", { timeout: 60_000 }, () => {
  it("logs JSON lines with access and audit lines, and serves /metrics and the page where it says", async () => {
    const file = config("metrics:\n  defaultMetrics: false\nlogging:\n  includeArguments: true\n");
    const cli = startCli(cleanup, ["serve", "--cwd", CLI_PROJECT, "--config", file, "--extension", "echo,clock", "--port", "0"]);
    const metricsLine = await cli.line(/^ {2}metrics: {9}/);
    const pageLine = await cli.line(/^ {2}operator page: {3}/);
    await cli.line(/^ {2}extension echo/);
    const metrics = new URL(metricsLine.trim().split(/\s+/)[1]!);
    const page = new URL(pageLine.trim().split(/\s+/)[2]!);
    const mcp = new URL("/mcp?only=echo", page);
    const { client } = await connectV2(cleanup, mcp, "modern");
    await client.callTool({ name: "echo", arguments: { text: "observed", token: "not-logged" } });

    await cli.stderrMatches(/"component":"audit"/);
    const scrape = await raw({ url: metrics });
    assert.equal(scrape.status, 200);
    assert.match(scrape.text, /^mcp_host_tool_calls_total\{toolset="echo",tool="echo",outcome="ok"\} 1$/m);
    const shown = await raw({ url: page });
    assert.equal(shown.status, 200);
    assert.match(shown.text, /<title>cli-fixture-project — mcp-host<\/title>/);

    await cli.stderrMatches(/"path":"\/metrics"/);
    const lines = cli.stderr
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const audit = lines.find((l) => l.component === "audit")!;
    assert.deepEqual([audit.tool, audit.toolset, audit.extension, audit.outcome], ["echo", "echo", "echo", "ok"]);
    assert.deepEqual(audit.arguments, { text: "observed", token: "[masked]" });
    const access = lines.filter((l) => l.component === "access" && l.rpcMethod === "tools/call");
    assert.equal(access.length, 1);
    assert.deepEqual([access[0]!.status, access[0]!.selection, access[0]!.era, typeof access[0]!.requestId], [200, "echo", "modern", "string"]);
    assert.ok(!cli.stderr.includes("not-logged"));
  });

  it("writes readable lines with --log-format pretty, and refuses a format it does not know", async () => {
    const cli = startCli(cleanup, ["serve", "--cwd", CLI_PROJECT, "--extension", "echo", "--port", "0", "--log-format", "pretty"]);
    await cli.line(/^ {2}extension echo/);
    await cli.stderrMatches(/ \[echo\] echo extension ready/);
    assert.match(cli.stderr, /^\d\d:\d\d:\d\d\.\d{3} warn {2}\[echo\] echo extension ready \{"extension":"echo"\}$/m);
    const bad = await runCli(cleanup, ["serve", "--log-format", "xml"]);
    assert.deepEqual([bad.code, bad.stderr], [2, 'mcp-host: CLI_USAGE: --log-format must be one of json, pretty, auto, got "xml"\n']);
  });
});
