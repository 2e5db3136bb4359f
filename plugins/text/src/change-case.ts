/**
 * `change_case`: identifiers and prose between cases. Identifier cases (camel, snake, …) split words at
 * separators and at case changes ("XMLHttpRequest" → xml, http, request) and work line by line, so a list of
 * names converts in one call; prose cases (title, sentence, upper, lower) keep the text's punctuation.
 */
import { defineTool, jsonResult } from "mcp-host";
import { z } from "zod";
import { pureAnnotations } from "./annotations.js";

export const CASES = ["camel", "pascal", "snake", "kebab", "constant", "dot", "title", "sentence", "upper", "lower"] as const;
export type CaseName = (typeof CASES)[number];

const WORD = /\p{Lu}+(?=\p{Lu}\p{Ll})|\p{Lu}?\p{Ll}+|\p{Lu}+|\p{Lt}\p{Ll}*|\p{N}+|\p{Lo}+/gu;
const SMALL_WORDS = new Set(["a", "an", "and", "as", "at", "but", "by", "for", "in", "nor", "of", "on", "or", "per", "the", "to", "up", "via", "vs"]);

/** The words of an identifier or phrase, lower-cased. */
export function splitWords(text: string): string[] {
  return (text.match(WORD) ?? []).map((word) => word.toLowerCase());
}

const capitalise = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

function identifier(line: string, to: CaseName): string {
  const words = splitWords(line);
  switch (to) {
    case "camel":
      return words.map((word, i) => (i === 0 ? word : capitalise(word))).join("");
    case "pascal":
      return words.map(capitalise).join("");
    case "snake":
      return words.join("_");
    case "kebab":
      return words.join("-");
    case "constant":
      return words.join("_").toUpperCase();
    default:
      return words.join(".");
  }
}

/**
 * Title case in the common style: each line's and each sentence's first word and its last word capitalised, short
 * function words inside lower-cased, other words given a capital first letter; words with capitals inside
 * ("iPhone", "NASA", "XMLHttpRequest") are kept as written. An all-capitals text is lower-cased first.
 */
function titleCase(text: string): string {
  const source = text === text.toUpperCase() ? text.toLowerCase() : text;
  return source
    .split("\n")
    .map((line) => {
      const tokens = line.split(/(\s+)/);
      const words = tokens.map((token, i) => (/\p{L}/u.test(token) ? i : -1)).filter((i) => i >= 0);
      const last = words.at(-1);
      let startsSentence = true;
      return tokens
        .map((token, i) => {
          if (!/\p{L}/u.test(token)) return token;
          const first = startsSentence;
          startsSentence = /[.!?:]$/.test(token);
          const bare = token.toLowerCase().replace(/^[^\p{L}]+|[^\p{L}]+$/gu, "");
          if (!first && i !== last && SMALL_WORDS.has(bare)) return token.toLowerCase();
          if (/\p{Lu}/u.test(token.slice(1))) return token;
          return token.replace(/\p{L}/u, (ch) => ch.toUpperCase());
        })
        .join("");
    })
    .join("\n");
}

function sentenceCase(text: string): string {
  return text.toLowerCase().replace(/(^\s*|[.!?]\s+)(\p{L})/gmu, (_, before: string, ch: string) => before + ch.toUpperCase());
}

/**
 * @example
 * changeCase("XMLHttpRequest", "snake") // "xml_http_request"
 */
export function changeCase(text: string, to: CaseName): string {
  switch (to) {
    case "upper":
      return text.toUpperCase();
    case "lower":
      return text.toLowerCase();
    case "title":
      return titleCase(text);
    case "sentence":
      return sentenceCase(text);
    default:
      return text
        .split(/\r?\n/)
        .map((line) => identifier(line, to))
        .join("\n");
  }
}

export const changeCaseTool = defineTool({
  name: "change_case",
  title: "Change case",
  description:
    "Converts text between cases: camel (fooBar), pascal (FooBar), snake (foo_bar), kebab (foo-bar), constant (FOO_BAR), dot (foo.bar) — line by line, " +
    "splitting at separators and case changes — or title, sentence, upper and lower case for prose.",
  inputSchema: z.object({
    text: z.string().max(200_000).describe("an identifier, a phrase, or several of them one per line"),
    to: z.enum(CASES).describe("the case to convert to"),
  }),
  outputSchema: z.object({ result: z.string() }),
  annotations: { ...pureAnnotations, title: "Change case" },
  handler: ({ text, to }) => jsonResult({ result: changeCase(text, to) }),
});
