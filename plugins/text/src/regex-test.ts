/**
 * `regex_test`: runs a JavaScript regular expression against a text and reports every match with its groups,
 * optionally the result of a replacement. Like every tool of this extension it runs in a worker thread, with a CPU
 * budget of its own: a pattern that backtracks catastrophically ("(a+)+$") is stopped by the host when the budget
 * is spent — only its worker is ended, no other client waits — and the description tells the model what that means.
 */
import { defineTool, errorResult, jsonResult } from "mcp-host";
import { z } from "zod";
import { pureAnnotations } from "./annotations.js";

/** CPU time a pattern may take: past it, the host ends the worker running it (the tool's isolation budget). */
export const REGEX_TIME_LIMIT_MS = 1000;

const matchSchema = z.object({
  match: z.string(),
  index: z.number().int().describe("UTF-16 offset of the match in the text"),
  captures: z.array(z.string().nullable()).describe("numbered groups; null when a group did not take part"),
  groups: z.record(z.string(), z.string().nullable()).nullable().describe("named groups, or null when the pattern has none"),
});

export const regexTestOutput = z.object({
  matched: z.boolean(),
  count: z.number().int().describe("number of matches found (at most max_matches)"),
  truncated: z.boolean().describe("true when there were more matches than max_matches"),
  matches: z.array(matchSchema),
  replaced: z.string().optional().describe("the text after replacement, when replace_with was given"),
});

type RegexOutcome = z.infer<typeof regexTestOutput>;

/** Every match of `pattern` in `text` (at most `maxMatches`), and the text after replacement when asked. */
export function runRegex(pattern: string, flags: string, text: string, options: { maxMatches: number; replacement?: string }): RegexOutcome {
  const base = new RegExp(pattern, flags);
  const global = new RegExp(pattern, flags.includes("g") ? flags : `${flags}g`);
  const matches: RegexOutcome["matches"] = [];
  let truncated = false;
  for (const m of text.matchAll(global)) {
    if (matches.length >= options.maxMatches) {
      truncated = true;
      break;
    }
    matches.push({
      match: m[0],
      index: m.index,
      captures: m.slice(1).map((c) => (c === undefined ? null : c)),
      groups: m.groups === undefined ? null : Object.fromEntries(Object.entries(m.groups).map(([k, v]) => [k, v === undefined ? null : v])),
    });
  }
  const out: RegexOutcome = { matched: matches.length > 0, count: matches.length, truncated, matches };
  if (options.replacement !== undefined) out.replaced = text.replace(base, options.replacement);
  return out;
}

export const regexTestTool = defineTool({
  name: "regex_test",
  title: "Test a regular expression",
  description:
    "Runs a JavaScript regular expression over a text and lists every match with its index, numbered and named groups; with replace_with, " +
    "also returns the text after String.prototype.replace ($1, $<name> work). Use it to check a pattern before you rely on it. " +
    `A pattern that runs longer than ${REGEX_TIME_LIMIT_MS} ms of CPU on the text is stopped: it probably backtracks catastrophically (nested quantifiers such as (a+)+); simplify or anchor it.`,
  inputSchema: z.object({
    pattern: z.string().min(1).max(5000).describe("the pattern without slashes, e.g. \\b(\\d{4})-(\\d{2})\\b"),
    flags: z
      .string()
      .regex(/^[dgimsuvy]*$/, "flags may only contain the letters d, g, i, m, s, u, v and y")
      .default("")
      .describe('JavaScript flags, e.g. "i" or "gm"; matching always finds every match, "g" also makes replace_with replace all'),
    text: z.string().max(1_000_000).describe("the text to search"),
    max_matches: z.number().int().min(1).max(1000).default(100).describe("stop listing after this many matches"),
    replace_with: z.string().optional().describe("replacement string; $1, $<name> and $& refer to the match"),
  }),
  outputSchema: regexTestOutput,
  annotations: { ...pureAnnotations, title: "Test a regular expression" },
  isolation: { cpuMs: REGEX_TIME_LIMIT_MS },
  handler: ({ pattern, flags, text, max_matches, replace_with }) => {
    try {
      return jsonResult(runRegex(pattern, flags, text, { maxMatches: max_matches, replacement: replace_with }));
    } catch (error) {
      const { name, message } = error as { name?: string; message?: string };
      if (name === "SyntaxError") return errorResult(`${message}; check the pattern's escaping (it is written without slashes) and the flags`);
      throw error;
    }
  },
});
