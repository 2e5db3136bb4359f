/**
 * The multi-round-trip (MRTR, SEP-2322) fixtures of the 2026-07-28 `input-required-result-*` scenarios: tools that
 * answer `inputRequired(...)` with elicitation, sampling and roots requests, carry `requestState` (which the host
 * signs, so a tampered state is refused with -32602 before the handler runs) and re-request whatever a retry did
 * not answer. Only a well-formed answer completes a call: a missing, mis-keyed or malformed one is asked for again.
 * Scenarios: input-required-result-basic-elicitation, -basic-sampling, -basic-list-roots, -request-state,
 * -multiple-input-requests, -multi-round, -missing-input-response, -result-type, -tampered-state,
 * -capability-check, -ignore-extra-params, -validate-input.
 */
import { acceptedContent, defineTool, type InputRequest, inputRequired, inputResponse, type RequestContext, type ToolSpec } from "mcp-host";
import { NO_ARGUMENTS } from "./arguments.js";

/** A one-field form with a required string (or boolean) field, as the scenarios spell it. */
function form(message: string, field: string, type: "string" | "boolean" = "string"): InputRequest {
  return inputRequired.elicit({
    mode: "form",
    message,
    requestedSchema: { type: "object", properties: { [field]: { type } }, required: [field] } as never,
  });
}

const askName = () => form("What is your name?", "name");
const askCapital = () =>
  inputRequired.createMessage({ messages: [{ role: "user", content: { type: "text", text: "What is the capital of France?" } }], maxTokens: 100 });
const askGreeting = () => inputRequired.createMessage({ messages: [{ role: "user", content: { type: "text", text: "Generate a greeting" } }], maxTokens: 50 });

function text(value: string) {
  return { content: [{ type: "text" as const, text: value }] };
}

/** The accepted string field `field` of the elicitation answered under `key`, or undefined. */
function acceptedString(ctx: RequestContext, key: string, field: string): string | undefined {
  const value = acceptedContent(ctx.inputResponses, key)?.[field];
  return typeof value === "string" ? value : undefined;
}

/** The first text block of the sampling answer under `key`, or undefined (no answer, or not a sampling result). */
function sampledText(ctx: RequestContext, key: string): string | undefined {
  const answer = inputResponse(ctx.inputResponses, key);
  if (answer.kind !== "sampling") return undefined;
  const content = answer.result.content;
  const first = Array.isArray(content) ? content[0] : content;
  return first !== undefined && first.type === "text" ? first.text : undefined;
}

/** The root URIs answered under `key`, or undefined. */
function rootUris(ctx: RequestContext, key: string): string[] | undefined {
  const answer = inputResponse(ctx.inputResponses, key);
  if (answer.kind !== "roots") return undefined;
  return answer.roots.map((root) => (typeof root?.uri === "string" ? root.uri : "?"));
}

const REQUEST_STATE = "request-state-v1";
const ROUND_1 = "round-1";
const ROUND_2 = "round-2:";

