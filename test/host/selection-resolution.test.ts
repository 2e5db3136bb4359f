// Which toolsets a selection turns on and which names it used that nobody declared (docs/design.md §6 rules 7–9 and
// every row of its table), the cache key, where a request's selection comes from, and strict mode.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { isMcpHostError } from "../../src/errors.js";
import { assertNoUnknownToolsets, isEmptySelection, parseSelection, resolveSelection, selectionFromRequest, selectionKey } from "../../src/host/selection.js";
import type { DeclaredToolsetFlags, SelectionSource } from "../../src/host/selection.js";
import { defined } from "../../src/defined.js";

// The §6 fixture: core is always on, spaces is on by default, benchmarks and library are not.
const DECLARED: DeclaredToolsetFlags[] = [
  { name: "spaces", default: true, always: false },
  { name: "library", default: false, always: false },
  { name: "core", default: false, always: true },
  { name: "benchmarks", default: false, always: false },
];

function resolve(query: string, declared: readonly DeclaredToolsetFlags[] = DECLARED, ignoreKeys?: string[]) {
  return resolveSelection(declared, parseSelection(query, defined({ ignoreKeys })));
}

describe("resolveSelection: the docs/design.md §6 table", () => {
  const rows: Array<[query: string, active: string[], unknown: string[]]> = [
    ["", ["core", "spaces"], []],
    ["benchmarks", ["benchmarks", "core", "spaces"], []],
    ["benchmarks&library", ["benchmarks", "core", "library", "spaces"], []],
    ["toolsets=benchmarks,library", ["benchmarks", "core", "library", "spaces"], []],
    ["benchmarks,library", ["benchmarks", "core", "library", "spaces"], []],
    ["benchmarks=1", ["benchmarks", "core", "spaces"], []],
    ["only=benchmarks", ["benchmarks", "core"], []],
    ["only=", ["core"], []],
    ["only=benchmarks&library", ["benchmarks", "core"], []],
    ["without=spaces", ["core"], []],
    ["without=core", ["core", "spaces"], []],
    ["nosuch", ["core", "spaces"], ["nosuch"]],
    ["Only=spaces", ["core", "spaces"], ["Only"]],
  ];
  for (const [query, active, unknown] of rows) {
    it(`?${query} → active ${active.join(", ")}; unknown ${unknown.join(", ") || "none"}`, () => {
      assert.deepEqual(resolve(query), { active, unknown });
    });
  }
});

describe("resolveSelection: corners", () => {
  it("toolsets=benchmarks+library names both", () => {
    assert.deepEqual(resolve("toolsets=benchmarks+library"), { active: ["benchmarks", "core", "library", "spaces"], unknown: [] });
  });
  it("a%2Clibrary in a key names both", () => {
    assert.deepEqual(resolve("benchmarks%2Clibrary"), { active: ["benchmarks", "core", "library", "spaces"], unknown: [] });
  });
  it("a key with an encoded space names two toolsets", () => {
    assert.deepEqual(resolve("benchmarks%20library"), { active: ["benchmarks", "core", "library", "spaces"], unknown: [] });
  });
  it("repeated only= values are unioned", () => {
    assert.deepEqual(resolve("only=spaces&only=library"), { active: ["core", "library", "spaces"], unknown: [] });
  });
  it("only= cannot turn off an always-on toolset, and without= cannot either", () => {
    assert.deepEqual(resolve("only=benchmarks&without=core"), { active: ["benchmarks", "core"], unknown: [] });
  });
  it("toolsets= with an empty value and =x and && behave like the empty query", () => {
    for (const query of ["toolsets=", "=x", "&&"]) assert.deepEqual(resolve(query), { active: ["core", "spaces"], unknown: [] }, query);
  });
  it("only=spaces&without=library gives spaces and core", () => {
    assert.deepEqual(resolve("only=spaces&without=library"), { active: ["core", "spaces"], unknown: [] });
  });
  it("without wins over a name in the same query", () => {
    const declared = [...DECLARED, { name: "odoo", default: false, always: false }];
    assert.deepEqual(resolve("odoo&without=odoo", declared), { active: ["core", "spaces"], unknown: [] });
    assert.deepEqual(resolve("only=odoo&without=odoo", declared), { active: ["core"], unknown: [] });
  });
  it("reports a stale without= name as unknown", () => {
    assert.deepEqual(resolve("without=nosuch"), { active: ["core", "spaces"], unknown: ["nosuch"] });
  });
  it("reports unknown names from named, only and without, sorted and once", () => {
    assert.deepEqual(resolve("zeta&only=alpha,spaces&without=zeta,mid"), { active: ["core", "spaces"], unknown: ["alpha", "mid", "zeta"] });
  });
  it("reports bare names as unknown even when only= makes them inactive", () => {
    assert.deepEqual(resolve("only=benchmarks&nosuch"), { active: ["benchmarks", "core"], unknown: ["nosuch"] });
  });
  it("never reports an ignored key", () => {
    assert.deepEqual(resolve("scopes=data:read&library", DECLARED, ["scopes"]), { active: ["core", "library", "spaces"], unknown: [] });
    assert.deepEqual(resolve("scopes=data:read&library"), { active: ["core", "library", "spaces"], unknown: ["scopes"] });
  });
  it("does not depend on the order of the declarations", () => {
    const reversed = [...DECLARED].reverse();
    for (const query of ["", "benchmarks", "only=library", "without=spaces&nosuch"]) {
      assert.deepEqual(resolve(query, reversed), resolve(query), query);
    }
  });
  it("treats a toolset declared twice as always-on when either declaration says so", () => {
    const twice = [...DECLARED, { name: "library", default: false, always: true }];
    assert.deepEqual(resolve("only=", twice), { active: ["core", "library"], unknown: [] });
  });
  it("gives nothing active and everything unknown when nothing is declared", () => {
    assert.deepEqual(resolve("a&only=b", []), { active: [], unknown: ["a", "b"] });
  });
});

