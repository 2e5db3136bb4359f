// `onServer(draft)` (docs/design.md §4 rule 12): called once per build, only for the extensions that take part in it,
// in load order; it may remove or replace tools and change instructions on that build only; when it throws, its
// changes to that build are discarded, the failure is logged, and the build goes on.
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { McpExtension, ServerDraft } from "../../../src/extension/types.js";
import type { McpHost } from "../../../src/host/host.js";
import type { LogRecord } from "../../../src/logger.js";
import { connectInProcess } from "../../helpers/in-process.js";
import { build, callOk, logsWithCode, startedHost, textTool } from "../../helpers/kit.js";

let host: McpHost | undefined;
let logs: LogRecord[] = [];
afterEach(async () => {
  await host?.stop();
  host = undefined;
});

describe("onServer: who is called, and when", () => {
  it("runs once per build for the extensions that declared an active toolset or contributed to one", async () => {
    const calls: string[] = [];
    const hook = (name: string) => (draft: ServerDraft) => void calls.push(`${name}@${draft.key}`);
    ({ host } = await startedHost([
      { name: "x", toolsets: [{ name: "x", default: false }], tools: [textTool("x_tool")], onServer: hook("x") },
      { name: "y", toolsets: [{ name: "y", default: false }], tools: [textTool("y_tool")], onServer: hook("y") },
      // Declares nothing active anywhere, but contributes a tool to toolset x.
      { name: "helper", toolsets: [{ name: "helper", default: false }], tools: [textTool("helper_tool", { toolset: "x" })], onServer: hook("helper") },
      // Declares a toolset and contributes nothing: taking part by declaring.
      { name: "watcher", toolsets: [{ name: "y", default: false }], onServer: hook("watcher") },
    ]));
    await build(host, "x");
    await build(host, "x"); // from the cache: no hook runs
    assert.deepEqual(calls, ["helper@x", "x@x"]);
    calls.length = 0;
    await build(host, "y");
    assert.deepEqual(calls, ["watcher@y", "y@y"]);
    calls.length = 0;
    await build(host, "x&y");
    assert.deepEqual(calls, ["helper@x,y", "watcher@x,y", "x@x,y", "y@x,y"]);
    calls.length = 0;
    await build(host, "only=");
    assert.deepEqual(calls, []);
  });

  it("sees the draft after every contribution is on it, with the build's key and toolsets", async () => {
    let seen: { key: string; toolsets: readonly string[]; tools: string[]; instructions: string | undefined } | undefined;
    ({ host } = await startedHost(
      [
        { name: "a-first", toolsets: [{ name: "a", instructions: "A." }], tools: [textTool("a_tool")] },
        {
          name: "z-last",
          toolsets: [{ name: "z" }],
          tools: [textTool("z_tool")],
          onServer: (d) => void (seen = { key: d.key, toolsets: d.toolsets, tools: d.tools().map((t) => t.name), instructions: d.instructions }),
        },
      ],
      { instructions: "Host." },
    ));
    await build(host, "");
    assert.deepEqual(seen, { key: "a,z", toolsets: ["a", "z"], tools: ["a_tool", "z_tool"], instructions: "Host.\n\n## a\n\nA." });
  });
});

