import { defineTool, errorResult, jsonResult } from "mcp-host";
import { pureAnnotations } from "./annotations.js";
/**
 * `slugify`: a URL- and file-name-safe slug. Accents are stripped by Unicode decomposition, and the letters
 * decomposition does not reach (ß, æ, ø, ł, đ, þ, œ) are spelled out, so "Ærøskøbing Straße" becomes
 * "aeroskobing-strasse" rather than losing letters.
 */

const SPELLED_OUT: Readonly<Record<string, string>> = {
  ß: "ss",
  ẞ: "SS",
  æ: "ae",
  Æ: "AE",
  ø: "o",
  Ø: "O",
  ł: "l",
  Ł: "L",
  đ: "d",
  Đ: "D",
  þ: "th",
  Þ: "TH",
  œ: "oe",
  Œ: "OE",
  ı: "i",
  ð: "d",
  Ð: "D",
  "&": " and ",
  "@": " at ",
};

export interface SlugOptions {
  separator?: "-" | "_";
  maxLength?: number;
  lowercase?: boolean;
}

/**
 * @example
 * slugify("Hello, Wörld!") // "hello-world"
 */
export function slugify(text: string, options: SlugOptions = {}): string {
  const separator = options.separator ?? "-";
  const spelled = [...text].map((ch) => SPELLED_OUT[ch] ?? ch).join("");
  const ascii = spelled.normalize("NFKD").replace(/\p{M}+/gu, "");
  const cased = options.lowercase === false ? ascii : ascii.toLowerCase();
  let slug = cased.replace(/[^A-Za-z0-9]+/g, separator).replace(new RegExp(`^\\${separator}+|\\${separator}+$`, "g"), "");
  if (options.maxLength !== undefined && slug.length > options.maxLength) {
    const cut = slug.slice(0, options.maxLength + 1);
    const boundary = cut.lastIndexOf(separator);
    slug = (boundary > 0 ? cut.slice(0, boundary) : slug.slice(0, options.maxLength)).replace(new RegExp(`\\${separator}+$`), "");
  }
  return slug;
}

export const slugifyInput = {
  type: "object",
  properties: {
    text: { type: "string", maxLength: 10_000, description: "the title or phrase to turn into a slug" },
    separator: { type: "string", enum: ["-", "_"], default: "-", description: "what goes between words" },
    max_length: { type: "integer", minimum: 1, maximum: 200, description: "cut to at most this many characters, at a word boundary when possible" },
    lowercase: { type: "boolean", default: true, description: "lower-case the slug" },
  },
  required: ["text"],
  additionalProperties: false,
} as const;

export const slugifyOutput = {
  type: "object",
  properties: { slug: { type: "string" }, length: { type: "integer" } },
  required: ["slug", "length"],
  additionalProperties: false,
} as const;

export const slugifyTool = defineTool({
  name: "slugify",
  title: "Slugify",
  description:
    'Turns a title into a URL- or file-name-safe slug: "Crème Brûlée — 10 Tips!" → "creme-brulee-10-tips". Accents are removed, ß/æ/ø and the like are spelled out, ' +
    "anything else becomes the separator.",
  inputSchema: slugifyInput,
  outputSchema: slugifyOutput,
  annotations: { ...pureAnnotations, title: "Slugify" },
  // At most 10,000 characters: cheaper on the main thread than the trip to a worker.
  isolation: "none",
  handler: (raw) => {
    const args = raw as { text: string; separator?: "-" | "_"; max_length?: number; lowercase?: boolean };
    const slug = slugify(args.text, { separator: args.separator, maxLength: args.max_length, lowercase: args.lowercase });
    if (slug === "") return errorResult(`nothing to make a slug from: "${args.text.slice(0, 80)}" has no letters or digits that survive transliteration`);
    return jsonResult({ slug, length: slug.length });
  },
});
