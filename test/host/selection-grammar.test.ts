// How a query string is read (docs/design.md §6 rules 1–7): form-urlencoded parsing, reserved and bare keys, lists,
// ignored keys, emptiness, and rendering a selection back into the grammar.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { formatSelection, isEmptySelection, parseSelection } from "../../src/host/selection.js";
import type { Selection } from "../../src/host/selection.js";

function plain(selection: Selection): { named: string[]; only: string[] | null; without: string[] } {
  return {
    named: [...selection.named].sort(),
    only: selection.only === null ? null : [...selection.only].sort(),
    without: [...selection.without].sort(),
  };
}

function parsed(query: string | null | undefined, ignoreKeys?: string[]) {
  return plain(parseSelection(query, ignoreKeys === undefined ? {} : { ignoreKeys }));
}

const EMPTY = { named: [], only: null, without: [] };

describe("parseSelection: bare keys name toolsets", () => {
  it("reads a bare key as a toolset name", () => {
    assert.deepEqual(parsed("benchmarks"), { named: ["benchmarks"], only: null, without: [] });
  });
  it("reads several bare keys separated by &", () => {
    assert.deepEqual(parsed("benchmarks&library"), { named: ["benchmarks", "library"], only: null, without: [] });
  });
  it("ignores the value of a bare key", () => {
    assert.deepEqual(parsed("benchmarks=1"), { named: ["benchmarks"], only: null, without: [] });
    assert.deepEqual(parsed("a=only"), { named: ["a"], only: null, without: [] });
  });
  it("splits a bare key on commas", () => {
    assert.deepEqual(parsed("benchmarks,library"), { named: ["benchmarks", "library"], only: null, without: [] });
  });
  it("reads + in a key as a space, which then splits", () => {
    assert.deepEqual(parsed("a+b"), { named: ["a", "b"], only: null, without: [] });
  });
  it("decodes %20 in a key into a space, which then splits", () => {
    assert.deepEqual(parsed("a%20b"), { named: ["a", "b"], only: null, without: [] });
  });
  it("decodes %2C in a key into a comma, which then splits", () => {
    assert.deepEqual(parsed("a%2Cb"), { named: ["a", "b"], only: null, without: [] });
    assert.deepEqual(parsed("a%2cb"), { named: ["a", "b"], only: null, without: [] });
  });
  it("accepts a leading ?", () => {
    assert.deepEqual(parsed("?a&b"), { named: ["a", "b"], only: null, without: [] });
  });
  it("keeps a name once when it is repeated", () => {
    assert.deepEqual(parsed("a&a&toolsets=a"), { named: ["a"], only: null, without: [] });
  });
  it("decodes other percent escapes in names", () => {
    assert.deepEqual(parsed("caf%C3%A9&toolsets=x%26y"), { named: ["café", "x&y"], only: null, without: [] });
  });
  it("does not treat ; as a separator", () => {
    assert.deepEqual(parsed("a;b"), { named: ["a;b"], only: null, without: [] });
  });
});

describe("parseSelection: reserved keys", () => {
  it("reads toolsets= as a list of names", () => {
    assert.deepEqual(parsed("toolsets=benchmarks,library"), { named: ["benchmarks", "library"], only: null, without: [] });
  });
  it("reads + and %2C inside a toolsets= value as separators", () => {
    assert.deepEqual(parsed("toolsets=benchmarks+library"), { named: ["benchmarks", "library"], only: null, without: [] });
    assert.deepEqual(parsed("toolsets=benchmarks%2Clibrary"), { named: ["benchmarks", "library"], only: null, without: [] });
  });
  it("trims list parts and drops empty ones", () => {
    assert.deepEqual(parsed("toolsets=,%20a%20,,b,"), { named: ["a", "b"], only: null, without: [] });
  });
  it("reads only= as the only set", () => {
    assert.deepEqual(parsed("only=benchmarks"), { named: [], only: ["benchmarks"], without: [] });
  });
  it("unions repeated only= values", () => {
    assert.deepEqual(parsed("only=spaces&only=library"), { named: [], only: ["library", "spaces"], without: [] });
  });
  it("reads an empty only= as the empty set, not as absent", () => {
    assert.deepEqual(parsed("only="), { named: [], only: [], without: [] });
    assert.deepEqual(parsed("only"), { named: [], only: [], without: [] });
  });
  it("keeps an empty only= when another only= adds names", () => {
    assert.deepEqual(parsed("only=&only=a"), { named: [], only: ["a"], without: [] });
  });
  it("reads without= as names to leave out", () => {
    assert.deepEqual(parsed("without=spaces,library"), { named: [], only: null, without: ["library", "spaces"] });
  });
  it("does not count reserved keys as names", () => {
    assert.deepEqual(parsed("only=spaces&without=library"), { named: [], only: ["spaces"], without: ["library"] });
  });
  it("matches reserved keys case-sensitively: Only= is a toolset name", () => {
    assert.deepEqual(parsed("Only=spaces"), { named: ["Only"], only: null, without: [] });
  });
  it("trims keys before matching reserved words", () => {
    assert.deepEqual(parsed("%20only%20=a"), { named: [], only: ["a"], without: [] });
  });
});

