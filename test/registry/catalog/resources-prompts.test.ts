// §10.10: resources listed bare when unique and `server:uri` when two servers list the URI; readResource routes
// either form, `{ server }` reaches URIs never listed (templates), an ambiguous bare URI is an error naming the
// qualified forms. Prompts are named and routed like tools.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { isMcpHostError } from "../../../src/errors.js";
import { toText } from "../../../src/registry/index.js";
import { EVERYTHING_DOCS, EVERYTHING_OFFER, everythingStdio, legacyStdio, registryHarness } from "../../helpers/registry/harness.js";

const a = {
  resources: [
    { uri: "mem://shared", name: "shared", text: "shared from a" },
    { uri: "mem://only-a", name: "only a", text: "only in a" },
  ],
  prompts: [{ name: "review" }, { name: "summary" }],
};
const b = {
  resources: [{ uri: "mem://shared", name: "shared", text: "shared from b" }],
  templates: [{ uriTemplate: "mem://item/{id}", name: "item" }],
  prompts: [{ name: "review" }],
};

async function rejects(promise: Promise<unknown>, code: string, message: string): Promise<void> {
  await assert.rejects(promise, (error) => {
    assert.ok(isMcpHostError(error), String(error));
    assert.equal(error.code, code);
    assert.equal(error.message, message);
    return true;
  });
}

describe("resources and prompts", () => {
  const h = registryHarness();

  it("lists a URI bare when one server has it, qualified when two do", async () => {
    const registry = h.make([legacyStdio("a", a), legacyStdio("b", b)]);
    assert.deepEqual(
      (await registry.listResources()).map((r) => [r.uri, r.server, r.upstreamUri]),
      [
        ["a:mem://shared", "a", "mem://shared"],
        ["mem://only-a", "a", "mem://only-a"],
        ["b:mem://shared", "b", "mem://shared"],
      ],
    );
    assert.deepEqual(
      (await registry.listResourceTemplates()).map((t) => [t.server, t.definition.uriTemplate]),
      [["b", "mem://item/{id}"]],
    );
  });

  it("reads by bare, qualified and { server } forms", async () => {
    const registry = h.make([legacyStdio("a", a), legacyStdio("b", b)]);
    assert.equal(toText(await registry.readResource("mem://only-a")), "only in a");
    assert.equal(toText(await registry.readResource("a:mem://shared")), "shared from a");
    assert.equal(toText(await registry.readResource("b:mem://shared")), "shared from b");
    assert.equal(toText(await registry.readResource("mem://item/7", { server: "b" })), "b read mem://item/7");
    assert.equal(toText(await registry.readResource("mem://shared", { server: "a" })), "shared from a");
  });

  it("refuses an ambiguous bare URI, naming the qualified forms, and unknown URIs and servers", async () => {
    const registry = h.make([legacyStdio("a", a), legacyStdio("b", b)]);
    await rejects(
      registry.readResource("mem://shared"),
      "MCP_TOOL_AMBIGUOUS",
      'resource "mem://shared" is listed by several servers; read one of: a:mem://shared, b:mem://shared',
    );
    await rejects(
      registry.readResource("mem://item/7"),
      "MCP_RESOURCE_UNKNOWN",
      'no server lists a resource "mem://item/7"; for a template URI pass { server }',
    );
    await rejects(registry.readResource("mem://x", { server: "c" }), "MCP_SERVER_UNKNOWN", 'no server is named "c"');
  });

  it("names prompts like tools and routes every accepted form", async () => {
    const registry = h.make([legacyStdio("a", a), legacyStdio("b", b)]);
    assert.deepEqual(
      (await registry.listPrompts()).map((p) => [p.name, p.server]),
      [
        ["a__review", "a"],
        ["summary", "a"],
        ["b__review", "b"],
      ],
    );
    assert.equal(toText(await registry.getPrompt("summary", { topic: "x" })), 'a prompt summary {"topic":"x"}');
    assert.equal(toText(await registry.getPrompt("b__review")), "b prompt review {}");
    assert.equal(toText(await registry.getPrompt("a.review")), "a prompt review {}");
    await rejects(registry.getPrompt("review"), "MCP_TOOL_AMBIGUOUS", 'prompt "review" is offered by several servers; use one of: a__review, b__review');
    await rejects(registry.getPrompt("nope"), "MCP_PROMPT_UNKNOWN", 'no server offers a prompt named "nope"');
  });

  it("reads server-everything's resources, templates and prompts", async () => {
    const registry = h.make([everythingStdio()]);
    const resources = await registry.listResources();
    assert.deepEqual(
      resources.map((r) => [r.uri, r.server]),
      EVERYTHING_OFFER.documents.map((d) => [`demo://resource/static/document/${d}`, "everything"]),
    );
    assert.equal(toText(await registry.readResource(resources[0]!.uri)), readFileSync(join(EVERYTHING_DOCS, "architecture.md"), "utf8"));
    const templates = (await registry.listResourceTemplates()).map((t) => t.definition.uriTemplate);
    assert.deepEqual(templates, EVERYTHING_OFFER.templates);
    const uri = templates[0]!.replace("{resourceId}", "3");
    assert.match(toText(await registry.readResource(uri, { server: "everything" })), /^Resource 3: This is a plaintext resource created at .+$/); // .+ is the time it was read
    assert.deepEqual(
      (await registry.listPrompts()).map((p) => p.name),
      EVERYTHING_OFFER.prompts,
    );
    assert.equal(toText(await registry.getPrompt("simple-prompt")), "This is a simple prompt without arguments.");
  });
});
