// What libraries print becomes log lines (issue 17 class 9, docs/design.md §18): the MCP SDK warns with console.warn,
// extensions print with console.log. In JSON mode every stderr line must still be one JSON object, and over stdio
// nothing but protocol may reach stdout. The family: the SDK's own multi-line warning, console.log, .info, .warn with
// format arguments, .error with a terminal escape — at setup and inside a call, over HTTP and over stdio.
import { afterEach, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import type { Readable } from "node:stream";
import { assertBuilt, CLI_MAIN, cleanEnv, REPO, startCli } from "../helpers/cli-process.js";
import { Cleanup, connectV2 } from "../helpers/http-host.js";

const PROJECT = join(REPO, "test", "fixtures", "console-project");
const cleanup = new Cleanup();
afterEach(() => cleanup.run());
before(() => assertBuilt());

const EXPECTED = [
  /Tool name validation warning for "not a valid name!"/,
  /^console\.log at setup$/,
  /^console\.info in a call$/,
  /^console\.warn at setup with 2 args$/,
  /^console\.error in a call .\[2J$/,
];

function consoleLines(stderr: string): Array<Record<string, unknown>> {
  const lines = stderr.split("\n").filter((l) => l.length > 0);
  const notJson = lines.filter((l) => {
    try {
      return typeof JSON.parse(l) !== "object";
    } catch {
      return true;
    }
  });
  assert.deepEqual(notJson, [], "every stderr line is one JSON object");
  return lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.component === "console");
}

describe("console output of libraries and extensions", { timeout: 60_000 }, () => {
  it("comes out as JSON log lines from mcp-host serve", async () => {
    const cli = startCli(cleanup, ["serve", "--cwd", PROJECT, "--port", "0", "--log-format", "json"]);
    const url = new URL((await cli.line(/^mcp-host is serving /)).split(" at ")[1]!);
    const { client } = await connectV2(cleanup, new URL("?only=chatty", url), "modern");
    await client.callTool({ name: "chat", arguments: {} });
    await cli.stderrMatches(/console\.error in a call/);
    const lines = consoleLines(cli.stderr);
    for (const pattern of EXPECTED)
      assert.ok(
        lines.some((l) => pattern.test(String(l.msg))),
        `a console line matches ${pattern}`,
      );
    assert.ok(lines.every((l) => ["info", "warn", "error"].includes(String(l.level))));
  });

  it("never reaches stdout over stdio, where the protocol runs", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI_MAIN, "stdio", "only=chatty", "--cwd", PROJECT, "--log-format", "json", "--log-level", "info"],
      env: cleanEnv() as Record<string, string>,
      stderr: "pipe",
    });
    let stderr = "";
    (transport.stderr as Readable | null)?.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    const client = new Client({ name: "console-test", version: "1.0.0" });
    cleanup.add(() => transport.close());
    // A console.log on stdout would be a line the client cannot parse: it would fail here.
    await client.connect(transport);
    const result = await client.callTool({ name: "chat", arguments: {} });
    assert.deepEqual(result.content, [{ type: "text", text: "chatted" }]);
    await client.close();
    const lines = consoleLines(stderr);
    for (const pattern of EXPECTED)
      assert.ok(
        lines.some((l) => pattern.test(String(l.msg))),
        `a console line matches ${pattern}`,
      );
  });
});
