/**
 * The `rewrite` prompt: asks the model to rewrite a text in a given style for a given reader, and states the
 * text's measured length, so "make it shorter" has a number to aim at.
 */
import { invalidParams, type PromptSpec } from "mcp-host";
import { textStats } from "./stats.js";

export const STYLES: Readonly<Record<string, string>> = {
  plain: "plain language: short sentences, common words, no jargon",
  concise: "as short as it can be without losing a fact",
  formal: "formal and precise, suitable for official correspondence",
  friendly: "warm and conversational, still clear",
  technical: "precise technical register for an expert reader; keep exact terms",
  persuasive: "persuasive: lead with the benefit, end with a clear call to action",
};

export const rewritePrompt: PromptSpec = {
  name: "rewrite",
  title: "Rewrite a text",
  description: "Rewrites a text in a chosen style for a chosen reader, optionally within a word limit, keeping its facts.",
  arguments: [
    { name: "text", description: "The text to rewrite", required: true },
    { name: "style", description: `One of: ${Object.keys(STYLES).join(", ")} (default plain)` },
    { name: "audience", description: 'Who will read it, e.g. "new customers" or "the board"' },
    { name: "max_words", description: "Upper limit on the rewrite's length in words" },
  ],
  complete: {
    style: (value) => Object.keys(STYLES).filter((style) => style.startsWith(value.trim().toLowerCase())),
  },
  get: (args) => {
    const text = args.text ?? "";
    const styleName = args.style === undefined || args.style === "" ? "plain" : args.style.trim().toLowerCase();
    const style = STYLES[styleName];
    if (style === undefined) throw invalidParams(`style "${args.style}" is not one of ${Object.keys(STYLES).join(", ")}`);
    const limit = args.max_words === undefined || args.max_words === "" ? undefined : Number(args.max_words);
    if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) throw invalidParams(`max_words "${args.max_words}" must be a whole number above 0`);
    const stats = textStats(text);
    const instructions = [
      `Rewrite the text below. Style: ${style}.`,
      ...(args.audience ? [`Audience: ${args.audience}.`] : []),
      `The original has ${stats.words} ${stats.words === 1 ? "word" : "words"} in ${stats.sentences} ${stats.sentences === 1 ? "sentence" : "sentences"}${limit === undefined ? "." : `; the rewrite must have at most ${limit} words.`}`,
      "Keep every fact, name and number. Answer with the rewritten text only.",
    ];
    return {
      description: `Rewrite in ${styleName} style`,
      messages: [{ role: "user", content: { type: "text", text: `${instructions.join("\n")}\n\n---\n${text}\n---` } }],
    };
  },
};