describe("parseSelection: what is skipped", () => {
  it("gives the empty selection for undefined, null, an empty string and a lone ?", () => {
    for (const query of [undefined, null, "", "?"]) assert.deepEqual(parsed(query), EMPTY, String(query));
  });
  it("skips an empty key (=x)", () => {
    assert.deepEqual(parsed("=x"), EMPTY);
  });
  it("skips empty parameters (&&)", () => {
    assert.deepEqual(parsed("&&"), EMPTY);
    assert.deepEqual(parsed("a&&b"), { named: ["a", "b"], only: null, without: [] });
  });
  it("skips a key that is only spaces", () => {
    assert.deepEqual(parsed("%20%20=x&+"), EMPTY);
  });
  it("skips ignored keys before the reserved check", () => {
    assert.deepEqual(parsed("scopes=data:read&odoo", ["scopes"]), { named: ["odoo"], only: null, without: [] });
    assert.deepEqual(parsed("only=a&b", ["only"]), { named: ["b"], only: null, without: [] });
  });
  it("matches ignored keys against the trimmed key", () => {
    assert.deepEqual(parsed("%20scopes=x", ["scopes"]), EMPTY);
  });
  it("reports an ignored key as a name when it is not configured as ignored", () => {
    assert.deepEqual(parsed("scopes=data:read&odoo"), { named: ["odoo", "scopes"], only: null, without: [] });
  });
});

describe("isEmptySelection", () => {
  it("is true when nothing is named, only is absent and without is empty", () => {
    for (const query of ["", "toolsets=", "=x", "&&", "without=", "toolsets=,,"]) {
      assert.equal(isEmptySelection(parseSelection(query)), true, query);
    }
  });
  it("is false for a name, an only= (even empty) or a without=", () => {
    for (const query of ["a", "only=", "only=a", "without=a", "toolsets=a"]) {
      assert.equal(isEmptySelection(parseSelection(query)), false, query);
    }
  });
  it("is true when every key was ignored", () => {
    assert.equal(isEmptySelection(parseSelection("scopes=x", { ignoreKeys: ["scopes"] })), true);
  });
});

describe("formatSelection", () => {
  it("renders the empty selection as an empty string", () => {
    assert.equal(formatSelection(parseSelection("")), "");
  });
  it("renders named, only and without in that order, each list sorted", () => {
    assert.equal(formatSelection(parseSelection("without=z,y&only=b,a&library&benchmarks")), "toolsets=benchmarks,library&only=a,b&without=y,z");
  });
  it("renders an empty only as only=", () => {
    assert.equal(formatSelection(parseSelection("only=")), "only=");
  });
  it("round-trips through parseSelection, including names that need escaping", () => {
    const queries = ["a&b", "only=", "only=a&without=b&c", "toolsets=x%26y,caf%C3%A9,a%2Bb,only", "without=%3D"];
    for (const query of queries) {
      const selection = parseSelection(query);
      assert.deepEqual(plain(parseSelection(formatSelection(selection))), plain(selection), query);
    }
  });
});
