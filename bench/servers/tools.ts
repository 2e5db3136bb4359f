/**
 * The tools every peer serves, made once per process: `echo` (returns its `text` argument) and, for the
 * 1000-tool scenario, N extra tools, each with its own realistic zod input schema (distinct objects, as separately
 * written tools would have). Every peer registers these same schema objects in its own way.
 */
import { z } from "zod";

export const ECHO_NAME = "echo";
export const ECHO_DESCRIPTION = "Returns its text argument";
export const echoInput = z.object({ text: z.string() });

/** The result every peer's echo returns, and the floor writes. */
export function echoResult(text: string) {
  return { content: [{ type: "text" as const, text }] };
}

export interface ExtraTool {
  name: string;
  description: string;
  inputSchema: z.ZodObject<any>;
}

/** The extra tools' names are `tool_0000` … in order, so every peer lists them alike. */
export function extraTools(count: number): ExtraTool[] {
  return Array.from({ length: count }, (_, i) => ({
    name: `tool_${String(i).padStart(4, "0")}`,
    description: `Tool number ${i}: searches a space.`,
    inputSchema: z.object({
      space: z.string().describe("the space to search"),
      limit: z.number().int().min(1).max(100).optional(),
      mode: z.enum(["fast", "thorough", "exact"]).default("fast"),
    }),
  }));
}

/** What an extra tool answers (never called by the scenarios, but served like a real one). */
export function extraResult() {
  return { content: [{ type: "text" as const, text: "ok" }] };
}
