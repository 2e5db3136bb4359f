// The extension author's guide (docs/extensions.md) stays true: its worked example is the example package's
// source, byte for byte, and that example serves what the guide says through a real host and client.
import { readFileSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { buildHost } from "../../src/host/build-host.js";
import type { McpHost } from "../../src/host/host.js";
import { loadExtensions } from "../../src/host/loading/load-extensions.js";
import { silentLogger } from "../../src/logger.js";
import { connectInProcess } from "../helpers/in-process.js";
import notes from "../../examples/notes-extension/src/index.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const guide = readFileSync(new URL("../../docs/extensions.md", import.meta.url), "utf8");
const source = readFileSync(new URL("../../examples/notes-extension/src/index.ts", import.meta.url), "utf8");

function exampleBlock(markdown: string): string {
  const marker = "<!-- example: examples/notes-extension/src/index.ts -->\n```ts\n";
  const start = markdown.indexOf(marker);
  assert.notEqual(start, -1, "the guide has the example marker");
  const from = start + marker.length;
  return markdown.slice(from, markdown.indexOf("```\n", from));
}

describe("docs/extensions.md", () => {
  it("shows the example package's source exactly", () => {
    assert.equal(exampleBlock(guide), source);
  });
});

for (const era of ["legacy", "modern"] as const) {
  describe(`the worked example served in the ${era} era`, () => {
    let host: McpHost;
    before(async () => {
      host = buildHost([notes], { name: "guide", logger: silentLogger, extensionOptions: { notes: { welcome: "Start here." } } });
      await host.start();
    });
    after(async () => {
      await host.stop();
    });

    it("offers the notes toolset's tools, resources and prompt, with its instructions", async () => {
      const c = await connectInProcess(host, "only=notes", { era });
      try {
        assert.deepEqual(
          (await c.client.listTools()).tools.map((t) => t.name),
          ["add_note", "find_notes", "list_server_toolsets"],
        );
        assert.match(c.client.getInstructions() ?? "", /## Notes\n\nSearch notes before adding one/);
        const added = await c.client.callTool({ name: "add_note", arguments: { title: "Groceries", body: "milk, eggs", tags: ["home"] } });
        assert.deepEqual(added.structuredContent, { id: "n2", title: "Groceries", body: "milk, eggs", tags: ["home"] });
        const found = await c.client.callTool({ name: "find_notes", arguments: { text: "EGGS" } });
        assert.deepEqual(found.content, [{ type: "text", text: "n2: Groceries" }]);
        const invalid = await c.client.callTool({ name: "add_note", arguments: { title: "" } });
        assert.equal(invalid.isError, true);
        const listed = (await c.client.listResources()).resources.map((r) => r.uri);
        assert.deepEqual(listed, ["notes://n0", "notes://n2"]);
        const read = await c.client.readResource({ uri: "notes://n0" });
        assert.deepEqual(read.contents, [{ uri: "notes://n0", mimeType: "text/markdown", text: "# Welcome\n\nStart here." }]);
        const completion = await c.client.complete({ ref: { type: "ref/resource", uri: "notes://{id}" }, argument: { name: "id", value: "n" } });
        assert.deepEqual(completion.completion.values, ["n0", "n2"]);
        const prompt = await c.client.getPrompt({ name: "summarize_notes", arguments: { tag: "home" } });
        assert.deepEqual(prompt.messages, [{ role: "user", content: { type: "text", text: 'Summarize these notes tagged "home":\n- Groceries: milk, eggs' } }]);
      } finally {
        await c.close();
      }
    });
  });
}

describe("the example package", () => {
  it("is found by discovery from the repository's workspaces and loads from its build", async () => {
    const loaded = await loadExtensions({ cwd: root, names: ["mcp-host-example-notes"], logger: silentLogger });
    assert.deepEqual(
      loaded.extensions.map((e) => [e.extension.name, e.packageName]),
      [["notes", "mcp-host-example-notes"]],
    );
    assert.match(loaded.extensions[0]!.source, /mcp-host-example-notes/);
  });
});
