/**
 * The patterns and formats a backtracking regular-expression engine chokes on (issue 17), each with an input that
 * does so and one that matches. Every `attack` takes a backtracking engine longer than any test waits — the
 * patterns double (or grow by the golden ratio) with each character, and 64 are plenty; the `url` format is
 * quadratic, so its attack is a megabyte — while a linear engine answers at once. Shared by the end-to-end attack
 * tests and the reliability fuzz's schema family (the list is test/fixtures/catastrophic-patterns.json).
 */
import { readFileSync } from "node:fs";

/** A string made by repetition, also written as the upstream fixture's `{ prefix, unit, times, suffix }`. */
export interface Repeated {
  prefix?: string;
  unit: string;
  times: number;
  suffix?: string;
}

export function spelled(value: Repeated): string {
  return `${value.prefix ?? ""}${value.unit.repeat(value.times)}${value.suffix ?? ""}`;
}

export interface CatastrophicPattern {
  /** Short, for tool names: `[a-z]+`. */
  name: string;
  pattern: string;
  attack: Repeated;
  /** An input the pattern matches, so a test also sees it enforced the right way round. */
  match: string;
}

/** The family, also read by the reliability project's patterns extension (plain JavaScript). */
const FAMILY = JSON.parse(readFileSync(new URL("../fixtures/catastrophic-patterns.json", import.meta.url), "utf8")) as {
  patterns: CatastrophicPattern[];
  formats: FormatCase[];
};

export const CATASTROPHIC_PATTERNS: readonly CatastrophicPattern[] = FAMILY.patterns;

export interface FormatCase {
  format: string;
  attack: Repeated;
  match: string;
}

/**
 * One worst input per format: `url`'s is catastrophic for ajv-formats' own expression (quadratic in the colons);
 * the others are each format's longest ambiguous run, which must stay fast.
 */
export const FORMAT_CASES: readonly FormatCase[] = FAMILY.formats;
