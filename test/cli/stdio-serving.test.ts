// `mcp-host stdio` (docs/design.md §8, issue 3 part 6), as a real child process: one selection served on stdin/stdout
// to the SDK v2 stdio client in the default (2025) era and pinned to 2026-07-28, and to the v1 stdio client;
// stdout carries nothing but protocol while the logs go to stderr; the child exits when stdin closes and on
// SIGTERM.
import { afterEach, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { Readable, Stream } from "node:stream";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as V1StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { CLI_MAIN, CLI_PROJECT, assertBuilt, cleanEnv, isRunning, startCli, type CliProcess } from "../helpers/cli-process.js";
import { Cleanup, callText, eraOptions, listedTools } from "../helpers/http-host.js";

const cleanup = new Cleanup();
afterEach(() => cleanup.run());
before(() => assertBuilt());

const ARGS = [CLI_MAIN, "stdio", "only=echo", "--cwd", CLI_PROJECT, "--extension", "echo,clock", "--log-format", "pretty"];

/** Collects a piped stderr stream. */
function collect(stream: Stream | null): { text: () => string } {
  let text = "";
  const readable = stream as Readable | null;
  readable?.setEncoding("utf8");
  readable?.on("data", (d: string) => (text += d));
  return { text: () => text };
}

describe("mcp-host stdio with SDK clients", { timeout: 60_000 }, () => {
  for (const era of ["legacy", "modern"] as const) {
    it(`serves the selection to the v2 stdio client (${era === "legacy" ? "default, 2025 handshake" : "pinned 2026-07-28"}), logging only to stderr`, async () => {
      const transport = new StdioClientTransport({ command: process.execPath, args: ARGS, env: cleanEnv() as Record<string, string>, stderr: "pipe" });
      const stderr = collect(transport.stderr);
      const client = new Client({ name: "stdio-test", version: "1.0.0" }, eraOptions(era));
      cleanup.add(() => transport.close());
      await client.connect(transport);
      const pid = transport.pid!;
      assert.equal(client.getProtocolEra(), era);
      assert.deepEqual(await listedTools(client), ["echo", "list_server_toolsets", "shout"]);
      assert.equal(await callText(client, "echo", { text: "over stdio" }), "echo: over stdio");
      await assert.rejects(client.callTool({ name: "fixed_time", arguments: {} }), /Unknown tool "fixed_time"/, "clock is not in the selection");
      await client.close();
      assert.equal(isRunning(pid), false, "the child is gone after the client closes");
      assert.match(stderr.text(), /\[echo\] echo extension ready/);
      assert.match(stderr.text(), /\[echo\] echo called with "over stdio"/);
    });
  }

  it("serves the selection to the v1 stdio client", async () => {
    const transport = new V1StdioClientTransport({ command: process.execPath, args: ARGS, env: cleanEnv() as Record<string, string>, stderr: "pipe" });
    const stderr = collect(transport.stderr);
    const client = new V1Client({ name: "v1-stdio-test", version: "1.32.2" });
    cleanup.add(() => transport.close());
    await client.connect(transport);
    const pid = transport.pid!;
    assert.deepEqual(await listedTools(client), ["echo", "list_server_toolsets", "shout"]);
    assert.equal(await callText(client, "shout", { text: "quiet" }), "QUIET");
    assert.equal(await callText(client, "echo", { text: "v1" }), "echo: v1");
    await client.close();
    assert.equal(isRunning(pid), false);
    assert.match(stderr.text(), /\[echo\] echo called with "v1"/);
  });
});

/** Sends one JSON-RPC message on the child's stdin. */
function send(cli: CliProcess, message: unknown): void {
  cli.child.stdin!.write(`${JSON.stringify(message)}\n`);
}

/** Runs the 2025 handshake and a tools/list over raw stdio; returns the tool names. */
async function handshake(cli: CliProcess): Promise<string[]> {
  send(cli, {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
  });
  await cli.line(/"id":1[,}]/);
  send(cli, { jsonrpc: "2.0", method: "notifications/initialized" });
  send(cli, { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "echo", arguments: { text: "raw" } } });
  send(cli, { jsonrpc: "2.0", id: 3, method: "tools/list", params: {} });
  await cli.line(/"id":2[,}]/);
  const listed = JSON.parse(await cli.line(/"id":3[,}]/)) as { result: { tools: Array<{ name: string }> } };
  return listed.result.tools.map((t) => t.name);
}

describe("mcp-host stdio as a process", { timeout: 60_000 }, () => {
  it("writes only JSON-RPC messages to stdout, even with debug logging, and exits 0 when stdin closes", async () => {
    const cli = startCli(cleanup, ["stdio", "only=echo", "--cwd", CLI_PROJECT, "--extension", "echo,clock", "--log-level", "debug"], { stdin: "pipe" });
    assert.deepEqual(await handshake(cli), ["echo", "list_server_toolsets", "shout"]);
    cli.child.stdin!.end();
    assert.deepEqual(await cli.exited, { code: 0, signal: null });
    assert.equal(isRunning(cli.pid), false);

    assert.ok(cli.stdoutLines.length >= 3);
    for (const line of cli.stdoutLines) {
      const message = JSON.parse(line) as { jsonrpc?: string };
      assert.equal(message.jsonrpc, "2.0", `stdout carries only protocol: ${line}`);
    }
    const call = cli.stdoutLines.map((l) => JSON.parse(l) as { id?: number; result?: unknown }).find((m) => m.id === 2);
    assert.deepEqual(call?.result, { content: [{ type: "text", text: "echo: raw" }] });
    // stderr is not a terminal: every line is one JSON object with its time, level and component.
    const lines = cli.stderr
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    for (const line of lines)
      assert.deepEqual([typeof line.time, typeof line.level, typeof line.component], ["string", "string", "string"], JSON.stringify(line));
    assert.ok(lines.some((l) => l.component === "mcp-host" && l.msg === 'serving selection "only=echo" over stdio: echo, list_server_toolsets, shout'));
    assert.ok(lines.some((l) => l.component === "extension" && l.extension === "echo" && l.msg === "echo extension ready"));
    // The handler's own line carries the tool it ran for; the audit line says how the call ended.
    const called = lines.find((l) => l.msg === 'echo called with "raw"');
    assert.deepEqual([called?.component, called?.extension, called?.tool, called?.toolset], ["extension", "echo", "echo", "echo"]);
    const audit = lines.find((l) => l.component === "audit" && l.tool === "echo");
    assert.deepEqual([audit?.level, audit?.outcome, audit?.extension, audit?.toolset, audit?.era], ["info", "ok", "echo", "echo", "legacy"]);
  });

  it("exits 0 on SIGTERM while serving", async () => {
    const cli = startCli(cleanup, ["stdio", "only=echo", "--cwd", CLI_PROJECT, "--extension", "echo"], { stdin: "pipe" });
    assert.deepEqual(await handshake(cli), ["echo", "list_server_toolsets", "shout"]);
    cli.child.kill("SIGTERM");
    assert.deepEqual(await cli.exited, { code: 0, signal: null });
    assert.equal(isRunning(cli.pid), false);
    assert.match(cli.stderr, /^mcp-host: SIGTERM received, shutting down$/m);
  });
});