describe("selectionKey", () => {
  it("sorts and de-duplicates the active names, joined by commas", () => {
    assert.equal(selectionKey(["spaces", "core", "spaces", "benchmarks"]), "benchmarks,core,spaces");
    assert.equal(selectionKey([]), "");
  });
  it("gives ?a&b, ?b&a, ?a,b and ?toolsets=a,b one key", () => {
    const declared = [
      { name: "a", default: false, always: false },
      { name: "b", default: false, always: false },
    ];
    const keys = ["a&b", "b&a", "a,b", "toolsets=a,b", "toolsets=b&a"].map((q) => selectionKey(resolve(q, declared).active));
    assert.deepEqual(new Set(keys), new Set(["a,b"]));
  });
});

describe("selectionFromRequest: query, then header, then default", () => {
  function active(source: SelectionSource) {
    return resolveSelection(DECLARED, selectionFromRequest(source));
  }
  it("uses the query when it names something", () => {
    assert.deepEqual(active({ query: "library", header: "only=benchmarks" }).active, ["core", "library", "spaces"]);
  });
  it("uses the X-MCP-Toolsets header, in the same grammar, when the query names nothing", () => {
    assert.deepEqual(active({ query: "", header: "only=benchmarks" }).active, ["benchmarks", "core"]);
    assert.deepEqual(active({ query: null, header: "benchmarks,library" }).active, ["benchmarks", "core", "library", "spaces"]);
  });
  it("does not use the header when the query has an empty only=", () => {
    assert.deepEqual(active({ query: "only=", header: "benchmarks" }).active, ["core"]);
  });
  it("uses the header when the query holds only ignored keys", () => {
    assert.deepEqual(active({ query: "scopes=x", header: "library", ignoreKeys: ["scopes"] }).active, ["core", "library", "spaces"]);
  });
  it("skips ignored keys in the header too", () => {
    assert.deepEqual(active({ header: "scopes=x&library", ignoreKeys: ["scopes"] }), { active: ["core", "library", "spaces"], unknown: [] });
  });
  it("applies the default selection only when query and header are both empty", () => {
    assert.deepEqual(active({ query: "", header: "", defaultSelection: "only=benchmarks" }).active, ["benchmarks", "core"]);
    assert.deepEqual(active({ defaultSelection: "only=benchmarks" }).active, ["benchmarks", "core"]);
  });
  it("never lets the default override a URL that names something", () => {
    assert.deepEqual(active({ query: "library", defaultSelection: "only=benchmarks" }).active, ["core", "library", "spaces"]);
    assert.deepEqual(active({ query: "without=spaces", defaultSelection: "only=benchmarks" }).active, ["core"]);
    assert.deepEqual(active({ query: "nosuch", defaultSelection: "only=benchmarks" }), { active: ["core", "spaces"], unknown: ["nosuch"] });
  });
  it("never lets the default override a header that names something", () => {
    assert.deepEqual(active({ header: "library", defaultSelection: "only=benchmarks" }).active, ["core", "library", "spaces"]);
  });
  it("gives the empty selection when nothing is given", () => {
    assert.deepEqual(active({}), { active: ["core", "spaces"], unknown: [] });
  });
});

describe("assertNoUnknownToolsets (strict mode)", () => {
  it("does nothing when no name is unknown", () => {
    assert.doesNotThrow(() => assertNoUnknownToolsets([], ["core"]));
  });
  it("throws SELECTION_UNKNOWN_TOOLSET listing the unknown names and the declared toolsets, sorted", () => {
    assert.throws(
      () => assertNoUnknownToolsets(["zeta", "alpha"], ["spaces", "core", "benchmarks"]),
      (error: unknown) => {
        assert.ok(isMcpHostError(error, "SELECTION_UNKNOWN_TOOLSET"));
        assert.equal(
          error.message,
          'unknown toolsets "alpha", "zeta" in the selection; declared toolsets: "benchmarks", "core", "spaces". ' +
            "Use one of the declared names, or turn off selection.strict to serve unknown names with a warning.",
        );
        return true;
      },
    );
  });
  it("says so when one name is unknown and nothing is declared", () => {
    assert.throws(() => assertNoUnknownToolsets(["x"], []), /^McpHostError: unknown toolset "x" in the selection; no toolsets are declared\./);
  });
});

