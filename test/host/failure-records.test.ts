// An extension that failed to load or validate is a failure record, not an extension (docs/design.md §4 rule 9, §5):
// it shows in `extensions` as failed with its source and reason, and declares no toolset unless its toolsets could
// be read — it never invents a default-on placeholder toolset that every default selection would then carry.
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { McpHostError } from "../../src/errors.js";
import type { McpExtension } from "../../src/extension/types.js";
import { buildHost } from "../../src/host/build-host.js";
import { parseSelection } from "../../src/host/selection.js";
import { listenHost, type ListeningHost } from "../../src/http/listen.js";
import { memoryLogger } from "../../src/logger.js";
import { build, textTool } from "../helpers/kit.js";

let served: ListeningHost | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

const good: McpExtension = { name: "good", toolsets: [{ name: "good" }], tools: [textTool("good_tool")] };
const loadFailure = {
  name: "broken-pkg",
  source: 'package "broken-pkg" (./dist/index.js)',
  error: new McpHostError("EXTENSION_LOAD_FAILED", 'package "broken-pkg" (./dist/index.js): the file does not exist', { extension: "broken-pkg" }),
};

async function servedHost(extensions: readonly unknown[]) {
  const host = buildHost(
    {
      extensions: extensions.map((extension, i) => ({ extension: extension as McpExtension, source: `fixture #${i}`, packageName: `fixture-${i}` })),
      failures: [loadFailure],
    },
    { name: "records", logger: memoryLogger().logger },
  );
  await host.start();
  served = await listenHost(host, { port: 0 });
  return host;
}

describe("failure records", () => {
  it("declare no placeholder toolset, so the default selection and every build key carry only real toolsets", async () => {
    const host = await servedHost([good, 42, { tools: [] }]);
    const built = await build(host, "");
    assert.deepEqual(built.toolsets, ["good"]);
    assert.equal(built.key, "good");
    assert.deepEqual(
      host.declaredToolsets().map((t) => t.name),
      ["good"],
    );
  });

  it("show in /toolsets and list_server_toolsets as failed, with source and reason, and no active toolset serving nothing", async () => {
    await servedHost([good, 42]);
    const response = await fetch(new URL("/toolsets", served!.baseUrl));
    const answer = (await response.json()) as { active: string[]; toolsets: Array<{ name: string }>; extensions: unknown[] };
    assert.deepEqual(answer.active, ["good"]);
    assert.deepEqual(
      answer.toolsets.map((t) => t.name),
      ["good"],
    );
    assert.deepEqual(answer.extensions, [
      {
        name: "broken-pkg",
        status: "failed",
        source: 'package "broken-pkg" (./dist/index.js)',
        error: 'package "broken-pkg" (./dist/index.js): the file does not exist',
        code: "EXTENSION_LOAD_FAILED",
      },
      {
        name: "extension #1",
        status: "failed",
        source: "fixture #1",
        error: 'fixture #1: expected an extension object, got the number 42; export an object like defineExtension({ name: "my-extension", tools: [ … ] }).',
        code: "EXTENSION_INVALID",
      },
      { name: "good", status: "ready" },
    ]);
  });

  it("declare the toolsets that could be read off an invalid extension, quarantined like a failed setup", async () => {
    const host = await servedHost([good, { name: "half", toolsets: [{ name: "half", title: "Half", default: false }], tools: "oops" }]);
    const answer = await host.describe(parseSelection("half"));
    assert.deepEqual(
      answer.toolsets.find((t) => t.name === "half"),
      { name: "half", title: "Half", default: false, always: false, active: true, extensions: ["half"] },
    );
    assert.deepEqual(answer.unknown, [], "a URL naming the quarantined toolset is not told it is unknown");
    assert.deepEqual(answer.tools, ["good_tool", "list_server_toolsets"]);
  });
});
