// §10.3: tools, resources, resource templates and prompts follow nextCursor to the end; a repeated cursor stops the
// walk with a warning, and so does the 100-page cap.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { countOf, legacyStdio, logsOf, registryHarness, stateDir } from "../../helpers/registry/harness.js";

const tools = ["echo", "count", "is_error", "mixed", "env"];
const resources = Array.from({ length: 5 }, (_, i) => ({ uri: `mem://doc/${i}`, name: `doc ${i}`, text: `doc ${i}` }));
const templates = Array.from({ length: 3 }, (_, i) => ({ uriTemplate: `mem://t${i}/{id}`, name: `t${i}` }));
const prompts = Array.from({ length: 3 }, (_, i) => ({ name: `prompt_${i}` }));

describe("pagination", () => {
  const h = registryHarness();

  it("follows every list to its last page", async () => {
    const dir = stateDir();
    const registry = h.make([
      legacyStdio("paged", { tools, resources, templates, prompts, toolPage: 2, resourcePage: 2, templatePage: 1, promptPage: 1, stateDir: dir }),
    ]);
    assert.deepEqual(
      (await registry.listTools()).map((t) => t.name),
      tools,
    );
    assert.equal(countOf(dir, "list:tools"), 3);
    assert.deepEqual(
      (await registry.listResources()).map((r) => r.uri),
      resources.map((r) => r.uri),
    );
    assert.deepEqual(
      (await registry.listResourceTemplates()).map((t) => t.definition.uriTemplate),
      templates.map((t) => t.uriTemplate),
    );
    assert.deepEqual(
      (await registry.listPrompts()).map((p) => p.name),
      prompts.map((p) => p.name),
    );
    assert.deepEqual(logsOf(h.records, "paged", "warn"), []);
  });

  it("stops at a repeated cursor with a warning, keeping what it read", async () => {
    const registry = h.make([legacyStdio("repeats", { tools, toolPage: 2, cursor: "repeat" })]);
    assert.deepEqual(
      (await registry.listTools()).map((t) => t.name),
      ["echo", "count"],
    );
    assert.deepEqual(logsOf(h.records, "repeats", "warn"), [
      "the server repeated a pagination cursor after 2 page(s); stopped listing there",
      'the server listed the tool "echo" twice; kept the first', // the repeated page listed them again
      'the server listed the tool "count" twice; kept the first',
    ]);
  });

  it("stops after 100 pages of a list that never ends, with a warning", async () => {
    const dir = stateDir();
    const registry = h.make([legacyStdio("endless", { tools, toolPage: 1, cursor: "endless", stateDir: dir })]);
    const listed = await registry.listTools();
    assert.deepEqual(
      listed.map((t) => t.name),
      ["echo"],
    );
    assert.equal(countOf(dir, "list:tools"), 100);
    assert.deepEqual(logsOf(h.records, "endless", "warn"), [
      "the list went on past 100 pages; stopped listing there",
      'the server listed the tool "echo" 100 times; kept the first', // one warning, not 99
    ]);
  });
});
