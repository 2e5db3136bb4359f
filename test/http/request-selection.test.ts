// Reading a request's selection (docs/design.md §6), once per request at the edge: the raw query, else the
// X-MCP-Toolsets header, else the deployment default — and which names the caller itself gave (the default's are
// the deployment's, so a caller is never refused for a toolset it did not ask for).
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import type { IncomingMessage } from "node:http";
import type { RequestSelection } from "../../src/http/edge/request-selection.js";
import { selectionOf } from "../../src/http/edge/request-selection.js";

function request(url: string, header?: string | string[]): IncomingMessage {
  return { url, headers: header === undefined ? {} : { "x-mcp-toolsets": header } } as unknown as IncomingMessage;
}

function shown({ selection, named }: RequestSelection) {
  return {
    named: [...selection.named],
    only: selection.only === null ? null : [...selection.only],
    without: [...selection.without],
    callerNamed: [...named],
  };
}

describe("selectionOf", () => {
  it("reads the query, else the header, else the default, and says what the caller named", () => {
    assert.deepEqual(shown(selectionOf(request("/mcp?only=a"), {})), { named: [], only: ["a"], without: [], callerNamed: ["a"] });
    assert.deepEqual(shown(selectionOf(request("/mcp?only=a", "b"), {})), { named: [], only: ["a"], without: [], callerNamed: ["a"] });
    assert.deepEqual(shown(selectionOf(request("/mcp", "b"), {})), { named: ["b"], only: null, without: [], callerNamed: ["b"] });
    assert.deepEqual(shown(selectionOf(request("/mcp", ["b", "c"]), {})), { named: ["b", "c"], only: null, without: [], callerNamed: ["b", "c"] });
    assert.deepEqual(shown(selectionOf(request("/mcp"), { default: "only=core" })), { named: [], only: ["core"], without: [], callerNamed: [] });
    assert.deepEqual(shown(selectionOf(request("/mcp"), {})), { named: [], only: null, without: [], callerNamed: [] });
    assert.deepEqual(shown(selectionOf(request("/mcp"), { default: "without=x" })), { named: [], only: null, without: ["x"], callerNamed: [] });
    assert.deepEqual(shown(selectionOf(request("/mcp?a&only=b"), {})), { named: ["a"], only: ["b"], without: [], callerNamed: ["a", "b"] });
  });

  it("skips the ignored keys before anything else", () => {
    assert.deepEqual(shown(selectionOf(request("/mcp?scopes=1&only=a"), {})), { named: ["scopes"], only: ["a"], without: [], callerNamed: ["scopes", "a"] });
    assert.deepEqual(shown(selectionOf(request("/mcp?scopes=1&only=a"), { ignoreKeys: ["scopes"] })), {
      named: [],
      only: ["a"],
      without: [],
      callerNamed: ["a"],
    });
    assert.deepEqual(shown(selectionOf(request("/mcp?scopes=1"), { ignoreKeys: ["scopes"], default: "only=core" })), {
      named: [],
      only: ["core"],
      without: [],
      callerNamed: [],
    });
  });
});
