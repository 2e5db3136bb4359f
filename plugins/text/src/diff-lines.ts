/** `diff_lines`: the unified diff of two texts (JSON Schema input, structured output). */
import { defineTool, errorResult, jsonResult } from "mcp-host";
import { unifiedDiff } from "./line-diff.js";
import { pureAnnotations } from "./annotations.js";

const MAX_LINES = 20_000;

export const diffLinesInput = {
  type: "object",
  properties: {
    before: { type: "string", maxLength: 1_000_000, description: "the original text" },
    after: { type: "string", maxLength: 1_000_000, description: "the changed text" },
    context: { type: "integer", minimum: 0, maximum: 20, default: 3, description: "unchanged lines shown around each change" },
    before_label: { type: "string", maxLength: 200, default: "before", description: "name shown on the --- line, e.g. a file name" },
    after_label: { type: "string", maxLength: 200, default: "after", description: "name shown on the +++ line" },
    ignore_whitespace: { type: "boolean", default: false, description: "treat lines that differ only in spacing as equal" },
  },
  required: ["before", "after"],
  additionalProperties: false,
} as const;

export const diffLinesOutput = {
  type: "object",
  properties: {
    identical: { type: "boolean" },
    added: { type: "integer", description: "lines only in after" },
    removed: { type: "integer", description: "lines only in before" },
    hunks: { type: "integer" },
    diff: { type: "string", description: "unified diff; empty when identical" },
  },
  required: ["identical", "added", "removed", "hunks", "diff"],
  additionalProperties: false,
} as const;

interface DiffArgs {
  before: string;
  after: string;
  context?: number;
  before_label?: string;
  after_label?: string;
  ignore_whitespace?: boolean;
}

export const diffLinesTool = defineTool({
  name: "diff_lines",
  title: "Diff two texts",
  description:
    "Compares two texts line by line and returns a unified diff (the format of `diff -u` and `git diff`) with counts of added and removed lines. " +
    "Use it to show exactly what an edit changed.",
  inputSchema: diffLinesInput,
  outputSchema: diffLinesOutput,
  annotations: { ...pureAnnotations, title: "Diff two texts" },
  handler: (raw) => {
    const args = raw as unknown as DiffArgs;
    for (const side of ["before", "after"] as const) {
      const lines = args[side].split("\n").length;
      if (lines > MAX_LINES) return errorResult(`${side} has ${lines} lines; diff_lines compares at most ${MAX_LINES} lines per side`);
    }
    const diff = unifiedDiff(args.before, args.after, {
      context: args.context,
      beforeLabel: args.before_label,
      afterLabel: args.after_label,
      ignoreWhitespace: args.ignore_whitespace,
    });
    return jsonResult({ ...diff });
  },
});
