// Reading a request's selection (docs/design.md §6): the raw query, else the X-MCP-Toolsets header, else the default.
// A read is kept for the next request that names the same thing, so what is kept must be told apart by every input:
// the query, the header, the deployment default and the ignored keys.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import type { Request } from "express";
import type { Selection } from "../../src/host/selection.js";
import { selectionOf } from "../../src/http/request-selection.js";

function request(url: string, header?: string | string[]): Request {
  return { url, originalUrl: url, headers: header === undefined ? {} : { "x-mcp-toolsets": header } } as unknown as Request;
}

function shown(selection: Selection) {
  return { named: [...selection.named], only: selection.only === null ? null : [...selection.only], without: [...selection.without] };
}

describe("selectionOf", () => {
  it("reads the query, else the header, else the default, and a repeated read answers the same", () => {
    assert.deepEqual(shown(selectionOf(request("/mcp?only=a"), {})), { named: [], only: ["a"], without: [] });
    assert.deepEqual(shown(selectionOf(request("/mcp?only=a", "b"), {})), { named: [], only: ["a"], without: [] });
    assert.deepEqual(shown(selectionOf(request("/mcp", "b"), {})), { named: ["b"], only: null, without: [] });
    assert.deepEqual(shown(selectionOf(request("/mcp", ["b", "c"]), {})), { named: ["b", "c"], only: null, without: [] });
    assert.deepEqual(shown(selectionOf(request("/mcp"), { default: "only=core" })), { named: [], only: ["core"], without: [] });
    assert.deepEqual(shown(selectionOf(request("/mcp"), {})), { named: [], only: null, without: [] });
    assert.deepEqual(shown(selectionOf(request("/mcp"), { default: "without=x" })), { named: [], only: null, without: ["x"] });
    assert.equal(selectionOf(request("/mcp?only=a"), {}), selectionOf(request("/mcp?only=a"), {}));
  });

  it("tells reads apart by their ignored keys", () => {
    assert.deepEqual(shown(selectionOf(request("/mcp?scopes=1&only=a"), {})), { named: ["scopes"], only: ["a"], without: [] });
    assert.deepEqual(shown(selectionOf(request("/mcp?scopes=1&only=a"), { ignoreKeys: ["scopes"] })), { named: [], only: ["a"], without: [] });
    assert.deepEqual(shown(selectionOf(request("/mcp?scopes=1&only=a"), {})), { named: ["scopes"], only: ["a"], without: [] });
  });
});
