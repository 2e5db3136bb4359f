// The conformance plugin through the real HTTP app (127.0.0.1:0) and real SDK v2 clients in both eras: it is
// off by default and complete under ?only=conformance; sampling and elicitation reach the client (MRTR for a 2026
// client, real requests on a 2025 session) or are refused cleanly without the capability; progress, completion and
// resource updates work; its two skills are served and verify; its header-parameter tool's Mcp-Param-Region header
// must agree with the body (a 2026 call whose header disagrees is 400 / -32020). The official suites
// (scripts/conformance.mjs) check the wire details; this pins the plugin.
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { Client } from "@modelcontextprotocol/client";
import { SkillsClient } from "@modelcontextprotocol/client/ext/skills";
import { createConformanceExtension } from "../../plugins/conformance/src/index.js";
import { JSON_SCHEMA_2020_12 } from "../../plugins/conformance/src/content-tools.js";
import { Cleanup, callText, connectV2, modernBody, modernHeaders, raw, serveHost, type ServedHost } from "../helpers/http-host.js";

const TOOLS = [
  "confirm_delete",
  "failing_job",
  "greet",
  "json_schema_2020_12_tool",
  "list_server_toolsets",
  "multi_input",
  "protocol_error_job",
  "slow_compute",
  "test_audio_content",
  "test_elicitation",
  "test_elicitation_sep1034_defaults",
  "test_elicitation_sep1330_enums",
  "test_embedded_resource",
  "test_error_handling",
  "test_header_params",
  "test_image_content",
  "test_input_required_result_capabilities",
  "test_input_required_result_elicitation",
  "test_input_required_result_list_roots",
  "test_input_required_result_multi_round",
  "test_input_required_result_multiple_inputs",
  "test_input_required_result_request_state",
  "test_input_required_result_sampling",
  "test_input_required_result_tampered_state",
  "test_multiple_content_types",
  "test_sampling",
  "test_simple_text",
  "test_tool_with_logging",
  "test_tool_with_progress",
  "test_tool_with_task",
  "test_update_watched_resource",
];
const PROMPTS = [
  "test_input_required_result_prompt",
  "test_prompt_with_arguments",
  "test_prompt_with_embedded_resource",
  "test_prompt_with_image",
  "test_simple_prompt",
];
const SKILLS = ["skill://conformance-basics/SKILL.md", "skill://header-params/SKILL.md"];
const RESOURCES = [...SKILLS, "test://static-binary", "test://static-text", "test://watched-resource"];
const INTERACTIVE = { capabilities: { sampling: {}, elicitation: { form: {} } } };

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

async function served(): Promise<ServedHost> {
  return serveHost(cleanup, [createConformanceExtension()]);
}

/** A client that answers sampling and elicitation, recording what it was asked. */
function interactive(asked: Array<{ method: string; params: any }>) {
  return (client: Client) => {
    client.setRequestHandler("sampling/createMessage", (request) => {
      asked.push({ method: request.method, params: request.params });
      return { role: "assistant", content: { type: "text", text: "a sampled answer" }, model: "test-model", stopReason: "endTurn" };
    });
    client.setRequestHandler("elicitation/create", (request) => {
      asked.push({ method: request.method, params: request.params });
      return { action: "accept", content: { username: "ada", email: "ada@example.com" } };
    });
  };
}

const sorted = (names: string[]) => [...names].sort();

