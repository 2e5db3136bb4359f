/**
 * `text_stats`: counts a person would agree with. Words, sentences and characters are segmented with
 * Intl.Segmenter, so "naïve", "don't", emoji and CJK text count as a reader counts them, not as UTF-16 units.
 */
import { defineTool, errorResult, jsonResult } from "mcp-host";
import { z } from "zod";
import { pureAnnotations } from "./annotations.js";

/** Average silent reading speed of adults for non-fiction, in words per minute (Brysbaert, 2019). */
export const DEFAULT_WORDS_PER_MINUTE = 238;

export const textStatsOutput = z.object({
  characters: z.number().int().describe("user-perceived characters (grapheme clusters), spaces included"),
  characters_excluding_spaces: z.number().int(),
  words: z.number().int(),
  sentences: z.number().int(),
  paragraphs: z.number().int().describe("blocks separated by blank lines"),
  lines: z.number().int(),
  average_word_length: z.number().describe("characters per word, one decimal"),
  reading_time_seconds: z.number().int(),
  reading_time: z.string().describe('e.g. "3 min 20 s"'),
});

export type TextStats = z.infer<typeof textStatsOutput>;

/** The statistics of `text`; throws RangeError for a malformed locale tag. */
export function textStats(text: string, options: { locale?: string; wordsPerMinute?: number } = {}): TextStats {
  const locale = options.locale;
  const graphemes = [...new Intl.Segmenter(locale, { granularity: "grapheme" }).segment(text)].map((s) => s.segment);
  const words = [...new Intl.Segmenter(locale, { granularity: "word" }).segment(text)].filter((s) => s.isWordLike).map((s) => s.segment);
  const sentences = [...new Intl.Segmenter(locale, { granularity: "sentence" }).segment(text)].filter((s) => /[\p{L}\p{N}]/u.test(s.segment));
  const wordCharacters = words.reduce((sum, word) => sum + [...new Intl.Segmenter(locale, { granularity: "grapheme" }).segment(word)].length, 0);
  const seconds = words.length === 0 ? 0 : Math.max(1, Math.round((words.length / (options.wordsPerMinute ?? DEFAULT_WORDS_PER_MINUTE)) * 60));
  return {
    characters: graphemes.length,
    characters_excluding_spaces: graphemes.filter((g) => !/^\s+$/u.test(g)).length,
    words: words.length,
    sentences: sentences.length,
    paragraphs: text.split(/(?:\r?\n|\r)\s*(?:\r?\n|\r)/).filter((block) => block.trim() !== "").length,
    lines: text === "" ? 0 : text.replace(/(?:\r?\n|\r)$/, "").split(/\r?\n|\r/).length,
    average_word_length: words.length === 0 ? 0 : Math.round((wordCharacters / words.length) * 10) / 10,
    reading_time_seconds: seconds,
    reading_time: formatSeconds(seconds),
  };
}

function formatSeconds(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  if (minutes < 60) return rest === 0 ? `${minutes} min` : `${minutes} min ${rest} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

export const textStatsTool = defineTool({
  name: "text_stats",
  title: "Text statistics",
  description:
    "Counts characters (as a reader sees them, emoji and accents included), words, sentences, paragraphs and lines, and estimates reading time. " +
    "Use it instead of counting yourself, e.g. to check a length limit.",
  inputSchema: z.object({
    text: z.string().max(2_000_000).describe("the text to measure"),
    words_per_minute: z.number().int().min(50).max(1000).default(DEFAULT_WORDS_PER_MINUTE).describe("reading speed for the estimate"),
    locale: z.string().optional().describe('BCP 47 language tag for word segmentation, e.g. "ja" or "th"; default: the server\'s'),
  }),
  outputSchema: textStatsOutput,
  annotations: { ...pureAnnotations, title: "Text statistics" },
  handler: ({ text, words_per_minute, locale }) => {
    try {
      return jsonResult(textStats(text, { locale, wordsPerMinute: words_per_minute }));
    } catch (error) {
      if (error instanceof RangeError) return errorResult(`locale "${locale}" is not a valid BCP 47 language tag (for example "en", "de-CH", "ja")`);
      throw error;
    }
  },
});
