// The fast path with auth on (docs/design.md §8, §9): the same verified caller reaches a handler on a pooled server as
// on the SDK entry's per-request one — `ctx.auth` without the token, the SDK context's own auth info, the selection
// narrowed by the caller's permissions — and what a caller may not reach answers alike. One build is served by a
// host with the fast path on and by one with it forced off, with one token, and every answer compared.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import type { McpExtension } from "../../src/extension/types.js";
import { FastPath } from "../../src/http/mcp/fast-path.js";
import { authExtensions, authTestFile, bearer, type Runs } from "../helpers/auth-host.js";
import { raw, type RawResponse } from "../helpers/http-host.js";

const file = authTestFile();

/** The requests the fast path served in this process, counted by wrapping its class. */
const fastServed = { count: 0 };
const fastServe = FastPath.prototype.serve;
FastPath.prototype.serve = async function (this: FastPath, ...args: Parameters<FastPath["serve"]>) {
  const served = await fastServe.apply(this, args);
  if (served) fastServed.count += 1;
  return served;
};

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "fast-path-auth", version: "1" },
};

function withSdkAuth(runs: Runs): McpExtension[] {
  return [
    ...authExtensions(runs),
    {
      name: "probe",
      toolsets: [{ name: "probe", default: false }],
      tools: [{ name: "sdk_auth", handler: (_args, ctx) => ({ content: [{ type: "text", text: JSON.stringify(ctx.mcp.http?.authInfo ?? null) }] }) }],
    },
  ];
}

/** An answer, with the host's own origin (in URLs such as the resource metadata's) left out: two hosts, two ports. */
function answerOf(response: RawResponse, origin: string): unknown {
  const answer = { status: response.status, contentType: response.headers["content-type"], body: response.json ?? response.text };
  return JSON.parse(JSON.stringify(answer).replaceAll(origin, "(host)"));
}

describe("the fast path with auth on", { timeout: 60_000 }, () => {
  it("a handler sees the same caller and selection, and a refusal answers alike", async () => {
    const fastRuns: Runs = [];
    const entryRuns: Runs = [];
    const fast = await file.serve({ extensions: withSdkAuth(fastRuns), runs: fastRuns });
    const entry = await file.serve({ extensions: withSdkAuth(entryRuns), runs: entryRuns, http: { fastPath: false } });
    const token = await fast.token({ sub: "alice", client_id: "notes-app", scope: "mcp:read", exp: Math.floor(Date.now() / 1000) + 600 });
    const ask = (served: typeof fast, query: string, method: string, params: Record<string, unknown>, id: number) =>
      raw({
        url: served.at(query),
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2026-07-28",
          "mcp-method": method,
          ...(typeof params.name === "string" ? { "mcp-name": params.name } : {}),
          ...bearer(token),
        },
        body: JSON.stringify({ jsonrpc: "2.0", id, method, params: { ...params, _meta: META } }),
      });
    const cases: Array<[string, string, Record<string, unknown>, boolean]> = [
      ["notes&probe", "tools/call", { name: "whoami", arguments: {} }, true],
      ["notes&probe", "tools/call", { name: "sdk_auth", arguments: {} }, true],
      ["notes&probe", "tools/list", {}, true],
      // The default selection holds admin, which this caller may not reach: narrowed away, so wipe is unknown.
      ["", "tools/call", { name: "wipe", arguments: {} }, true],
      ["", "tools/list", {}, true],
      // A toolset it names but may not reach: refused before anything is built, on both.
      ["only=admin", "tools/call", { name: "wipe", arguments: {} }, false],
    ];
    let id = 1;
    for (const [query, method, params, takes] of cases) {
      const before = fastServed.count;
      const viaFast = await ask(fast, query, method, params, id);
      assert.equal(fastServed.count - before, takes ? 1 : 0, `${query} ${method} ${JSON.stringify(params)} on the fast path: ${takes}`);
      const viaEntry = await ask(entry, query, method, params, id);
      assert.equal(viaFast.text.includes(token), false, "no token in an answer");
      assert.deepEqual(answerOf(viaFast, fast.url.origin), answerOf(viaEntry, entry.url.origin), `${query} ${method} ${JSON.stringify(params)}`);
      id += 1;
    }
    assert.deepEqual(fastRuns, entryRuns, "the same handlers ran for the same callers");
    const seen = JSON.parse((await ask(fast, "notes&probe", "tools/call", { name: "whoami", arguments: {} }, 99)).json.result.content[0].text);
    assert.equal(seen.auth.extra.subject, "alice", "compares something: the caller reached the pooled server's handler");
    assert.equal(seen.auth.token, "");
  });
});