describe("resolveSelection: keywords (rule 6) and single tools instead of toolsets (rule 8)", () => {
  const rows: Array<[query: string, active: string[], unknown: string[]]> = [
    ["all", ["benchmarks", "core", "library", "spaces"], []],
    ["toolsets=all", ["benchmarks", "core", "library", "spaces"], []],
    ["only=all", ["benchmarks", "core", "library", "spaces"], []],
    ["toolsets=default,library", ["core", "library", "spaces"], []],
    ["default", ["core", "spaces"], []],
    ["only=default,library", ["core", "library", "spaces"], []],
    ["only=all&without=default", ["benchmarks", "core", "library"], []],
    ["without=all", ["core"], []],
    ["tools=get_book", ["core"], []],
    ["tools=get_book&default", ["core", "spaces"], []],
    ["tools=get_book&library", ["core", "library", "spaces"], []],
    ["tools=get_book&only=benchmarks", ["benchmarks", "core"], []],
    ["readonly&search", ["core", "spaces"], []],
    ["without=readonly", ["core", "spaces"], ["readonly"]],
  ];
  for (const [query, active, unknown] of rows) {
    it(`?${query} → active ${active.join(", ")}; unknown ${unknown.join(", ") || "none"}`, () => {
      assert.deepEqual(resolve(query), { active, unknown });
    });
  }
});

describe("selectionFromRequest: X-MCP-Tools and X-MCP-Readonly", () => {
  it("reads X-MCP-Tools as tools= of the header selection, used when the query names nothing", () => {
    const selection = selectionFromRequest({ query: "", header: "library", toolsHeader: "get_result, ping" });
    assert.deepEqual([...selection.named], ["library"]);
    assert.deepEqual([...selection.tools].sort(), ["get_result", "ping"]);
    assert.equal(isEmptySelection(selectionFromRequest({ toolsHeader: "ping" })), false);
  });
  it("ignores X-MCP-Tools when the query names something, as it ignores X-MCP-Toolsets", () => {
    assert.deepEqual([...selectionFromRequest({ query: "library", toolsHeader: "ping" }).tools], []);
  });
  it("turns read-only on with X-MCP-Readonly: true whatever names the toolsets, and never drops it", () => {
    for (const source of [
      { query: "library", readonlyHeader: "true" },
      { query: "", header: "library", readonlyHeader: "1" },
      { defaultSelection: "only=core", readonlyHeader: "TRUE" },
      { query: "library", header: "readonly" },
      { query: "library", readonlyHeader: "sure" },
    ]) {
      assert.equal(selectionFromRequest(source).readonly, true, JSON.stringify(source));
    }
  });
  it("leaves read-only off for X-MCP-Readonly: false, and takes the default's readonly only when the default applies", () => {
    assert.equal(selectionFromRequest({ query: "library", readonlyHeader: "false" }).readonly, false);
    assert.equal(selectionFromRequest({ query: "library", defaultSelection: "readonly&only=core" }).readonly, false);
    assert.equal(selectionFromRequest({ query: "", defaultSelection: "readonly&only=core" }).readonly, true);
  });
  it("applies the default to a query of modifiers only: ?readonly is the default selection, read-only", () => {
    const selection = selectionFromRequest({ query: "readonly&search", defaultSelection: "only=benchmarks" });
    assert.deepEqual(resolveSelection(DECLARED, selection).active, ["benchmarks", "core"]);
    assert.equal(selection.readonly, true);
    assert.equal(selection.search, true);
  });
  it("takes search from the query, then the headers, then the default when it applies", () => {
    assert.equal(selectionFromRequest({ query: "search=0", header: "search" }).search, false);
    assert.equal(selectionFromRequest({ query: "library", header: "search" }).search, true);
    assert.equal(selectionFromRequest({ query: "", defaultSelection: "search" }).search, true);
    assert.equal(selectionFromRequest({ query: "library", defaultSelection: "search" }).search, null);
  });
});

describe("assertNoUnknownToolsets: unknown tools", () => {
  it("names unknown tools apart from unknown toolsets", () => {
    assert.throws(
      () => assertNoUnknownToolsets(["tools=get_bok", "nosuch"], ["core"]),
      (error: unknown) => {
        assert.ok(isMcpHostError(error, "SELECTION_UNKNOWN_TOOLSET"));
        assert.equal(
          error.message,
          'unknown toolset "nosuch" and unknown tool "get_bok" (no active or declared toolset offers it) in the selection; declared toolsets: "core". ' +
            "Use one of the declared names, or turn off selection.strict to serve unknown names with a warning.",
        );
        return true;
      },
    );
  });
});