for (const era of ["legacy", "modern"] as const) {
  describe(`conformance plugin over HTTP (${era} era)`, () => {
    it("offers nothing on the bare URL and every fixture under ?only=conformance", async () => {
      const { url, at } = await served();
      const bare = (await connectV2(cleanup, url, era)).client;
      assert.deepEqual(
        (await bare.listTools()).tools.map((t) => t.name),
        ["list_server_toolsets"],
      );

      const { client } = await connectV2(cleanup, at("only=conformance"), era);
      const tools = (await client.listTools()).tools;
      assert.deepEqual(sorted(tools.map((t) => t.name)), TOOLS);
      assert.ok(tools.every((t) => typeof t.description === "string" && t.description.length > 0));
      assert.deepEqual(tools.find((t) => t.name === "json_schema_2020_12_tool")?.inputSchema, JSON_SCHEMA_2020_12);
      assert.deepEqual(sorted((await client.listPrompts()).prompts.map((p) => p.name)), PROMPTS);
      assert.deepEqual(sorted((await client.listResources()).resources.map((r) => r.uri)), RESOURCES);
      assert.deepEqual(
        (await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate),
        ["test://template/{id}/data"],
      );
      const read = await client.readResource({ uri: "test://template/123/data" });
      assert.deepEqual(JSON.parse((read.contents[0] as { text: string }).text), { id: "123", templateTest: true, data: "Data for ID: 123" });
    });

    it("asks the client for sampling and elicitation and reports its answers", async () => {
      const { at } = await served();
      const asked: Array<{ method: string; params: any }> = [];
      const { client } = await connectV2(cleanup, at("only=conformance"), era, { clientOptions: INTERACTIVE, setup: interactive(asked) });

      assert.equal(await callText(client, "test_sampling", { prompt: "Say hi" }), "LLM response: a sampled answer");
      assert.equal(
        await callText(client, "test_elicitation", { message: "Who are you?" }),
        'User response: action=accept, content={"username":"ada","email":"ada@example.com"}',
      );
      assert.deepEqual(
        asked.map((a) => a.method),
        ["sampling/createMessage", "elicitation/create"],
      );
      assert.deepEqual(asked[0]!.params.messages, [{ role: "user", content: { type: "text", text: "Say hi" } }]);
      assert.equal(asked[0]!.params.maxTokens, 100);
      assert.equal(asked[1]!.params.message, "Who are you?");
      assert.deepEqual(asked[1]!.params.requestedSchema.required, ["username", "email"]);
    });

    it("refuses sampling and elicitation with an isError result when the client did not declare them", async () => {
      const { at } = await served();
      const { client } = await connectV2(cleanup, at("only=conformance"), era, { clientOptions: { capabilities: {} } });
      const sampling = await client.callTool({ name: "test_sampling", arguments: { prompt: "x" } });
      assert.deepEqual(
        { content: sampling.content, isError: sampling.isError },
        { content: [{ type: "text", text: "Sampling not supported: the client did not declare the sampling capability." }], isError: true },
      );
      const elicitation = await client.callTool({ name: "test_elicitation_sep1034_defaults", arguments: {} });
      assert.equal(elicitation.isError, true);
      assert.match((elicitation.content as Array<{ text: string }>)[0]!.text, /^Elicitation not supported/);
    });

    it("reports progress 0, 50 and 100 of 100 and completes prompt arguments", async () => {
      const { at } = await served();
      const { client } = await connectV2(cleanup, at("only=conformance"), era);
      const progress: number[] = [];
      const result = await client.callTool({ name: "test_tool_with_progress", arguments: {} }, { onprogress: (p) => progress.push(p.progress) });
      assert.deepEqual(progress, [0, 50, 100]);
      assert.equal(result.isError, undefined);
      const completion = await client.complete({ ref: { type: "ref/prompt", name: "test_prompt_with_arguments" }, argument: { name: "arg1", value: "par" } });
      assert.deepEqual(completion.completion.values, ["paris", "park", "party", "parse"]);
    });

    it("serves its two skills, every file verified against its digest, with directory reads", async () => {
      const { at } = await served();
      const { client } = await connectV2(cleanup, at("only=conformance"), era);
      const skills = new SkillsClient(client);
      assert.equal(skills.supported, true);
      assert.equal(skills.directoryRead, true);
      const { skills: entries } = await skills.list();
      assert.deepEqual(
        entries.map((e) => e.uri),
        SKILLS,
      );
      for (const entry of entries) {
        for (const file of entry.resources === "dynamic" ? [] : entry.resources) {
          const read = await skills.read(entry, file.uri);
          assert.equal(read.verified, true, file.uri);
        }
      }
      const root = await skills.readDirectory("skill://conformance-basics");
      assert.deepEqual(
        root.resources.map((r) => [r.name, r.mimeType]),
        [
          ["SKILL.md", "text/markdown"],
          ["references", "inode/directory"],
        ],
      );
      const bare = new SkillsClient((await connectV2(cleanup, (await served()).url, era)).client);
      assert.equal(bare.supported, true, "every selection declares the extension");
      assert.deepEqual((await bare.list()).skills, [], "the bare URL serves no toolset with skills, so it lists none");
    });

    it("tells a subscribed client when test://watched-resource changes", async () => {
      const { at } = await served();
      const { client } = await connectV2(cleanup, at("only=conformance"), era);
      const updated = new Promise<string>((resolve) => client.setNotificationHandler("notifications/resources/updated", (n) => resolve(n.params.uri)));
      if (era === "legacy") await client.subscribeResource({ uri: "test://watched-resource" });
      else await client.listen({ resourceSubscriptions: ["test://watched-resource"] }); // ended by client.close() in cleanup
      assert.match(await callText(client, "test_update_watched_resource"), /revision 1$/);
      assert.equal(await updated, "test://watched-resource");
      const read = await client.readResource({ uri: "test://watched-resource" });
      assert.equal((read.contents[0] as { text: string }).text, "Watched resource content (revision 1)");
    });
  });
}

describe("test_header_params over HTTP (2026-07-28, SEP-2243)", () => {
  const call = (url: URL, region: unknown, headers: Record<string, string>) =>
    raw({
      url,
      method: "POST",
      headers: { ...modernHeaders("tools/call", "test_header_params"), ...headers },
      body: modernBody("tools/call", { name: "test_header_params", arguments: { region } }),
    });

  it("serves a call whose Mcp-Param-Region agrees with the body, plain or base64", async () => {
    const { at } = await served();
    const url = at("only=conformance");
    const plain = await call(url, "eu-west", { "mcp-param-region": "eu-west" });
    assert.equal(plain.status, 200, plain.text);
    assert.match(plain.text, /region: eu-west/);
    const encoded = await call(url, "zürich", { "mcp-param-region": `=?base64?${Buffer.from("zürich").toString("base64")}?=` });
    assert.equal(encoded.status, 200, encoded.text);
    assert.match(encoded.text, /region: zürich/);
  });

  it("refuses a call whose header disagrees, is missing, or is not canonical base64: 400 with -32020 naming the header", async () => {
    const { at } = await served();
    const url = at("only=conformance");
    for (const [headers, problem] of [
      [{ "mcp-param-region": "us-east" }, /Mcp-Param-Region header says "us-east" but the body carries region="eu-west"/],
      [{}, /the body carries region="eu-west" but the Mcp-Param-Region header is absent/],
      [{ "mcp-param-region": "=?base64?ZXUtd2VzdA?=" }, /not canonical base64/],
    ] as const) {
      const refused = await call(url, "eu-west", headers);
      assert.equal(refused.status, 400, refused.text);
      const body = JSON.parse(refused.text);
      assert.equal(body.id, 1);
      assert.equal(body.error.code, -32020);
      assert.match(body.error.message, problem);
      assert.equal(body.error.data.mismatch.header, "Mcp-Param-Region");
    }
  });
});