export const inputRequiredTools: ToolSpec<any>[] = [
  defineTool({
    name: "test_input_required_result_elicitation",
    description: "MRTR: asks for the user's name (elicitation, key user_name), then greets them.",
    inputSchema: NO_ARGUMENTS,
    handler: (_args, ctx) => {
      const name = acceptedString(ctx, "user_name", "name");
      if (name === undefined) return inputRequired({ inputRequests: { user_name: askName() } });
      return text(`Hello, ${name}!`);
    },
  }),
  defineTool({
    name: "test_input_required_result_sampling",
    description: "MRTR: asks the client's model for the capital of France (sampling, key capital_question), then returns its answer.",
    inputSchema: NO_ARGUMENTS,
    handler: (_args, ctx) => {
      const answer = sampledText(ctx, "capital_question");
      if (answer === undefined) return inputRequired({ inputRequests: { capital_question: askCapital() } });
      return text(`The model answered: ${answer}`);
    },
  }),
  defineTool({
    name: "test_input_required_result_list_roots",
    description: "MRTR: asks for the client's roots (roots/list, key client_roots), then lists them.",
    inputSchema: NO_ARGUMENTS,
    handler: (_args, ctx) => {
      const roots = rootUris(ctx, "client_roots");
      if (roots === undefined) return inputRequired({ inputRequests: { client_roots: inputRequired.listRoots() } });
      return text(`Client roots: ${roots.length === 0 ? "(none)" : roots.join(", ")}`);
    },
  }),
  defineTool({
    name: "test_input_required_result_request_state",
    description: "MRTR with requestState: asks for a confirmation (key confirm) and checks the echoed state on the retry.",
    inputSchema: NO_ARGUMENTS,
    handler: (_args, ctx) => {
      const answer = inputResponse(ctx.inputResponses, "confirm");
      if (answer.kind !== "elicit" || ctx.requestState<string>() !== REQUEST_STATE) {
        return inputRequired({ inputRequests: { confirm: form("Please confirm", "ok", "boolean") }, requestState: REQUEST_STATE });
      }
      return text(`state-ok: confirmation ${answer.action}, content=${JSON.stringify(answer.content ?? {})}`);
    },
  }),
  defineTool({
    name: "test_input_required_result_multiple_inputs",
    description: "MRTR: asks for a name (elicitation), a greeting (sampling) and the client's roots at once, with requestState.",
    inputSchema: NO_ARGUMENTS,
    handler: (_args, ctx) => {
      const name = acceptedString(ctx, "user_name", "name");
      const greeting = sampledText(ctx, "greeting");
      const roots = rootUris(ctx, "client_roots");
      if (name === undefined || greeting === undefined || roots === undefined) {
        const missing: Record<string, InputRequest> = {};
        if (name === undefined) missing.user_name = askName();
        if (greeting === undefined) missing.greeting = askGreeting();
        if (roots === undefined) missing.client_roots = inputRequired.listRoots();
        return inputRequired({ inputRequests: missing, requestState: "multiple-inputs" });
      }
      return text(`name=${name}; greeting=${greeting}; roots=${roots.join(", ")}`);
    },
  }),
  defineTool({
    name: "test_input_required_result_multi_round",
    description: "MRTR over three rounds: asks for a name (step1), then a favourite colour (step2), carrying the name in requestState.",
    inputSchema: NO_ARGUMENTS,
    handler: (_args, ctx) => {
      const state = ctx.requestState<string>() ?? "";
      if (state.startsWith(ROUND_2)) {
        const name = state.slice(ROUND_2.length);
        const color = acceptedString(ctx, "step2", "color");
        if (color === undefined) return inputRequired({ inputRequests: { step2: askColor() }, requestState: state });
        return text(`${name}'s favourite colour is ${color}`);
      }
      const name = acceptedString(ctx, "step1", "name");
      if (name === undefined || state !== ROUND_1) {
        return inputRequired({ inputRequests: { step1: form("Step 1: What is your name?", "name") }, requestState: ROUND_1 });
      }
      return inputRequired({ inputRequests: { step2: askColor() }, requestState: `${ROUND_2}${name}` });
    },
  }),
  defineTool({
    name: "test_input_required_result_tampered_state",
    description: "MRTR with signed requestState: a retry whose state was altered is refused by the host (-32602).",
    inputSchema: NO_ARGUMENTS,
    handler: (_args, ctx) => {
      const answer = inputResponse(ctx.inputResponses, "confirm");
      if (answer.kind !== "elicit" || ctx.requestState<string>() !== "tamper-check") {
        return inputRequired({ inputRequests: { confirm: form("Please confirm", "ok", "boolean") }, requestState: "tamper-check" });
      }
      return text(`state verified; confirmation ${answer.action}`);
    },
  }),
  defineTool({
    name: "test_input_required_result_capabilities",
    description: "MRTR that only asks for what the client declared: elicitation, sampling and roots, each if the capability is present.",
    inputSchema: NO_ARGUMENTS,
    handler: (_args, ctx) => {
      const capabilities = ctx.clientCapabilities ?? {};
      const wanted: Record<string, InputRequest> = {};
      if (capabilities.elicitation !== undefined && acceptedString(ctx, "user_name", "name") === undefined) wanted.user_name = askName();
      if (capabilities.sampling !== undefined && sampledText(ctx, "capital_question") === undefined) wanted.capital_question = askCapital();
      if (capabilities.roots !== undefined && rootUris(ctx, "client_roots") === undefined) wanted.client_roots = inputRequired.listRoots();
      if (Object.keys(wanted).length > 0) return inputRequired({ inputRequests: wanted });
      return text(
        `Answered: ${
          Object.keys(ctx.inputResponses ?? {})
            .sort()
            .join(", ") || "nothing (the client declared no input capability)"
        }`,
      );
    },
  }),
];

function askColor(): InputRequest {
  return form("Step 2: What is your favorite color?", "color");
}
