// The selection's modifiers from the command line (docs/serving.md): `mcp-host stdio` in tool-search mode for the SDK
// v2 stdio client in both eras and the v1 stdio client, read-only over stdio (fail closed: unannotated tools are left
// out), and `mcp-host toolsets` printing the modifiers.
import { afterEach, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as V1StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { CLI_MAIN, CLI_PROJECT, assertBuilt, cleanEnv, runCli } from "../helpers/cli-process.js";
import { Cleanup, callText, eraOptions, listedTools, type ToolClient } from "../helpers/http-host.js";

const cleanup = new Cleanup();
afterEach(() => cleanup.run());
before(() => assertBuilt());

const PROJECT = ["--cwd", CLI_PROJECT, "--extension", "echo,clock"];
const stdioArgs = (selection: string) => [CLI_MAIN, "stdio", selection, ...PROJECT, "--log-format", "pretty"];

async function searchAndCall(client: ToolClient): Promise<void> {
  assert.deepEqual(await listedTools(client), ["call_tool", "find_tools"]);
  const found = (await client.callTool({ name: "find_tools", arguments: { query: "return my text", limit: 1 } })) as {
    structuredContent?: { tools: Array<{ name: string; inputSchema: unknown }> };
  };
  assert.deepEqual(found.structuredContent?.tools, [
    {
      name: "echo",
      description: "Returns its text",
      toolset: "echo",
      inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
    },
  ]);
  assert.equal(await callText(client, "call_tool", { name: "echo", arguments: { text: "found" } }), "echo: found");
}

describe("mcp-host stdio with modifiers", { timeout: 60_000 }, () => {
  for (const era of ["legacy", "modern"] as const) {
    it(`serves tool-search mode to the v2 stdio client (${era})`, async () => {
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: stdioArgs("all&search"),
        env: cleanEnv() as Record<string, string>,
        stderr: "pipe",
      });
      const client = new Client({ name: "stdio-search", version: "1.0.0" }, eraOptions(era));
      cleanup.add(() => transport.close());
      await client.connect(transport);
      assert.equal(client.getProtocolEra(), era);
      await searchAndCall(client);
    });
  }

  it("serves tool-search mode to the v1 stdio client", async () => {
    const transport = new V1StdioClientTransport({
      command: process.execPath,
      args: stdioArgs("all&search"),
      env: cleanEnv() as Record<string, string>,
      stderr: "pipe",
    });
    const client = new V1Client({ name: "v1-stdio-search", version: "1.32.2" });
    cleanup.add(() => transport.close());
    await client.connect(transport);
    await searchAndCall(client);
  });

  it("serves read-only over stdio, leaving out every tool without readOnlyHint", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: stdioArgs("all,readonly"),
      env: cleanEnv() as Record<string, string>,
      stderr: "pipe",
    });
    const client = new Client({ name: "stdio-readonly", version: "1.0.0" });
    cleanup.add(() => transport.close());
    await client.connect(transport);
    assert.deepEqual(await listedTools(client), ["list_server_toolsets"]);
  });
});

describe("mcp-host toolsets with modifiers", { timeout: 60_000 }, () => {
  it("prints the modifiers under the active toolsets", async () => {
    const run = await runCli(cleanup, ["toolsets", "only=echo&tools=fixed_time&search", ...PROJECT]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(
      run.stdout,
      /^active: echo\ntools \(2\): call_tool, find_tools\nmodifiers: single tools: clock\.fixed_time; search \(find_tools and call_tool over 4 tools\)\n/m,
    );
  });
});
