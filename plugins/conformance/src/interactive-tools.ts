/**
 * Tools that talk back to the client while they run: log messages, progress, sampling and elicitation.
 * Sampling and elicitation are written once with `inputRequired(...)`: a 2026 client gets an MRTR
 * `input_required` result and retries with the answers; on a 2025 session the SDK sends real
 * `sampling/createMessage` / `elicitation/create` requests and re-enters the handler with the answers.
 * Scenarios: tools-call-with-logging, -with-progress, -sampling, -elicitation, elicitation-sep1034-defaults,
 * elicitation-sep1330-enums.
 */
import { defineTool, inputRequired, inputResponse, type ToolContext, type ToolSpec } from "mcp-host";
import { DEFAULTS_FORM, ENUMS_FORM, RESPONSE_FORM } from "./elicitation-forms.js";
import { pause } from "./fixtures.js";
import { NO_ARGUMENTS, stringArg } from "./arguments.js";

const STEP_MS = 50;

function refusal(text: string) {
  return { content: [{ type: "text" as const, text }], isError: true };
}

/** Asks the client to fill in a form (once), then reports what it answered. */
function elicitOnce(ctx: ToolContext, message: string, requestedSchema: Record<string, unknown>, label: string) {
  if (ctx.clientCapabilities?.elicitation === undefined) {
    return refusal("Elicitation not supported: the client did not declare the elicitation capability.");
  }
  const answer = inputResponse(ctx.inputResponses, "form");
  if (answer.kind !== "elicit") {
    return inputRequired({ inputRequests: { form: inputRequired.elicit({ mode: "form", message, requestedSchema: requestedSchema as never }) } });
  }
  return { content: [{ type: "text" as const, text: `${label}: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}` }] };
}

export const interactiveTools: ToolSpec<any>[] = [
  defineTool({
    name: "test_tool_with_logging",
    description: "Sends three info-level log messages to the client while it runs, ~50 ms apart.",
    inputSchema: NO_ARGUMENTS,
    handler: async (_args, ctx) => {
      await ctx.log("info", "Tool execution started");
      await pause(STEP_MS, ctx.signal);
      await ctx.log("info", "Tool processing data");
      await pause(STEP_MS, ctx.signal);
      await ctx.log("info", "Tool execution completed");
      return { content: [{ type: "text", text: "Tool with logging executed successfully" }] };
    },
  }),
  defineTool({
    name: "test_tool_with_progress",
    description: "Reports progress 0, 50 and 100 of 100 for the request's progress token, ~50 ms apart.",
    inputSchema: NO_ARGUMENTS,
    handler: async (_args, ctx) => {
      for (const step of [0, 50, 100]) {
        if (step > 0) await pause(STEP_MS, ctx.signal);
        await ctx.progress(step, 100, `Completed step ${step} of 100`);
      }
      const token = ctx.mcp.mcpReq._meta?.progressToken;
      return { content: [{ type: "text", text: token === undefined ? "no progress token" : String(token) }] };
    },
  }),
  defineTool({
    name: "test_sampling",
    description: "Asks the client's model to answer the prompt (sampling/createMessage) and returns its answer.",
    inputSchema: { type: "object", properties: { prompt: { type: "string", description: "The prompt to send to the LLM" } }, required: ["prompt"] },
    handler: (args, ctx) => {
      if (ctx.clientCapabilities?.sampling === undefined) {
        return refusal("Sampling not supported: the client did not declare the sampling capability.");
      }
      const answer = inputResponse(ctx.inputResponses, "completion");
      if (answer.kind !== "sampling") {
        return inputRequired({
          inputRequests: {
            completion: inputRequired.createMessage({
              messages: [{ role: "user", content: { type: "text", text: stringArg(args, "prompt") } }],
              maxTokens: 100,
            }),
          },
        });
      }
      const content = answer.result.content;
      const first = Array.isArray(content) ? content[0] : content;
      const text = first !== undefined && first.type === "text" ? first.text : "No response";
      return { content: [{ type: "text", text: `LLM response: ${text}` }] };
    },
  }),
  defineTool({
    name: "test_elicitation",
    description: "Asks the user for a username and email (elicitation/create) and returns the answer.",
    inputSchema: { type: "object", properties: { message: { type: "string", description: "The message to show the user" } }, required: ["message"] },
    handler: (args, ctx) => elicitOnce(ctx, stringArg(args, "message"), RESPONSE_FORM, "User response"),
  }),
  defineTool({
    name: "test_elicitation_sep1034_defaults",
    description: "Elicits a form whose string, integer, number, enum and boolean fields all have defaults (SEP-1034).",
    inputSchema: NO_ARGUMENTS,
    handler: (_args, ctx) => elicitOnce(ctx, "Please review and update the form fields with defaults", DEFAULTS_FORM, "Elicitation completed"),
  }),
  defineTool({
    name: "test_elicitation_sep1330_enums",
    description: "Elicits a form with the five enum variants of SEP-1330 (untitled, titled, legacy enumNames, multi-select untitled and titled).",
    inputSchema: NO_ARGUMENTS,
    handler: (_args, ctx) => elicitOnce(ctx, "Please select options from the enum fields", ENUMS_FORM, "Elicitation completed"),
  }),
];
