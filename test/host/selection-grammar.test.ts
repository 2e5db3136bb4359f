// How a query string is read (docs/design.md §6 rules 1–7): form-urlencoded parsing, reserved and bare keys, lists,
// ignored keys, emptiness, and rendering a selection back into the grammar.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { formatSelection, isEmptySelection, parseSelection } from "../../src/host/selection.js";
import type { Selection } from "../../src/host/selection.js";
import { defined } from "../../src/defined.js";

function plain(selection: Selection): { named: string[]; only: string[] | null; without: string[] } {
  return {
    named: [...selection.named].sort(),
    only: selection.only === null ? null : [...selection.only].sort(),
    without: [...selection.without].sort(),
  };
}

function parsed(query: string | null | undefined, ignoreKeys?: string[]) {
  return plain(parseSelection(query, defined({ ignoreKeys })));
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

// Modifiers, single tools and keywords (docs/design.md §6 rules 4–6, issue 20).
function modifiers(query: string) {
  const selection = parseSelection(query);
  return { ...plain(selection), tools: [...selection.tools].sort(), readonly: selection.readonly, search: selection.search };
}
const NONE = { named: [], only: null, without: [], tools: [], readonly: false, search: null };

describe("parseSelection: readonly and search are modifier keys (rule 4)", () => {
  it("turns readonly on with no value, an empty value, 1, true, yes and on", () => {
    for (const query of ["readonly", "readonly=", "readonly=1", "readonly=true", "readonly=TRUE", "readonly=yes", "readonly=on"])
      assert.deepEqual(modifiers(query), { ...NONE, readonly: true }, query);
  });
  it("turns readonly off only with 0, false, no or off, in any case", () => {
    for (const query of ["readonly=0", "readonly=false", "readonly=False", "readonly=no", "readonly=OFF"]) assert.deepEqual(modifiers(query), NONE, query);
  });
  it("fails closed: any other readonly value turns it on, and any occurrence that says on wins", () => {
    for (const query of ["readonly=maybe", "readonly=2", "readonly=0&readonly", "readonly&readonly=false"])
      assert.deepEqual(modifiers(query), { ...NONE, readonly: true }, query);
  });
  it("reads search as on, search=0 as an explicit off, and no search as undecided (null)", () => {
    assert.deepEqual(modifiers("search"), { ...NONE, search: true });
    assert.deepEqual(modifiers("search=1"), { ...NONE, search: true });
    assert.deepEqual(modifiers("search=0"), { ...NONE, search: false });
    assert.deepEqual(modifiers("search=false&search"), { ...NONE, search: true });
    assert.deepEqual(modifiers("a"), { ...NONE, named: ["a"] });
  });
  it("takes the modifier words out of a name list too, so read-only is never read as a toolset", () => {
    assert.deepEqual(modifiers("spaces,readonly"), { ...NONE, named: ["spaces"], readonly: true });
    assert.deepEqual(modifiers("toolsets=spaces,readonly,search"), { ...NONE, named: ["spaces"], readonly: true, search: true });
    assert.deepEqual(modifiers("only=library,readonly"), { ...NONE, only: ["library"], readonly: true });
  });
  it("keeps a modifier word in without= as a name (left out of nothing, reported unknown)", () => {
    assert.deepEqual(modifiers("without=readonly"), { ...NONE, without: ["readonly"] });
  });
  it("matches modifier keys case-sensitively: ReadOnly is a toolset name", () => {
    assert.deepEqual(modifiers("ReadOnly"), { ...NONE, named: ["ReadOnly"] });
  });
});

describe("parseSelection: tools= names single tools (rule 4)", () => {
  it("reads tools= as a list of tool names, unioned over repeats", () => {
    assert.deepEqual(modifiers("tools=get_book,ping&tools=lend_book"), { ...NONE, tools: ["get_book", "lend_book", "ping"] });
  });
  it("keeps qualified and dotted tool names whole", () => {
    assert.deepEqual(modifiers("tools=library__get_book,library.lend_book"), { ...NONE, tools: ["library.lend_book", "library__get_book"] });
  });
  it("reads an empty tools= (or a bare ?tools) as no tools, not as a toolset named tools", () => {
    assert.deepEqual(modifiers("tools="), NONE);
    assert.deepEqual(modifiers("tools"), NONE);
  });
  it("reads words in tools= as tool names: a tool list has no keywords or modifiers", () => {
    assert.deepEqual(modifiers("tools=all,readonly,default"), { ...NONE, tools: ["all", "default", "readonly"] });
  });
});

describe("parseSelection: keywords stay words until resolved (rule 6)", () => {
  it("keeps all and default in named, only and without lists", () => {
    assert.deepEqual(modifiers("all&toolsets=default&only=all&without=default"), {
      ...NONE,
      named: ["all", "default"],
      only: ["all"],
      without: ["default"],
    });
  });
});

describe("isEmptySelection: modifiers do not count, single tools do (rule 7)", () => {
  it("is true for readonly, search and search=0 alone", () => {
    for (const query of ["readonly", "search", "search=0", "readonly&search&tools="]) assert.equal(isEmptySelection(parseSelection(query)), true, query);
  });
  it("is false for tools= with a name", () => {
    assert.equal(isEmptySelection(parseSelection("tools=get_book")), false);
  });
});

describe("formatSelection: modifiers and single tools", () => {
  it("renders tools=, readonly and search after the lists", () => {
    assert.equal(formatSelection(parseSelection("search&readonly&tools=b,a&library")), "toolsets=library&tools=a,b&readonly&search");
    assert.equal(formatSelection(parseSelection("search=0")), "search=0");
  });
  it("round-trips every modifier", () => {
    for (const query of ["readonly", "search=0", "tools=x%2Cy,z&only=", "all&readonly&search"]) {
      const selection = parseSelection(query);
      assert.deepEqual(modifiers(formatSelection(selection)), modifiers(query), query);
    }
  });
});
