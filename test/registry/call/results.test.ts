// §10.5: results pass through faithfully (content blocks, structuredContent, isError, _meta); toText flattens them
// for agents that want text, never dropping a block.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { toText } from "../../../src/registry/index.js";
import { everythingStdio, legacyStdio, registryHarness } from "../../helpers/registry/harness.js";

describe("results", () => {
  const h = registryHarness();

  it("passes an upstream result through untouched", async () => {
    const registry = h.make([legacyStdio("fx", { tools: ["mixed", "is_error"] })]);
    assert.deepEqual(await registry.callTool("mixed"), {
      _meta: { "fixture/trace": "abc" },
      content: [
        { type: "text", text: "first" },
        { type: "image", data: Buffer.from("hello").toString("base64"), mimeType: "image/png" },
        { type: "text", text: "second" },
      ],
      structuredContent: { count: 2 },
    });
    assert.deepEqual(await registry.callTool("is_error"), { content: [{ type: "text", text: "upstream says no" }], isError: true });
  });

  it("turns server-everything's image into a placeholder, keeping the text around it", async () => {
    const registry = h.make([everythingStdio()]);
    const result = await registry.callTool("get-tiny-image");
    const image = result.content.find((c) => c.type === "image")!;
    assert.equal(image.type === "image" && image.mimeType, "image/png");
    const bytes = image.type === "image" ? Buffer.from(image.data, "base64").length : 0;
    assert.equal(toText(result), `Here's the image you requested:\n[image: image/png, ${bytes} bytes]\nThe image above is the MCP logo.`);
  });
});

describe("toText", () => {
  it("gives one text block as its text", () => {
    assert.equal(toText({ content: [{ type: "text", text: "only" }] }), "only");
  });

  it("joins several blocks with newlines and keeps non-text blocks as placeholders", () => {
    const text = toText({
      content: [
        { type: "text", text: "a" },
        { type: "image", data: "aGVsbG8=", mimeType: "image/png" },
        { type: "audio", data: "AAAA", mimeType: "audio/wav" },
        { type: "resource", resource: { uri: "mem://b", mimeType: "application/octet-stream", blob: "AAEC" } },
        { type: "resource", resource: { uri: "mem://t", text: "inline text" } },
        { type: "resource_link", uri: "mem://l", name: "link" },
        { type: "text", text: "b" },
      ],
    });
    assert.equal(
      text,
      [
        "a",
        "[image: image/png, 5 bytes]",
        "[audio: audio/wav, 3 bytes]",
        "[resource: application/octet-stream, 3 bytes]",
        "inline text",
        "[resource link: link mem://l]",
        "b",
      ].join("\n"),
    );
  });

  it("gives structured content as JSON when there is no content block", () => {
    assert.equal(toText({ content: [], structuredContent: { answer: 42 } }), '{"answer":42}');
  });

  it("flattens resource contents and prompt messages the same way", () => {
    assert.equal(
      toText({
        contents: [
          { uri: "a", text: "x" },
          { uri: "b", blob: "aGVsbG8=", mimeType: "image/png" },
        ],
      }),
      "x\n[resource: image/png, 5 bytes]",
    );
    assert.equal(toText({ messages: [{ role: "user", content: { type: "text", text: "hi" } }] }), "hi");
  });
});
