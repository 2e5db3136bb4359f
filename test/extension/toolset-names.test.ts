// Toolset names must be writable in a URL selection (docs/design.md §6): checked when an extension is validated and when
// it adds a toolset later. A toolset named "a,b" would otherwise share a build with ?only=a,b, so one URL would be
// served another selection's tools.
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { isMcpHostError } from "../../src/errors.js";
import type { ExtensionContext, McpExtension } from "../../src/extension/types.js";
import { toolsetNameProblem, TOOLSET_NAME_RULE } from "../../src/extension/toolset-name.js";
import { validateExtension } from "../../src/extension/validate.js";
import type { LogRecord } from "../../src/logger.js";
import type { McpHost } from "../../src/host/host.js";
import { build, startedHost, textTool } from "../helpers/kit.js";

let host: McpHost | undefined;
afterEach(async () => {
  await host?.stop();
  host = undefined;
});

function invalidMessage(value: unknown): string {
  try {
    validateExtension(value, "test");
  } catch (error) {
    assert.ok(isMcpHostError(error, "EXTENSION_INVALID"), String(error));
    return error.message;
  }
  assert.fail("expected EXTENSION_INVALID");
}

describe("toolset names", () => {
  it("accepts names a URL can carry as they are: words, npm package names", () => {
    for (const name of ["spaces", "hf-docs", "v1.2", "snake_case", "@scope/pkg", "a~b", "x".repeat(64)])
      assert.equal(toolsetNameProblem(name), undefined, name);
  });

  it("refuses separators of the grammar, URL syntax, blanks, reserved words and over-long names", () => {
    for (const name of [
      "a,b",
      "a b",
      "a&b",
      "a=b",
      "a+b",
      "a%2Cb",
      "a#b",
      "a?b",
      "",
      "only",
      "toolsets",
      "without",
      "all",
      "default",
      "readonly",
      "search",
      "tools",
      "x".repeat(65),
      "ü",
    ]) {
      assert.notEqual(toolsetNameProblem(name), undefined, name);
    }
  });

  it("refuses a declared toolset named a,b with EXTENSION_INVALID naming the toolset and the allowed characters", () => {
    const message = invalidMessage({ name: "clash", toolsets: [{ name: "a,b" }] });
    assert.equal(
      message,
      `test: extension "clash" has a problem: toolsets[0] ("a,b"): toolset name "a,b" cannot be written in a URL selection; ${TOOLSET_NAME_RULE}.`,
    );
  });

  it("refuses a contribution's toolset field, and an extension name that becomes its home toolset", () => {
    assert.match(
      invalidMessage({ name: "ok", tools: [textTool("t", { toolset: "x&y" })] }),
      /tools\[0\] \("t"\): toolset name "x&y" cannot be written in a URL selection/,
    );
    assert.match(
      invalidMessage({ name: "ok", prompts: [{ name: "p", toolset: "only", get: () => ({ messages: [] }) }] }),
      /toolset name "only" is a reserved word of the URL selection grammar/,
    );
    assert.match(
      invalidMessage({ name: "my tools", tools: [textTool("t")] }),
      /name: it declares no toolsets, so its name is also its toolset's name, and toolset name "my tools" cannot be written/,
    );
    // An extension whose name is not URL-safe is fine when it declares its toolsets.
    assert.equal(validateExtension({ name: "my tools", toolsets: [{ name: "kit" }] }, "test").name, "my tools");
  });

  it("keeps ?only=a,b and the default selection apart when someone tries to declare a toolset named a,b", async () => {
    const extensions: McpExtension[] = [
      { name: "a", toolsets: [{ name: "a", default: false }], tools: [textTool("a_tool")] },
      { name: "b", toolsets: [{ name: "b", default: false }], tools: [textTool("b_tool")] },
      { name: "sneaky", toolsets: [{ name: "a,b" }], tools: [textTool("sneaky_tool")] },
    ];
    let records: LogRecord[];
    ({ host, records } = await startedHost(extensions));
    const byDefault = await build(host, "");
    const onlyAB = await build(host, "only=a,b");
    assert.deepEqual(byDefault.toolNames, ["list_server_toolsets"]);
    assert.deepEqual(onlyAB.toolNames, ["a_tool", "b_tool", "list_server_toolsets"]);
    assert.deepEqual(onlyAB.toolsets, ["a", "b"]);
    assert.deepEqual(host.extensionStatuses().find((e) => e.name === "sneaky")?.code, "EXTENSION_INVALID");
    assert.equal(records.filter((r) => r.data?.code === "EXTENSION_INVALID").length, 1);
  });

  it("refuses a toolset name that cannot be written in a URL when an extension adds it after start", async () => {
    let ctx: ExtensionContext | undefined;
    ({ host } = await startedHost([{ name: "dynamic", toolsets: [{ name: "dynamic" }], setup: (c) => void (ctx = c) }]));
    const revision = host.revision;
    assert.throws(
      () => ctx!.addToolset({ name: "x,y" }),
      (e: unknown) =>
        isMcpHostError(e, "EXTENSION_INVALID") &&
        e.message === `[extension dynamic] addToolset: toolset name "x,y" cannot be written in a URL selection; ${TOOLSET_NAME_RULE}`,
    );
    assert.throws(
      () => ctx!.addTool(textTool("t", { toolset: "a b" })),
      (e: unknown) => isMcpHostError(e, "EXTENSION_INVALID") && e.extension === "dynamic",
    );
    assert.throws(
      () => ctx!.replaceOffer({ prompts: [{ name: "p", toolset: "q&r", get: () => ({ messages: [] }) }] }),
      (e: unknown) => isMcpHostError(e, "EXTENSION_INVALID"),
    );
    assert.equal(host.revision, revision, "a refused change changes nothing");
    assert.deepEqual(
      host.declaredToolsets().map((t) => t.name),
      ["dynamic"],
    );
  });
});
