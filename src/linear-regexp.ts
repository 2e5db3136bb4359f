/**
 * The one regular-expression engine for patterns mcp-host did not write (a tool schema's `pattern` and
 * `patternProperties`, the formats): RE2, through its pure-JavaScript port re2js, so checking a string takes time in
 * proportion to its length whatever the pattern — a backtracking engine takes seconds on 30 characters of
 * `^(a+)+$`, doubling with each more (docs/design.md §16). It is ajv's `code.regExp`.
 *
 * Why not V8's own linear mode (`--enable-experimental-regexp-engine`, the `l` flag): on Node 20 it refuses every
 * pattern with the `u` flag ajv passes, and counted repetition beyond a few (`{21}`); running patterns without `u`
 * would change what `\p{…}`, `\u{…}` and astral characters mean. It would also mean a process-wide V8 flag.
 */
import { RE2JS } from "re2js";
import { toRe2Syntax, UnrunnablePatternError } from "./regexp-to-re2.js";

export { UnrunnablePatternError };

/** What ajv needs of a compiled pattern (its `RegExpLike`), and what a format check uses. */
export interface LinearRegExp {
  /** True when the pattern matches somewhere in `text` (JavaScript's `RegExp.prototype.test`, without state). */
  test(text: string): boolean;
  /** `/source/flags`: ajv keys its compiled patterns by this, so it must differ between patterns. */
  toString(): string;
}

/** Compiled patterns, by flags and source: schemas repeat the same few, and a rebuild must not compile them again. */
const compiled = new Map<string, LinearRegExp>();
const MAX_CACHED = 4096;

function compile(source: string, flags: string): LinearRegExp {
  // JavaScript's own parser says whether it is a pattern at all (the errors a schema author knows); it never runs it.
  new RegExp(source, flags.includes("u") ? flags : `${flags}u`);
  const unexpected = flags.replace(/[iu]/g, "");
  if (unexpected !== "") throw new UnrunnablePatternError(`the flags "${unexpected}" are not supported`);
  let re2: RE2JS;
  try {
    re2 = RE2JS.compile(toRe2Syntax(source, flags.includes("i")));
  } catch (error) {
    if (error instanceof UnrunnablePatternError) throw error;
    // RE2 refuses what it cannot bound: a repetition count over 1000, an unknown Unicode property, a huge program.
    throw new UnrunnablePatternError(`RE2 cannot run it (${(error as Error).message})`);
  }
  const shown = `/${source}/${flags}`;
  return { test: (text) => re2.test(text), toString: () => shown };
}

/**
 * The pattern, compiled for linear-time matching. Throws a SyntaxError for what is no JavaScript `u` pattern, and an
 * UnrunnablePatternError (with the reason) for a lookaround, a backreference or what RE2 cannot bound.
 * @example
 * linearRegExp("^([a-z0-9]+[-_.]?)+$", "u").test("a".repeat(100_000) + "!") // false, in a few milliseconds
 */
export function linearRegExp(source: string, flags = ""): LinearRegExp {
  const key = `${flags}/${source}`;
  let pattern = compiled.get(key);
  if (pattern === undefined) {
    pattern = compile(source, flags);
    if (compiled.size >= MAX_CACHED) compiled.clear();
    compiled.set(key, pattern);
  }
  return pattern;
}

/**
 * ajv's `code.regExp`: `regExp(pattern, "u")`. `code` is what ajv would write for it in standalone code, which
 * mcp-host never generates.
 * @example
 * new Ajv2020({ code: { regExp: ajvRegExp } })
 */
export const ajvRegExp = Object.assign((source: string, flags: string) => linearRegExp(source, flags), {
  code: 'require("mcp-host/linear-regexp").linearRegExp',
});
