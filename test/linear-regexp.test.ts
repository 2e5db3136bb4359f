// The linear-time pattern engine (src/linear-regexp.ts, src/regexp-to-re2.ts; docs/design.md §16): it must mean what
// JavaScript's `u` RegExp means — a seeded differential run over generated patterns and subjects, with the places
// where RE2 and JavaScript differ in syntax (`.`, `\s`, `[\b]`, `[]`, `[^]`, `[` in a class, surrogates, `\p{…}`)
// among the atoms — answer the catastrophic family at once on inputs of 100 000 characters, and refuse what no
// linear engine can run with the reason.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { linearRegExp, UnrunnablePatternError } from "../src/linear-regexp.js";
import { CATASTROPHIC_PATTERNS, spelled } from "./helpers/catastrophic-patterns.js";

/** A small seeded generator (mulberry32), so a failure names a pattern that can be tried again. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ATOMS = [
  "a",
  "b",
  "é",
  "😀",
  ".",
  "\\s",
  "\\S",
  "\\d",
  "\\w",
  "\\W",
  "\\b",
  "[ab]",
  "[^a]",
  "[\\s\\d]",
  "[^\\S]",
  "[\\b]",
  "[a-c]",
  "[[]",
  "[^]",
  "[]",
  "\\p{L}",
  "\\P{L}",
  "\\p{Letter}",
  "\\p{Script=Latin}",
  "\\u{1F600}",
  "\\uD83D\\uDE00",
  "\\u00e9",
  "\\x61",
  "\\cJ",
  "\\/",
  "(?<g>a|b)",
  "(?:a|😀)",
];
const QUANTIFIERS = ["", "", "", "*", "+", "?", "{2}", "{1,3}", "*?", "+?"];
const ALPHABET = ["a", "b", "c", "é", "😀", " ", "\u00a0", "\u3000", "\n", "\r", "\u2028", "\b", "1", "_", "[", "/", "\ud83d"];

function generated(next: () => number, depth = 0): string {
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
  const parts: string[] = [];
  const count = 1 + Math.floor(next() * 3);
  for (let i = 0; i < count; i++) {
    const atom = depth < 2 && next() < 0.2 ? `(${generated(next, depth + 1)}|${generated(next, depth + 1)})` : pick(ATOMS);
    parts.push(atom + (atom === "\\b" ? "" : pick(QUANTIFIERS)));
  }
  const body = parts.join("");
  return depth > 0 ? body : `${next() < 0.5 ? "^" : ""}${body}${next() < 0.5 ? "$" : ""}`;
}

describe("the linear engine", () => {
  it("answers as JavaScript's u RegExp does, over 3 000 generated patterns × 12 subjects", () => {
    const seed = 17;
    const next = random(seed);
    const differ: string[] = [];
    for (let i = 0; i < 3000; i++) {
      const source = generated(next);
      let native: RegExp;
      try {
        native = new RegExp(source, "u");
      } catch {
        continue; // e.g. a group name used twice: no pattern, so nothing to compare
      }
      const linear = linearRegExp(source, "u");
      for (let j = 0; j < 12; j++) {
        const length = Math.floor(next() * 6);
        const subject = Array.from({ length }, () => ALPHABET[Math.floor(next() * ALPHABET.length)]).join("");
        if (native.test(subject) !== linear.test(subject)) differ.push(`/${source}/u on ${JSON.stringify(subject)}: ${native.test(subject)}`);
      }
    }
    assert.deepEqual(differ.slice(0, 10), [], `seed ${seed}`);
  });

  it("reads the case-insensitive flag as JavaScript does for ASCII", () => {
    const linear = linearRegExp("^[a-f]+x$", "i");
    assert.deepEqual(
      ["abcX", "ABCx", "abg"].map((s) => linear.test(s)),
      [true, true, false],
    );
  });

  it("answers the catastrophic family at once on 100 000 characters", { timeout: 20_000 }, () => {
    for (const p of CATASTROPHIC_PATTERNS) {
      const linear = linearRegExp(p.pattern, "u");
      assert.equal(linear.test(spelled({ ...p.attack, times: 100_000 })), false, p.pattern);
      assert.equal(linear.test(p.match), true, p.pattern);
    }
  });

  it("refuses what only a backtracking engine can run, saying why", () => {
    const refusals = {
      "^(?!admin$).+$": 'it uses a lookahead ("(?!")',
      "a(?=b)": 'it uses a lookahead ("(?=")',
      "(?<=\\$)\\d+": 'it uses a lookbehind ("(?<=")',
      "(?<!x)y": 'it uses a lookbehind ("(?<!")',
      "(a)\\1": "it uses a backreference (\\1)",
      "(?<q>['\"]).*\\k<q>": "it uses a backreference (\\k<…>)",
      "\\p{Script_Extensions=Greek}": "it uses \\p{Script_Extensions=Greek}, which RE2 does not support",
      "a{1001}": "RE2 cannot run it (error parsing regexp: invalid repeat count: `{1001}`)",
    };
    for (const [source, reason] of Object.entries(refusals)) {
      assert.throws(
        () => linearRegExp(source, "u"),
        (error: unknown) => error instanceof UnrunnablePatternError && error.message === reason,
        source,
      );
    }
  });

  it("refuses what is no pattern with JavaScript's own SyntaxError", () => {
    for (const source of ["(", "a{2,1}", "\\-", "[z-a]"]) assert.throws(() => linearRegExp(source, "u"), SyntaxError, source);
  });

  it("names each pattern apart (ajv keys compiled patterns by toString), and compiles each once", () => {
    assert.equal(String(linearRegExp("^a$", "u")), "/^a$/u");
    assert.notEqual(String(linearRegExp("^a$", "u")), String(linearRegExp("^b$", "u")));
    assert.equal(linearRegExp("^a$", "u"), linearRegExp("^a$", "u"));
  });
});
