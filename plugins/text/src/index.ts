/**
 * @mcp-host/plugin-text: text utilities models get wrong when they do them in their heads (counting, exact diffs,
 * regular expressions), a rewrite prompt, and a tool extension that lets the time plugin's convert_time read
 * 12-hour clock times. It holds no state, so the module exports the extension object itself — which is also what
 * lets its tools run in worker threads: a worker imports this module and finds them here. Their work grows with
 * their input (up to 2,000,000 characters), so none of them can hold up the host's other clients.
 */
import type { McpExtension } from "mcp-host";
import { changeCaseTool } from "./change-case.js";
import { clockNotationExtension } from "./clock-notation.js";
import { diffLinesTool } from "./diff-lines.js";
import { regexTestTool } from "./regex-test.js";
import { rewritePrompt } from "./rewrite-prompt.js";
import { slugifyTool } from "./slugify.js";
import { textStatsTool } from "./stats.js";

export { normaliseClock } from "./clock-notation.js";

const INSTRUCTIONS = [
  "Use these tools instead of doing the work in your head, where exact answers matter:",
  "- text_stats to count words, characters or sentences, or to check a length limit;",
  "- diff_lines to show what changed between two versions;",
  "- regex_test to check a regular expression against real examples before you give it to the user;",
  "- slugify and change_case for identifiers, URLs and file names.",
  "The rewrite prompt rewrites a text in a given style and length.",
].join("\n");

const textExtension = {
  name: "text",
  version: "0.1.0",
  isolation: { module: import.meta.url },
  description: "Text statistics, slugs, case conversion, line diffs, regex testing and a rewrite prompt.",
  toolsets: [
    {
      name: "text",
      title: "Text utilities",
      description: "Word and character counts with reading time, slugify, case conversion, unified line diff, regex testing, a rewrite prompt.",
      instructions: INSTRUCTIONS,
    },
  ],
  tools: [textStatsTool, slugifyTool, changeCaseTool, diffLinesTool, regexTestTool],
  prompts: [rewritePrompt],
  toolExtensions: [clockNotationExtension],
} satisfies McpExtension;

export default textExtension;