describe("onServer: changes apply to that build only", () => {
  // `editor` edits only builds that include toolset "y"; the build of "x" alone stays as offered.
  const editor = (): McpExtension => ({
    name: "editor",
    toolsets: [{ name: "x", default: false }],
    tools: [textTool("x_tool", { description: "original" }), textTool("x_secret")],
    prompts: [{ name: "x_prompt", get: () => ({ messages: [] }) }],
    onServer: (draft) => {
      if (!draft.toolsets.includes("y")) return;
      assert.equal(draft.removeTool("x_secret"), true);
      assert.equal(draft.removeTool("no_such_tool"), false);
      assert.equal(draft.updateTool("x_tool", { description: "changed", handler: () => ({ content: [{ type: "text", text: "replaced" }] }) }), true);
      assert.equal(draft.removePrompt("x_prompt"), true);
      draft.instructions = "Custom instructions for x and y.";
    },
  });
  const other = (): McpExtension => ({ name: "other", toolsets: [{ name: "y", default: false, instructions: "Y." }], tools: [textTool("y_tool")] });

  it("removes and replaces tools and prompts and sets the instructions on the builds it chooses", async () => {
    ({ host } = await startedHost([editor(), other()]));
    const edited = await connectInProcess(host, "x&y");
    const untouched = await connectInProcess(host, "x");
    try {
      const editedTools = (await edited.client.listTools()).tools;
      assert.deepEqual(
        editedTools.map((t) => [t.name, t.description]),
        [
          ["list_server_toolsets", editedTools[0]!.description],
          ["x_tool", "changed"],
          ["y_tool", undefined],
        ],
      );
      assert.equal(await callOk(edited.client, "x_tool"), "replaced");
      assert.deepEqual((await edited.client.listPrompts()).prompts, []);
      assert.equal(edited.client.getInstructions(), "Custom instructions for x and y.");

      const untouchedTools = (await untouched.client.listTools()).tools;
      assert.deepEqual(
        untouchedTools.map((t) => [t.name, t.description]),
        [
          ["list_server_toolsets", untouchedTools[0]!.description],
          ["x_secret", undefined],
          ["x_tool", "original"],
        ],
      );
      assert.equal(await callOk(untouched.client, "x_tool"), "x_tool ok");
      assert.deepEqual(
        (await untouched.client.listPrompts()).prompts.map((p) => p.name),
        ["x_prompt"],
      );
      assert.equal(untouched.client.getInstructions(), undefined);
    } finally {
      await Promise.all([edited.close(), untouched.close()]);
    }
    // Editing one build changed nothing on offer.
    assert.deepEqual(
      host.offeredTools().map((t) => [t.name, t.description]),
      [
        ["x_secret", undefined],
        ["x_tool", "original"],
        ["y_tool", undefined],
      ],
    );
  });
});

describe("onServer that throws", () => {
  it("discards that extension's changes to the build, logs EXTENSION_HOOK_FAILED naming it, and the build goes on", async () => {
    ({ host, records: logs } = await startedHost([
      {
        name: "careless",
        toolsets: [{ name: "main" }],
        tools: [textTool("keep_me"), textTool("also_keep")],
        onServer: (draft) => {
          draft.removeTool("keep_me");
          draft.updateTool("also_keep", { description: "half-edited" });
          draft.instructions = "half-written";
          throw new Error("hook exploded");
        },
      },
      {
        name: "careful",
        toolsets: [{ name: "main" }],
        tools: [textTool("careful_tool"), textTool("careful_drop")],
        onServer: (draft) => void draft.removeTool("careful_drop"),
      },
    ]));
    const built = await build(host, "");
    assert.deepEqual(built.toolNames, ["also_keep", "careful_tool", "keep_me", "list_server_toolsets"]);
    assert.equal(built.instructions, undefined);
    const failures = logsWithCode(logs, "EXTENSION_HOOK_FAILED");
    assert.deepEqual(
      failures.map((r) => ({ level: r.level, message: r.message, extension: r.data?.extension })),
      [
        {
          level: "warn",
          message: '[extension careless] onServer threw for build "main"; its changes to this build were discarded: hook exploded',
          extension: "careless",
        },
      ],
    );
    const { client, close } = await connectInProcess(host, "");
    try {
      assert.equal((await client.listTools()).tools.find((t) => t.name === "also_keep")?.description, undefined);
      assert.equal(await callOk(client, "keep_me"), "keep_me ok");
      assert.equal(await callOk(client, "careful_tool"), "careful_tool ok");
    } finally {
      await close();
    }
  });

  it("treats an onServer that returns a promise as failed, since a build cannot wait for it", async () => {
    ({ host, records: logs } = await startedHost([
      {
        name: "async-hook",
        tools: [textTool("async_tool")],
        onServer: (async (draft: ServerDraft) => {
          draft.removeTool("async_tool");
        }) as unknown as McpExtension["onServer"],
      },
      { name: "bystander", tools: [textTool("bystander_tool")] },
    ]));
    const built = await build(host, "");
    assert.deepEqual(built.toolNames, ["async_tool", "bystander_tool", "list_server_toolsets"]);
    assert.deepEqual(
      logsWithCode(logs, "EXTENSION_HOOK_FAILED").map((r) => r.data?.extension),
      ["async-hook"],
    );
  });
});
