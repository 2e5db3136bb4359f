// docs/design.md §10.10 / §11: the upstreams' resources, resource templates and prompts are served too — resources bare
// when unique and `server:uri` when two active upstream toolsets list the same URI, prompts named like tools — and
// reading a resource or getting a prompt through the host reaches the right upstream, in both eras.
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Cleanup, connectV1, connectV2 } from "../helpers/http-host.js";
import { EVERYTHING_DOCS } from "../helpers/registry/harness.js";
import { everythingServer, legacyServer, serveGateway } from "./gateway-kit.js";

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

function fixture(name: string, own: string) {
  return legacyServer(name, {
    tools: ["echo"],
    resources: [
      { uri: "doc://readme", name: "readme" },
      { uri: `doc://${own}`, name: own },
    ],
    templates: [{ uriTemplate: `${name}://{id}`, name: `${name} item` }],
    prompts: [{ name: "summarise", description: `summarise, by ${name}` }, { name: `${own}_prompt` }],
  });
}

describe("upstream resources and prompts", { timeout: 60_000 }, () => {
  it("names them per §10 and routes reads and gets to their upstream", async () => {
    const { at } = await serveGateway(cleanup, { servers: { a: fixture("a", "only_a"), b: fixture("b", "only_b") } });
    for (const era of ["modern", "legacy"] as const) {
      const { client } = await connectV2(cleanup, at("a&b"), era);
      const resources = (await client.listResources()).resources.map((r) => r.uri).sort();
      assert.deepEqual(resources, ["a:doc://readme", "b:doc://readme", "doc://only_a", "doc://only_b"], era);
      const templates = (await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate).sort();
      assert.deepEqual(templates, ["a://{id}", "b://{id}"], era);
      const prompts = (await client.listPrompts()).prompts.map((p) => p.name).sort();
      assert.deepEqual(prompts, ["a__summarise", "b__summarise", "only_a_prompt", "only_b_prompt"], era);

      const read = async (uri: string) => (await client.readResource({ uri })).contents.map((c) => ("text" in c ? c.text : "")).join("");
      assert.equal(await read("b:doc://readme"), "b read doc://readme", era);
      assert.equal(await read("doc://only_a"), "a read doc://only_a", era);
      assert.equal(await read("b://42"), "b read b://42", `${era}: a URI a template expands to`);
      const got = await client.getPrompt({ name: "a__summarise", arguments: { topic: "gateways" } });
      assert.deepEqual(got.messages, [{ role: "user", content: { type: "text", text: 'a prompt summarise {"topic":"gateways"}' } }], era);
      const plain = await client.getPrompt({ name: "only_b_prompt" });
      assert.equal((plain.messages[0]!.content as { text: string }).text, "b prompt only_b_prompt {}", era);
    }
    const alone = (await connectV1(cleanup, at("only=a"))).client;
    assert.deepEqual((await alone.listResources()).resources.map((r) => r.uri).sort(), ["doc://only_a", "doc://readme"], "bare when unique in the selection");
    assert.deepEqual((await alone.listPrompts()).prompts.map((p) => p.name).sort(), ["only_a_prompt", "summarise"]);
    const readme = await alone.readResource({ uri: "doc://readme" });
    assert.equal((readme.contents[0] as { text: string }).text, "a read doc://readme");
  });

  it("serves server-everything's documents, templates and prompts", async () => {
    const { at } = await serveGateway(cleanup, { servers: { everything: everythingServer() } });
    const { client } = await connectV2(cleanup, at("only=everything"), "modern");
    const doc = await client.readResource({ uri: "demo://resource/static/document/features.md" });
    assert.equal((doc.contents[0] as { text: string }).text, readFileSync(join(EVERYTHING_DOCS, "features.md"), "utf8"));
    const dynamic = await client.readResource({ uri: "demo://resource/dynamic/text/7" });
    assert.match((dynamic.contents[0] as { text: string }).text, /7/);
    const prompt = await client.getPrompt({ name: "args-prompt", arguments: { city: "Lisbon" } });
    assert.match(JSON.stringify(prompt.messages), /Lisbon/);
  });
});
