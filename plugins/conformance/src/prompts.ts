/**
 * The prompts the suite lists and gets: one without arguments, one with two arguments (and completion for the
 * first), one that embeds a resource and one that carries an image.
 * Scenarios: prompts-list, prompts-get-simple, -with-args, -embedded-resource, -with-image, completion-complete.
 */
import type { PromptSpec } from "mcp-host";
import { TEST_IMAGE_BASE64 } from "./fixtures.js";

/** Suggestions for `arg1`, as the suite's completion example shows ("par" → paris, park, party). */
const ARG1_VALUES = ["paris", "park", "party", "parse", "pattern", "test", "value"];

export const prompts: PromptSpec[] = [
  {
    name: "test_simple_prompt",
    title: "Simple Test Prompt",
    description: "A simple prompt without arguments.",
    get: () => ({ messages: [{ role: "user", content: { type: "text", text: "This is a simple prompt for testing." } }] }),
  },
  {
    name: "test_prompt_with_arguments",
    title: "Prompt With Arguments",
    description: "A prompt with two required arguments.",
    arguments: [
      { name: "arg1", description: "First test argument", required: true },
      { name: "arg2", description: "Second test argument", required: true },
    ],
    complete: { arg1: (value) => ARG1_VALUES.filter((candidate) => candidate.startsWith(value.toLowerCase())) },
    get: (args) => ({
      messages: [{ role: "user", content: { type: "text", text: `Prompt with arguments: arg1='${args.arg1}', arg2='${args.arg2}'` } }],
    }),
  },
  {
    name: "test_prompt_with_embedded_resource",
    title: "Prompt With Embedded Resource",
    description: "A prompt that embeds the resource named by its argument.",
    arguments: [{ name: "resourceUri", description: "URI of the resource to embed", required: true }],
    get: (args) => ({
      messages: [
        {
          role: "user",
          content: { type: "resource", resource: { uri: args.resourceUri, mimeType: "text/plain", text: "Embedded resource content for testing." } },
        },
        { role: "user", content: { type: "text", text: "Please process the embedded resource above." } },
      ],
    }),
  },
  {
    name: "test_prompt_with_image",
    title: "Prompt With Image",
    description: "A prompt that carries an image.",
    get: () => ({
      messages: [
        { role: "user", content: { type: "image", data: TEST_IMAGE_BASE64, mimeType: "image/png" } },
        { role: "user", content: { type: "text", text: "Please analyze the image above." } },
      ],
    }),
  },
];
