/**
 * The MRTR prompt of input-required-result-non-tool-request: `prompts/get` answers `inputRequired(...)` with an
 * elicitation (key user_context) until the retry carries an accepted context, then the prompt.
 */
import { acceptedContent, inputRequired, type PromptSpec } from "mcp-host";

export const inputRequiredPrompts: PromptSpec[] = [
  {
    name: "test_input_required_result_prompt",
    title: "Prompt That Asks First",
    description: "MRTR on prompts/get: elicits the context the prompt should use (key user_context), then returns the prompt.",
    get: (_args, ctx) => {
      const context = acceptedContent(ctx.inputResponses, "user_context")?.context;
      if (typeof context !== "string") {
        return inputRequired({
          inputRequests: {
            user_context: inputRequired.elicit({
              mode: "form",
              message: "What context should the prompt use?",
              requestedSchema: { type: "object", properties: { context: { type: "string" } }, required: ["context"] } as never,
            }),
          },
        });
      }
      return { messages: [{ role: "user", content: { type: "text", text: `Answer with this context in mind: ${context}` } }] };
    },
  },
];
