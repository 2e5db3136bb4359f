// Nothing is built for a caller who is not yet authenticated (issue 30 finding 6, docs/security.md): with auth on, a
// request without a token, with a bad one, or over its rate is answered before any build — no extension's onServer
// hook runs, no dormant extension wakes, and no authenticated caller's build is evicted from the bounded cache.
// Before the fix the edge built every request's selection first, so nine anonymous requests for nine selections ran
// onServer nine times and pushed a cached build out of a cache of four.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import type { McpExtension } from "../../src/extension/types.js";
import { authExtensions, authTestFile, bearer, type Runs } from "../helpers/auth-host.js";
import { modernBody, modernHeaders, raw } from "../helpers/http-host.js";

const file = authTestFile();

/** authExtensions plus nine small toolsets, each with an onServer hook that counts the builds it takes part in. */
function countedExtensions(runs: Runs, builds: string[], woken: string[]): McpExtension[] {
  const toolsets = Array.from({ length: 9 }, (_, i) => `t${i}`);
  return [
    ...authExtensions(runs),
    {
      name: "counted",
      toolsets: toolsets.map((name) => ({ name, default: false })),
      tools: toolsets.map((toolset) => ({ name: `tool_${toolset}`, toolset, handler: () => ({ content: [] }) })),
      onServer: (draft) => {
        builds.push(draft.key);
      },
    },
    {
      name: "dormant",
      activation: "onToolset",
      toolsets: [{ name: "sleepy", default: false }],
      tools: [{ name: "nap", handler: () => ({ content: [] }) }],
      setup: () => {
        woken.push("dormant");
      },
    },
  ];
}

/** The requests an attacker without a good token sends: one per selection, in each way a request can be refused. */
function attacks(bad: string): Array<{ label: string; query: string; headers: Record<string, string> }> {
  const selections = [...Array.from({ length: 9 }, (_, i) => `only=t${i}`), "only=sleepy", "t1&t2&readonly", "tools=tool_t3", "all&search"];
  return selections.flatMap((query) => [
    { label: `no token, ${query}`, query, headers: {} },
    { label: `a forged token, ${query}`, query, headers: bearer(bad) },
    { label: `an empty bearer, ${query}`, query, headers: { authorization: "Bearer " } },
  ]);
}

describe("nothing is built before the caller is authenticated", { timeout: 120_000 }, () => {
  it("answers anonymous and forged requests for distinct selections without running onServer, waking or evicting", async () => {
    const builds: string[] = [];
    const woken: string[] = [];
    const runs: Runs = [];
    const served = await file.serve({ extensions: countedExtensions(runs, builds, woken), runs, host: { maxBuilds: 4 } });
    const token = await served.token({ sub: "alice", scope: "mcp:read" });
    const url = (query: string) => new URL(`/mcp?${query}`, served.baseUrl);
    const list = modernBody("tools/list");
    const first = await raw({ url: url("only=t0"), method: "POST", headers: { ...modernHeaders("tools/list"), ...bearer(token) }, body: list });
    assert.equal(first.status, 200, first.text);
    assert.deepEqual(builds, ["t0"], "the authenticated caller's build ran onServer once");

    const forged = `${token.slice(0, -8)}AAAAAAAA`;
    for (const attack of attacks(forged)) {
      const answer = await raw({ url: url(attack.query), method: "POST", headers: { ...modernHeaders("tools/list"), ...attack.headers }, body: list });
      assert.ok(answer.status === 401 || answer.status === 400, `${attack.label}: ${answer.status} ${answer.text}`);
    }
    assert.deepEqual(builds, ["t0"], "no anonymous request made a build: no onServer hook ran");
    assert.deepEqual(woken, [], "no anonymous request woke a dormant extension");

    const again = await raw({ url: url("only=t0"), method: "POST", headers: { ...modernHeaders("tools/list"), ...bearer(token) }, body: list });
    assert.equal(again.status, 200, again.text);
    assert.deepEqual(builds, ["t0"], "the authenticated caller's build was still cached: nothing evicted it");
    assert.deepEqual(runs, [], "no tool ran");
  });

  it("answers a caller over its rate without building", async () => {
    const builds: string[] = [];
    const runs: Runs = [];
    const served = await file.serve({
      extensions: countedExtensions(runs, builds, []),
      runs,
      http: { callerRequestsPerSecond: 1, callerBurst: 1 },
    });
    const token = await served.token({ sub: "bob", scope: "mcp:read" });
    const headers = { ...modernHeaders("tools/list"), ...bearer(token) };
    const first = await raw({ url: new URL("/mcp?only=t1", served.baseUrl), method: "POST", headers, body: modernBody("tools/list") });
    assert.equal(first.status, 200, first.text);
    for (const query of ["only=t2", "only=t3", "only=t4"]) {
      const refused = await raw({ url: new URL(`/mcp?${query}`, served.baseUrl), method: "POST", headers, body: modernBody("tools/list") });
      assert.equal(refused.status, 429, refused.text);
    }
    assert.deepEqual(builds, ["t1"], "requests over the rate built nothing");
  });
});
