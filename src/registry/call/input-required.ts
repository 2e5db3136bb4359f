/**
 * Multi-round-trip requests (protocol 2026-07-28): a server that needs sampling, elicitation or roots during
 * `tools/call`, `prompts/get` or `resources/read` answers `input_required`; the client answers the embedded requests
 * and retries with `inputResponses` and the byte-exact `requestState`. The SDK can do this itself, but not tell
 * which call a request belongs to; run here, each embedded request reaches the relay of its own call.
 */
import { McpHostError, messageOf } from "../../errors.js";
import type { UpstreamRequest } from "../types.js";
import { kindOfMethod } from "./server-requests.js";

/** Rounds of input a single request may ask for before it is given up. */
export const MAX_INPUT_ROUNDS = 10;

/** What a retry leg adds to the original params. */
export interface InputLeg {
  inputResponses?: Record<string, unknown>;
  requestState?: string;
}

interface InputRequiredValue {
  resultType: "input_required";
  inputRequests?: Record<string, { method?: unknown; params?: unknown }>;
  requestState?: string;
}

/**
 * True for an `input_required` result (protocol 2026-07-28).
 * @example
 * if (isInputRequired(result)) return relayToMyClient(result);
 */
export function isInputRequired(value: unknown): value is InputRequiredValue {
  return typeof value === "object" && value !== null && (value as { resultType?: unknown }).resultType === "input_required";
}

/** How the caller takes part in the rounds: the first leg's inputs, and whether it answers them itself. */
export interface InputRounds {
  /** Sent with the first leg (the caller answered an earlier `input_required`). */
  first?: InputLeg;
  /** `"return"`: an `input_required` result is handed back as it is instead of being answered here. */
  mode?: "answer" | "return";
}

/**
 * Sends a request and answers every round of input it asks for; resolves with the complete result (or, with
 * `mode: "return"`, with the first `input_required` result, for the caller to answer).
 * @example
 * const result = await runWithInputs(
 *   (leg) => client.callTool({ name, arguments: args, ...leg }, { allowInputRequired: true }),
 *   (method, params) => router.answer(spec, method, params, call),
 * );
 */
export async function runWithInputs<T>(
  send: (leg: InputLeg) => Promise<unknown>,
  answer: (method: UpstreamRequest["method"], params: Record<string, unknown>) => Promise<unknown>,
  server: string,
  rounds: InputRounds = {},
): Promise<T> {
  let leg: InputLeg = rounds.first ?? {};
  for (let round = 0; ; round++) {
    const result = await send(leg);
    if (!isInputRequired(result) || rounds.mode === "return") return result as T;
    if (round >= MAX_INPUT_ROUNDS) {
      throw new McpHostError("MCP_CALL_FAILED", `the server kept asking for input after ${MAX_INPUT_ROUNDS} rounds`, { server });
    }
    const responses: Record<string, unknown> = {};
    for (const [key, request] of Object.entries(result.inputRequests ?? {})) {
      const method = typeof request?.method === "string" ? request.method : "";
      if (!kindOfMethod(method)) {
        throw new McpHostError("MCP_CALL_FAILED", `the server asked for input of an unknown kind (${method || "no method"})`, { server });
      }
      try {
        responses[key] = await answer(method as UpstreamRequest["method"], (request.params ?? {}) as Record<string, unknown>);
      } catch (error) {
        throw new McpHostError("MCP_CALL_FAILED", `the server asked for ${method} and it was refused: ${messageOf(error)}`, { server, cause: error });
      }
    }
    leg = { inputResponses: responses, ...(result.requestState !== undefined ? { requestState: result.requestState } : {}) };
  }
}
