/**
 * `regex_test`: runs a JavaScript regular expression against a text and reports every match with its groups,
 * optionally the result of a replacement. The expression runs in a separate V8 context with a time limit, so a
 * pattern with catastrophic backtracking ("(a+)+$") gives a clear error instead of freezing the server.
 */
import { defineTool, errorResult, jsonResult } from "mcp-host";
import { runInNewContext } from "node:vm";
import { z } from "zod";
import { pureAnnotations } from "./annotations.js";

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

/** Runs inside the sandbox context; must be self-contained. Returns JSON so no object crosses realms. */
const SANDBOXED = `(() => {
  const base = new RegExp(pattern, flags);
  const global = new RegExp(pattern, flags.includes("g") ? flags : flags + "g");
  const matches = [];
  let truncated = false;
  for (const m of text.matchAll(global)) {
    if (matches.length >= maxMatches) { truncated = true; break; }
    matches.push({
      match: m[0],
      index: m.index,
      captures: m.slice(1).map((c) => (c === undefined ? null : c)),
      groups: m.groups === undefined ? null : Object.fromEntries(Object.entries(m.groups).map(([k, v]) => [k, v === undefined ? null : v])),
    });
  }
  const out = { matched: matches.length > 0, count: matches.length, truncated, matches };
  if (replacement !== undefined) out.replaced = text.replace(base, replacement);
  return JSON.stringify(out);
})()`;

/** Throws SyntaxError-named errors for a bad pattern and an `ERR_SCRIPT_EXECUTION_TIMEOUT` error past the limit. */
export function runRegex(pattern: string, flags: string, text: string, options: { maxMatches: number; replacement?: string }): RegexOutcome {
  const sandbox = { pattern, flags, text, maxMatches: options.maxMatches, replacement: options.replacement };
  return JSON.parse(runInNewContext(SANDBOXED, sandbox, { timeout: REGEX_TIME_LIMIT_MS }) as string) as RegexOutcome;
}

export const regexTestTool = defineTool({
  name: "regex_test",
  title: "Test a regular expression",
  description:
    "Runs a JavaScript regular expression over a text and lists every match with its index, numbered and named groups; with replace_with, " +
    "also returns the text after String.prototype.replace ($1, $<name> work). Use it to check a pattern before you rely on it.",
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
  handler: ({ pattern, flags, text, max_matches, replace_with }) => {
    try {
      return jsonResult(runRegex(pattern, flags, text, { maxMatches: max_matches, replacement: replace_with }));
    } catch (error) {
      const { name, message, code } = error as { name?: string; message?: string; code?: string };
      if (code === "ERR_SCRIPT_EXECUTION_TIMEOUT") {
        return errorResult(
          `the pattern took longer than ${REGEX_TIME_LIMIT_MS} ms on this text and was stopped; it probably backtracks catastrophically (nested quantifiers such as (a+)+). Simplify it or anchor it.`,
        );
      }
      if (name === "SyntaxError") return errorResult(`${message}; check the pattern's escaping (it is written without slashes) and the flags`);
      throw error;
    }
  },
});
