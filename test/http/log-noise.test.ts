// Logs that help rather than drown (issue 10 item 8): a session asking for an unknown toolset is warned about once,
// not once per request, with the toolset it most likely meant (issue 27); a handler that throws leaves its stack in the log at debug level, for the extension's author.
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { McpExtension } from "../../src/extension/types.js";
import { Cleanup, callText, connectV1, serveHost } from "../helpers/http-host.js";

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

const tools: McpExtension = {
  name: "toolbox",
  tools: [
    { name: "fine", handler: () => ({ content: [{ type: "text", text: "fine" }] }) },
    {
      name: "broken",
      handler: function brokenHandler() {
        throw new Error("the disk is full");
      },
    },
  ],
};

describe("log lines", { timeout: 30_000 }, () => {
  it("warns once about a session's unknown toolset, however many requests it sends", async () => {
    const { at, records } = await serveHost(cleanup, [tools]);
    const { client } = await connectV1(cleanup, at("nosuch"));
    for (let i = 0; i < 5; i += 1) assert.equal(await callText(client, "fine"), "fine");
    const lines = records.filter((r) => r.message === 'MCP client asked for unknown toolset "nosuch"');
    assert.equal(lines.filter((r) => r.level === "warn").length, 1);
    assert.ok(lines.filter((r) => r.level === "debug").length >= 5, `the rest at debug: ${lines.length}`);
  });

  it("suggests the toolset a misspelt name was most likely meant to be", async () => {
    const { at, records } = await serveHost(cleanup, [tools]);
    const { client } = await connectV1(cleanup, at("toolbax"));
    assert.equal(await callText(client, "fine"), "fine");
    const warn = records.find((r) => r.level === "warn" && r.message.startsWith("MCP client asked for"));
    assert.equal(warn?.message, 'MCP client asked for unknown toolset "toolbax" (did you mean "toolbox"?)');
  });

  it("keeps a thrown handler's stack at debug, naming the extension and tool", async () => {
    const { at, records } = await serveHost(cleanup, [tools]);
    const { client } = await connectV1(cleanup, at(""));
    const result = (await client.callTool({ name: "broken", arguments: {} })) as { isError?: boolean };
    assert.equal(result.isError, true);
    const warn = records.find((r) => r.level === "warn" && r.data?.code === "TOOL_HANDLER_FAILED");
    assert.equal(warn?.message, '[extension toolbox] tool "broken" threw: the disk is full');
    assert.equal(warn?.data?.stack, undefined, "no stack at warn");
    const debug = records.find((r) => r.level === "debug" && r.message === '[extension toolbox] tool "broken" threw here');
    assert.equal(debug?.data?.extension, "toolbox");
    assert.match(String(debug?.data?.stack), /^Error: the disk is full\n\s+at (Object\.)?brokenHandler /);
  });
});
