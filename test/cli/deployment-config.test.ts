// The command reads the deployment's config file (docs/design.md §12, §13; issue 8 items 1 and 6, issue 10 items 4
// and 7): flags override the file; a bad file exits 2 with every problem on its own line and no secret in sight;
// `check` reports and exits non-zero on any problem; `--strict` refuses an unknown toolset at start in every
// command; `stdio` in a folder with nothing to serve says so on stderr and tells the model how stdio selects.
import { afterEach, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { CLI_MAIN, CLI_PROJECT, assertBuilt, cleanEnv, runCli, startCli } from "../helpers/cli-process.js";
import { Cleanup, connectV2, listedTools } from "../helpers/http-host.js";

const cleanup = new Cleanup();
afterEach(() => cleanup.run());
before(() => assertBuilt());

/** A temporary folder (removed after the test) holding `files`. */
function folder(files: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), "mcp-host-cli-"));
  cleanup.add(() => rmSync(dir, { recursive: true, force: true }));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

describe("mcp-host with a config file", { timeout: 60_000 }, () => {
  it("serves what the file says, with the command line's flags over it", async () => {
    const dir = folder({
      "mcp-host.yaml": [
        "name: configured-server",
        "extensions:",
        "  include: [echo, clock]",
        "selection:",
        "  default: only=clock",
        "http:",
        "  port: 1",
        "",
      ].join("\n"),
    });
    const cli = startCli(cleanup, ["serve", "--cwd", CLI_PROJECT, "--config", join(dir, "mcp-host.yaml"), "--port", "0"]);
    const first = await cli.line(/^mcp-host is serving /);
    await cli.line(/^ {2}extension echo/);
    const match = /^mcp-host is serving "configured-server" over MCP at (http:\/\/127\.0\.0\.1:(\d+)\/mcp)$/.exec(first);
    assert.ok(match, first);
    assert.notEqual(match[2], "1", "--port 0 overrode http.port");
    assert.deepEqual(cli.stdoutLines.slice(5), ["  extension clock@3.1.4: ready", "  extension echo@2.0.0: ready"], "extensions.include left broken out");
    const { client } = await connectV2(cleanup, new URL(match[1]!), "modern");
    assert.deepEqual(await listedTools(client), ["fixed_time", "list_server_toolsets"], "selection.default applies");
  });

  it("exits 2 with every problem of a bad file, one per line, never repeating a secret or a URL", async () => {
    const dir = folder({
      ".mcp-hostrc.yaml": [
        "http:",
        "  prot: 3000",
        "servers:",
        "  hosted:",
        "    url: https://user:hunter2@mcp.example.com/mcp",
        "    headers: { X-Api-Key: sk-live-123456 }",
        "",
      ].join("\n"),
    });
    const run = await runCli(cleanup, ["toolsets", "--cwd", dir]);
    assert.equal(run.code, 2);
    assert.equal(run.stdout, "");
    const lines = run.stderr.trimEnd().split("\n");
    assert.match(lines[0]!, /^mcp-host: CONFIG_INVALID: the configuration in .*\.mcp-hostrc\.yaml has 3 problems:$/);
    assert.deepEqual(
      lines.slice(1).map((l) => l.split(/\s{2,}/).slice(0, 2)),
      [
        ["CONFIG_INVALID", "http.prot"],
        ["MCP_CREDENTIALS_INLINE", "servers.hosted.headers.X-Api-Key"],
        ["MCP_URL_INVALID", "servers.hosted.url"],
      ],
    );
    for (const secret of ["hunter2", "sk-live-123456", "mcp.example.com"]) assert.ok(!run.stderr.includes(secret), `${secret} is not repeated`);
  });

  it("check: reports and exits 0 when all is well, 1 when an extension failed, 2 for a bad config", async () => {
    const good = await runCli(cleanup, ["check", "--cwd", CLI_PROJECT, "--extension", "echo,clock"]);
    assert.equal(good.code, 0, good.stderr);
    assert.deepEqual(good.stdout.trimEnd().split("\n"), [
      "config: none found (defaults)",
      "toolsets: clock, echo",
      "extension clock@3.1.4: ready",
      "extension echo@2.0.0: ready",
      "check: ok",
    ]);
    const broken = await runCli(cleanup, ["check", "--cwd", CLI_PROJECT, "--json"]);
    assert.equal(broken.code, 1);
    const report = JSON.parse(broken.stdout) as { ok: boolean; extensions: Array<{ name: string; status: string; code?: string }> };
    assert.equal(report.ok, false);
    assert.deepEqual(
      report.extensions.map((e) => [e.name, e.status, e.code]),
      [
        ["broken", "failed", "EXTENSION_SETUP_FAILED"],
        ["clock", "ready", undefined],
        ["echo", "ready", undefined],
      ],
    );
    const dir = folder({ "mcp-host.config.json": JSON.stringify({ startupTimeoutMs: 5 }) });
    const bad = await runCli(cleanup, ["check", "--cwd", dir]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /^CONFIG_INVALID {2}startupTimeoutMs {2}/m);
  });

  it("--strict refuses a default selection naming an unknown toolset at start, in serve, toolsets and stdio", async () => {
    const message = /^mcp-host: SELECTION_UNKNOWN_TOOLSET: unknown toolset "nosuch" in the selection; declared toolsets: "clock", "echo"\./m;
    for (const args of [
      ["serve", "only=nosuch", "--port", "0"],
      ["toolsets", "only=nosuch"],
      ["stdio", "only=nosuch"],
    ]) {
      const run = await runCli(cleanup, [...args, "--strict", "--cwd", CLI_PROJECT, "--extension", "echo,clock"]);
      assert.equal(run.code, 2, `${args[0]}: ${run.stderr}`);
      assert.match(run.stderr, message, args[0]);
      assert.equal(run.stdout, "");
    }
  });
});

describe("mcp-host stdio started where a desktop client starts it", { timeout: 60_000 }, () => {
  it("warns on stderr that nothing was found and which names are unknown, and words the selection hint for stdio", async () => {
    const empty = folder();
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI_MAIN, "stdio", "only=dice", "--log-format", "pretty"],
      cwd: empty,
      env: cleanEnv() as Record<string, string>,
      stderr: "pipe",
    });
    let stderr = "";
    transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    const client = new Client({ name: "desktop", version: "1.0.0" });
    cleanup.add(() => transport.close());
    await client.connect(transport);
    assert.deepEqual(await listedTools(client), ["list_server_toolsets"]);
    const answer = (await client.callTool({ name: "list_server_toolsets", arguments: {} })).structuredContent as { unknown: string[]; how_to_select: string };
    assert.deepEqual(answer.unknown, ["dice"]);
    assert.match(answer.how_to_select, /^This server runs over stdio, so its toolsets are chosen where it is started/);
    assert.doesNotMatch(answer.how_to_select, /URL/);
    assert.match(
      stderr,
      new RegExp(`no package\\.json in ${empty.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}, so no extensions were found; pass the project folder with --cwd`),
    );
    assert.match(stderr, /the selection "only=dice" names toolsets nobody declared: dice \(declared: none\)/);
  });

  it("says what it looked at when a project declares no extension", async () => {
    const dir = folder({ "package.json": JSON.stringify({ name: "empty-project", version: "1.0.0" }) });
    const run = await runCli(cleanup, ["toolsets", "--cwd", dir]);
    assert.equal(run.code, 0);
    assert.match(
      run.stderr,
      /no extensions found in .*: looked at its mcpExtensions field \(absent\), 0 dependencies, 0 optional and 0 dev dependencies, no workspaces; install an extension package/,
    );
  });
});
