/**
 * `text_stats`: counts a person would agree with. Words, sentences and characters are segmented with
 * Intl.Segmenter, so "naïve", "don't", emoji and CJK text count as a reader counts them, not as UTF-16 units.
 * One pass of the word segmenter gives words and characters (a segment of plain letters is counted without a
 * grapheme segmenter), one of the sentence segmenter the sentences, both in windows (segment-windows.ts), so the
 * time grows linearly with the text.
 */
import { defineTool, errorResult, jsonResult } from "mcp-host";
import { z } from "zod";
import { pureAnnotations } from "./annotations.js";
import { forEachSegment } from "./segment-windows.js";

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

/**
 * Code units that are each one user-perceived character whatever surrounds them (no combining marks, joiners,
 * surrogates or jamo): Latin, Greek, Cyrillic, CJK punctuation, kana, ideographs, Hangul syllables. A segment made
 * only of these is counted without a grapheme segmenter; CR LF is the one pair among them that makes one character.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters (tab, LF…) are one character each, on purpose.
const SIMPLE = /^[\u0000-\u02FF\u0370-\u0482\u048A-\u052F\u3000-\u3029\u3030-\u3098\u309B-\u30FF\u4E00-\u9FFF\uAC00-\uD7A3]*$/;
const SENTENCE_CONTENT = /[\p{L}\p{N}]/u;
const LETTER = /\p{L}/u;
const WHITESPACE = /^\s+$/u;

/** True for the code units `\s` matches below U+0300 and the ideographic space (the only ones in SIMPLE). */
function isSimpleSpace(code: number): boolean {
  return code === 32 || (code >= 9 && code <= 13) || code === 0xa0 || code === 0x3000;
}

/** Characters (grapheme clusters) in a segment, and how many of them are not whitespace. */
function characterCounts(segment: string, graphemes: Intl.Segmenter): { all: number; visible: number } {
  if (SIMPLE.test(segment)) {
    let spaces = 0;
    let pairs = 0;
    for (let i = 0; i < segment.length; i++) {
      const code = segment.charCodeAt(i);
      if (isSimpleSpace(code)) spaces++;
      if (code === 13 && segment.charCodeAt(i + 1) === 10) pairs++;
    }
    return { all: segment.length - pairs, visible: segment.length - spaces };
  }
  let all = 0;
  let visible = 0;
  for (const { segment: g } of graphemes.segment(segment)) {
    all++;
    if (!WHITESPACE.test(g)) visible++;
  }
  return { all, visible };
}

interface WordCounts {
  characters: number;
  visible: number;
  words: number;
  wordCharacters: number;
}

/** One pass of the word segmenter: words, and the characters of every segment (a word boundary never splits one). */
function countWords(text: string, words: Intl.Segmenter, graphemes: Intl.Segmenter): WordCounts {
  const counts: WordCounts = { characters: 0, visible: 0, words: 0, wordCharacters: 0 };
  forEachSegment(
    text,
    words,
    (segment, isWordLike) => {
      const { all, visible } = characterCounts(segment, graphemes);
      counts.characters += all;
      counts.visible += visible;
      if (isWordLike) {
        counts.words++;
        counts.wordCharacters += all;
      }
    },
    // After whitespace, a word boundary does not depend on anything before it.
    (before) => WHITESPACE.test(before),
  );
  return counts;
}

/** One pass of the sentence segmenter: sentences with a letter or digit in them. */
function countSentences(text: string, sentences: Intl.Segmenter): number {
  let count = 0;
  forEachSegment(
    text,
    sentences,
    (segment) => {
      if (SENTENCE_CONTENT.test(segment)) count++;
    },
    // A boundary followed by a letter is final: the rules look ahead for a lower-case letter only across non-letters.
    (_before, after) => LETTER.test(after),
  );
  return count;
}

/** Lines: line breaks (CR LF, LF or CR) plus one, a final break not starting a line of its own. */
function countLines(text: string): number {
  if (text === "") return 0;
  let breaks = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 10 || (code === 13 && text.charCodeAt(i + 1) !== 10)) breaks++;
  }
  const last = text.charCodeAt(text.length - 1);
  return breaks + 1 - (last === 10 || last === 13 ? 1 : 0);
}

/**
 * The statistics of `text`, in time linear in its length; throws RangeError for a malformed locale tag.
 * @example
 * textStats("Hello, world!").words // 2
 */
export function textStats(text: string, options: { locale?: string; wordsPerMinute?: number } = {}): TextStats {
  const locale = options.locale;
  const graphemes = new Intl.Segmenter(locale, { granularity: "grapheme" });
  const counts = countWords(text, new Intl.Segmenter(locale, { granularity: "word" }), graphemes);
  const sentences = countSentences(text, new Intl.Segmenter(locale, { granularity: "sentence" }));
  const seconds = counts.words === 0 ? 0 : Math.max(1, Math.round((counts.words / (options.wordsPerMinute ?? DEFAULT_WORDS_PER_MINUTE)) * 60));
  return {
    characters: counts.characters,
    characters_excluding_spaces: counts.visible,
    words: counts.words,
    sentences,
    paragraphs: text.split(/(?:\r?\n|\r)\s*(?:\r?\n|\r)/).filter((block) => block.trim() !== "").length,
    lines: countLines(text),
    average_word_length: counts.words === 0 ? 0 : Math.round((counts.wordCharacters / counts.words) * 10) / 10,
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
  // The schema's longest text takes 1–3 s of CPU (scripts with combining marks the most); the default is 2 s.
  isolation: { cpuMs: 10_000 },
  handler: ({ text, words_per_minute, locale }) => {
    try {
      return jsonResult(textStats(text, { locale, wordsPerMinute: words_per_minute }));
    } catch (error) {
      if (error instanceof RangeError) return errorResult(`locale "${locale}" is not a valid BCP 47 language tag (for example "en", "de-CH", "ja")`);
      throw error;
    }
  },
});
