// The MRTR fixtures of the 2026-07-28 input-required-result-* scenarios (plugins/conformance/src/input-required-*.ts),
// in-process with a real modern SDK client that answers elicitation, sampling and roots: each completes once
// answered, multi_round takes two rounds, the prompt works on prompts/get. The official suite
// (`node scripts/conformance.mjs --extended`) checks the wire details.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createConformanceExtension } from "../../plugins/conformance/src/index.js";
import { buildHost } from "../../src/host/build-host.js";
import { silentLogger } from "../../src/index.js";
import { connectInProcess, type InProcessConnection } from "../helpers/in-process.js";

describe("conformance MRTR fixtures (modern era, in-process)", () => {
  const asked: string[] = [];
  let connection: InProcessConnection;
  before(async () => {
    const host = buildHost([createConformanceExtension()], { name: "conformance-mrtr", logger: silentLogger });
    await host.start();
    connection = await connectInProcess(host, "only=conformance", { era: "modern", capabilities: { elicitation: { form: {} }, sampling: {}, roots: {} } });
    const { client } = connection;
    client.setRequestHandler("elicitation/create", (request) => {
      const message = String((request.params as { message?: unknown }).message);
      asked.push(message);
      const content: Record<string, string | boolean> = message.includes("color")
        ? { color: "blue" }
        : message.includes("context")
          ? { context: "tests" }
          : { name: "Ada", ok: true };
      return { action: "accept" as const, content };
    });
    client.setRequestHandler("sampling/createMessage", () => ({
      role: "assistant",
      content: { type: "text", text: "Paris" },
      model: "test-model",
      stopReason: "endTurn",
    }));
    client.setRequestHandler("roots/list", () => ({ roots: [{ uri: "file:///test/root", name: "Test Root" }] }));
  });
  after(() => connection.close());

  const text = async (name: string) => {
    const result = await connection.client.callTool({ name, arguments: {} });
    return (result.content as Array<{ text: string }>)[0]!.text;
  };

  it("completes each single-input fixture once the client answers", async () => {
    assert.equal(await text("test_input_required_result_elicitation"), "Hello, Ada!");
    assert.equal(await text("test_input_required_result_sampling"), "The model answered: Paris");
    assert.equal(await text("test_input_required_result_list_roots"), "Client roots: file:///test/root");
    assert.match(await text("test_input_required_result_request_state"), /^state-ok/);
    assert.match(await text("test_input_required_result_tampered_state"), /^state verified/);
  });

  it("asks several inputs at once, and over two rounds", async () => {
    assert.equal(await text("test_input_required_result_multiple_inputs"), "name=Ada; greeting=Paris; roots=file:///test/root");
    asked.length = 0;
    assert.equal(await text("test_input_required_result_multi_round"), "Ada's favourite colour is blue");
    assert.deepEqual(asked, ["Step 1: What is your name?", "Step 2: What is your favorite color?"]);
  });

  it("asks on prompts/get too", async () => {
    const prompt = await connection.client.getPrompt({ name: "test_input_required_result_prompt" });
    assert.deepEqual(prompt.messages, [{ role: "user", content: { type: "text", text: "Answer with this context in mind: tests" } }]);
  });
});
