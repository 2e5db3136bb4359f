/**
 * Tools that return each kind of content block (text, image, audio, embedded resource, a mix) and an error,
 * plus the tool whose input schema uses JSON Schema 2020-12 keywords the host must pass through untouched.
 * Scenarios: tools-call-simple-text, -image, -audio, -embedded-resource, -mixed-content, -error, json-schema-2020-12.
 */
import { defineTool, type ToolSpec } from "mcp-host";
import { TEST_AUDIO_BASE64, TEST_IMAGE_BASE64 } from "./fixtures.js";
import { NO_ARGUMENTS } from "./arguments.js";

/**
 * The input schema of `json_schema_2020_12_tool`, as conformance 0.2.0-alpha.12 specifies it: SEP-1613's `$schema`,
 * `$defs` and `additionalProperties` plus SEP-2106's `$anchor`, `allOf`/`anyOf` and `if`/`then`/`else` (a
 * superset of what 0.1.13 checks). The host must list it unchanged.
 */
export const JSON_SCHEMA_2020_12 = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  $defs: {
    address: { $anchor: "addressDef", type: "object", properties: { street: { type: "string" }, city: { type: "string" } } },
  },
  properties: {
    name: { type: "string" },
    address: { $ref: "#/$defs/address" },
    contactMethod: { type: "string", enum: ["phone", "email"] },
    phone: { type: "string" },
    email: { type: "string" },
  },
  allOf: [{ anyOf: [{ required: ["phone"] }, { required: ["email"] }] }],
  if: { properties: { contactMethod: { const: "phone" } }, required: ["contactMethod"] },
  then: { required: ["phone"] },
  else: { required: ["email"] },
  additionalProperties: false,
} as const;

export const contentTools: ToolSpec<any>[] = [
  defineTool({
    name: "test_simple_text",
    description: "Returns one text content block.",
    inputSchema: NO_ARGUMENTS,
    handler: () => ({ content: [{ type: "text", text: "This is a simple text response for testing." }] }),
  }),
  defineTool({
    name: "test_image_content",
    description: "Returns one image content block (a 1×1 PNG).",
    inputSchema: NO_ARGUMENTS,
    handler: () => ({ content: [{ type: "image", data: TEST_IMAGE_BASE64, mimeType: "image/png" }] }),
  }),
  defineTool({
    name: "test_audio_content",
    description: "Returns one audio content block (a minimal WAV).",
    inputSchema: NO_ARGUMENTS,
    handler: () => ({ content: [{ type: "audio", data: TEST_AUDIO_BASE64, mimeType: "audio/wav" }] }),
  }),
  defineTool({
    name: "test_embedded_resource",
    description: "Returns one embedded text resource.",
    inputSchema: NO_ARGUMENTS,
    handler: () => ({
      content: [{ type: "resource", resource: { uri: "test://embedded-resource", mimeType: "text/plain", text: "This is an embedded resource content." } }],
    }),
  }),
  defineTool({
    name: "test_multiple_content_types",
    description: "Returns text, an image and an embedded resource in one result.",
    inputSchema: NO_ARGUMENTS,
    handler: () => ({
      content: [
        { type: "text", text: "Multiple content types test:" },
        { type: "image", data: TEST_IMAGE_BASE64, mimeType: "image/png" },
        {
          type: "resource",
          resource: { uri: "test://mixed-content-resource", mimeType: "application/json", text: JSON.stringify({ test: "data", value: 123 }) },
        },
      ],
    }),
  }),
  defineTool({
    name: "test_error_handling",
    description: "Always fails: the host must turn the thrown error into an isError result carrying its message.",
    inputSchema: NO_ARGUMENTS,
    handler: () => {
      throw new Error("This tool intentionally returns an error for testing");
    },
  }),
  defineTool({
    name: "json_schema_2020_12_tool",
    description: "Tool with JSON Schema 2020-12 features ($schema, $defs, additionalProperties) that must reach clients unchanged (SEP-1613).",
    inputSchema: JSON_SCHEMA_2020_12,
    handler: (args) => ({ content: [{ type: "text", text: `JSON Schema 2020-12 tool called with: ${JSON.stringify(args)}` }] }),
  }),
];
