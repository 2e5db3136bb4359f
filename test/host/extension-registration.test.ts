// Registering extensions (docs/design.md §4 rules 1, 9; §5): a second extension with a taken name is refused with
// EXTENSION_NAME_TAKEN naming both sources, and an object that is not a valid extension is quarantined with
// EXTENSION_INVALID — in both cases only that extension is lost and every other one serves.
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { isMcpHostError } from "../../src/errors.js";
import type { McpExtension } from "../../src/extension/types.js";
import type { McpHost } from "../../src/host/host.js";
import type { LogRecord } from "../../src/logger.js";
import { parseSelection } from "../../src/host/selection.js";
import { connectInProcess } from "../helpers/in-process.js";
import { callOk, logsWithCode, startedHost, textTool, toolNames } from "../helpers/kit.js";

let host: McpHost | undefined;
let records: LogRecord[] = [];
afterEach(async () => {
  await host?.stop().catch(() => {});
  host = undefined;
});

const bystander: McpExtension = { name: "bystander", tools: [textTool("bystander_tool")] };

describe("duplicate extension names", () => {
  it("refuses the second extension with a taken name, naming both sources, and serves the rest", async () => {
    ({ host, records } = await startedHost([
      { name: "twin", tools: [textTool("first_twin_tool")] },
      bystander,
      { name: "twin", tools: [textTool("second_twin_tool")] },
    ]));
    const message = 'extension name "twin" is taken: buildHost() argument #2 and buildHost() argument #0 both use it; rename one';
    assert.deepEqual(
      logsWithCode(records, "EXTENSION_NAME_TAKEN").map((r) => ({ level: r.level, message: r.message, extension: r.data?.extension })),
      [{ level: "error", message, extension: "twin" }],
    );
    assert.deepEqual(host.extensionStatuses(), [
      { name: "bystander", status: "ready" },
      { name: "twin", status: "ready" },
      { name: "twin (2)", status: "failed", source: "buildHost() argument #2", error: message, code: "EXTENSION_NAME_TAKEN" },
    ]);
    const { client, close } = await connectInProcess(host, "");
    try {
      assert.deepEqual(await toolNames(client), ["bystander_tool", "first_twin_tool", "list_server_toolsets"]);
      assert.equal(await callOk(client, "first_twin_tool"), "first_twin_tool ok");
      assert.equal(await callOk(client, "bystander_tool"), "bystander_tool ok");
    } finally {
      await close();
    }
  });

  it("rejects add() of an extension whose name is taken, naming both sources, and keeps serving", async () => {
    ({ host, records } = await startedHost([{ name: "twin", tools: [textTool("first_twin_tool")] }, bystander]));
    const revision = host.revision;
    await assert.rejects(host.add({ name: "twin", tools: [textTool("second_twin_tool")] }, 'package "late-twin" (./ext.js)'), (e: unknown) => {
      assert.ok(isMcpHostError(e, "EXTENSION_NAME_TAKEN"));
      assert.equal(e.extension, "twin");
      assert.equal(e.message, 'extension name "twin" is taken: package "late-twin" (./ext.js) and buildHost() argument #0 both use it; rename one');
      return true;
    });
    assert.equal(host.revision, revision);
    const { client, close } = await connectInProcess(host, "");
    try {
      assert.deepEqual(await toolNames(client), ["bystander_tool", "first_twin_tool", "list_server_toolsets"]);
      assert.equal(await callOk(client, "bystander_tool"), "bystander_tool ok");
    } finally {
      await close();
    }
  });
});

describe("an invalid extension object", () => {
  it("is quarantined with EXTENSION_INVALID naming its source while the others serve", async () => {
    ({ host, records } = await startedHost([bystander, { name: "shapeless", tools: "not a list" } as unknown as McpExtension, 42 as unknown as McpExtension]));
    const shapeless =
      'buildHost() argument #1: extension "shapeless" has a problem: tools must be an array when present (got the string "not a list"); write tools: [ … ] or leave it out.';
    const number =
      'buildHost() argument #2: expected an extension object, got the number 42; export an object like defineExtension({ name: "my-extension", tools: [ … ] }).';
    assert.deepEqual(
      logsWithCode(records, "EXTENSION_INVALID").map((r) => ({ level: r.level, message: r.message, extension: r.data?.extension })),
      [
        { level: "error", message: shapeless, extension: "shapeless" },
        { level: "error", message: number, extension: "extension #2" },
      ],
    );
    const answer = await host.describe(parseSelection(""));
    assert.deepEqual(answer.extensions, [
      { name: "bystander", status: "ready" },
      { name: "extension #2", status: "failed", source: "buildHost() argument #2", error: number, code: "EXTENSION_INVALID" },
      { name: "shapeless", status: "failed", source: "buildHost() argument #1", error: shapeless, code: "EXTENSION_INVALID" },
    ]);
    const { client, close } = await connectInProcess(host, "");
    try {
      assert.deepEqual(await toolNames(client), ["bystander_tool", "list_server_toolsets"]);
      assert.equal(await callOk(client, "bystander_tool"), "bystander_tool ok");
    } finally {
      await close();
    }
  });
});

describe("add() checks an extension as buildHost and replace do (issue 17 class 9)", () => {
  it("refuses every shape buildHost would quarantine, and nothing changes", async () => {
    ({ host, records } = await startedHost([bystander]));
    const before = { revision: host.revision, toolsets: host.declaredToolsets().map((t) => t.name) };
    const invalid: Array<[string, unknown]> = [
      ["a toolset named like a list", { name: "lists", toolsets: [{ name: "a,b" }], tools: [textTool("list_tool")] }],
      ["a reserved toolset name", { name: "reserved", toolsets: [{ name: "only" }] }],
      ["an empty toolset name", { name: "empty", toolsets: [{ name: "" }] }],
      ["a toolset name too long", { name: "long", toolsets: [{ name: "x".repeat(65) }] }],
      ["a space in a toolset name", { name: "spaced", toolsets: [{ name: "a b" }] }],
      ["a contribution to a bad toolset", { name: "contrib", tools: [textTool("t", { toolset: "x&y" })] }],
      ["a home toolset named like a list", { name: "home,run", tools: [textTool("home_tool")] }],
      ["no name", { tools: [textTool("nameless")] }],
      ["tools that are not a list", { name: "notlist", tools: "nope" }],
      ["a tool without a handler", { name: "nohandler", tools: [{ name: "x" }] }],
    ];
    const accepted: string[] = [];
    for (const [what, extension] of invalid) {
      try {
        await host.add(extension as McpExtension, `test: ${what}`);
        accepted.push(what);
      } catch (error) {
        assert.ok(isMcpHostError(error, "EXTENSION_INVALID"), `${what}: ${String(error)}`);
        assert.match((error as Error).message, /^test: /, `${what}: the error names where the extension came from`);
      }
    }
    assert.deepEqual(accepted, []);
    assert.deepEqual({ revision: host.revision, toolsets: host.declaredToolsets().map((t) => t.name) }, before);
    // `?only=a,b` is two names, never the toolset a bad add() would have declared.
    const built = await host.build(parseSelection("only=a,b"));
    assert.deepEqual([...built.unknown], ["a", "b"]);
  });
});
