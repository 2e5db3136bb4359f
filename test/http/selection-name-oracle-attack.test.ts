// No name oracle (issue 30 finding 4, docs/security.md): a narrow token cannot tell which tool names exist in toolsets
// it may not reach. A `tools=` pick that reaches only such toolsets is answered exactly like a name nobody offers —
// in `unknown` on /toolsets and in list_server_toolsets, in what tools/list serves, and under `selection.strict` with
// the same status and message — in every view and from the X-MCP-Tools header too. With
// `auth.onInsufficientScope: omit`, a guarded toolset the selection names is likewise as unknown as one nobody
// declared. Before the fix a forbidden pick was dropped silently while a missing one was reported (strict: 200
// against 400).
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { authTestFile, bearer, type AuthHost } from "../helpers/auth-host.js";
import { modernBody, modernHeaders, raw } from "../helpers/http-host.js";

const file = authTestFile();

/** A forbidden name (it exists, in the guarded `admin` toolset) and a name nobody offers, written the same way. */
interface Pair {
  label: string;
  query: (name: string) => string;
  headers?: (name: string) => Record<string, string>;
  forbidden: string;
  missing: string;
}

const PICKS: Pair[] = [
  { label: "dotted", query: (n) => `only=notes&tools=${n}`, forbidden: "admin.wipe", missing: "admin.nosuch" },
  { label: "qualified", query: (n) => `only=notes&tools=${n}`, forbidden: "admin__wipe", missing: "admin__nosuch" },
  { label: "raw", query: (n) => `only=notes&tools=${n}`, forbidden: "wipe", missing: "wype" },
  { label: "tools alone", query: (n) => `tools=${n}`, forbidden: "admin.wipe", missing: "admin.nosuch" },
  { label: "read-only", query: (n) => `only=notes&tools=${n}&readonly`, forbidden: "admin.wipe", missing: "admin.nosuch" },
  { label: "search", query: (n) => `only=notes&tools=${n}&search`, forbidden: "admin.wipe", missing: "admin.nosuch" },
  {
    label: "header",
    query: () => "",
    headers: (n) => ({ "x-mcp-tools": n, "x-mcp-toolsets": "only=notes" }),
    forbidden: "admin.wipe",
    missing: "admin.nosuch",
  },
];

/** What a caller sees of one selection: /toolsets, tools/list, list_server_toolsets — as text, the name swapped out. */
async function seen(served: AuthHost, token: string, pair: Pair, name: string): Promise<string> {
  const query = pair.query(name);
  const extra = pair.headers?.(name) ?? {};
  const auth = { ...bearer(token), ...extra };
  const toolsets = await raw({ url: new URL(`/toolsets?${query}`, served.baseUrl), headers: auth });
  const url = new URL(`/mcp?${query}`, served.baseUrl);
  const list = await raw({ url, method: "POST", headers: { ...modernHeaders("tools/list"), ...auth }, body: modernBody("tools/list") });
  const described = await raw({
    url,
    method: "POST",
    headers: { ...modernHeaders("tools/call", "list_server_toolsets"), ...auth },
    body: modernBody("tools/call", { name: "list_server_toolsets", arguments: {} }),
  });
  const answers = { toolsets: [toolsets.status, toolsets.json], list: [list.status, list.json], described: [described.status, described.json] };
  return JSON.stringify(answers).split(name).join("<NAME>");
}

async function assertNoOracle(served: AuthHost, pairs: readonly Pair[]): Promise<void> {
  const token = await served.token({ sub: "narrow", scope: "mcp:read" });
  for (const pair of pairs) {
    const forbidden = await seen(served, token, pair, pair.forbidden);
    const missing = await seen(served, token, pair, pair.missing);
    assert.equal(forbidden, missing, `${pair.label}: a forbidden name must be answered like a missing one`);
  }
  assert.deepEqual(served.runs, [], "no admin tool ran");
}

describe("no name oracle for a narrow token", { timeout: 120_000 }, () => {
  it("reports a pick into a toolset the token does not reach exactly like a name nobody offers", async () => {
    const served = await file.serve();
    await assertNoOracle(served, PICKS);
    // And it is reported: the missing name is in unknown (so the equality above is not two empty answers).
    const token = await served.token({ sub: "narrow", scope: "mcp:read" });
    const toolsets = await raw({ url: new URL("/toolsets?only=notes&tools=admin.wipe", served.baseUrl), headers: bearer(token) });
    assert.deepEqual(toolsets.json.unknown, ["tools=admin.wipe"]);
  });

  it("refuses both with the same 400 under selection.strict", async () => {
    const served = await file.serve({ http: { selection: { strict: true } } });
    await assertNoOracle(served, PICKS);
    const token = await served.token({ sub: "narrow", scope: "mcp:read" });
    const refused = await raw({
      url: new URL("/mcp?only=notes&tools=admin.wipe", served.baseUrl),
      method: "POST",
      headers: { ...modernHeaders("tools/list"), ...bearer(token) },
      body: modernBody("tools/list"),
    });
    assert.equal(refused.status, 400, refused.text);
    assert.equal(refused.text.includes('"admin"'), false, "the refusal does not list the guarded toolset among the declared ones");
  });

  it("with onInsufficientScope: omit, answers a named guarded toolset like one nobody declared", async () => {
    const pairs: Pair[] = [
      { label: "named", query: (n) => `notes&${n}`, forbidden: "admin", missing: "admon" },
      { label: "only", query: (n) => `only=notes,${n}`, forbidden: "admin", missing: "admon" },
      { label: "toolsets=", query: (n) => `toolsets=${n}`, forbidden: "admin", missing: "admon" },
    ];
    await assertNoOracle(await file.serve({ auth: { onInsufficientScope: "omit" } }), pairs);
    await assertNoOracle(await file.serve({ auth: { onInsufficientScope: "omit" }, http: { selection: { strict: true } } }), pairs);
  });
});
