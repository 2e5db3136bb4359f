// A legacy session belongs to the selection it was opened on, its view included (issue 30 finding 7): a session opened
// on `?only=notes&readonly` and continued on `?only=notes` would serve the writing tools of a session opened read-only.
// The same rule holds with auth off and on — before the fix the session's key was the bare list of active toolsets
// when auth was on, and the view rode on it as a hidden property lost in the copy. Spellings of the same selection
// (`?notes,readonly&only=notes`) still reach it.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { authExtensions, authTestFile, bearer } from "../helpers/auth-host.js";
import { rawLegacyInitialize, raw, LEGACY_POST_HEADERS, legacyBody, serveHost } from "../helpers/http-host.js";

const file = authTestFile();

/** A view changed, as a request on the session names it: each must be refused. */
const OTHER_VIEWS = ["only=notes", "only=notes&search", "only=notes&tools=extra_tool", "only=notes&readonly&search=0", "only=notes&readonly&tools=extra_tool"];
/** The same selection, spelled otherwise: each must be served. */
const SAME_VIEW = ["only=notes&readonly", "readonly&only=notes", "only=notes,readonly", "only=notes&readonly=yes"];

async function sessionAnswers(baseUrl: URL, headers: Record<string, string>): Promise<Record<string, number>> {
  const opened = await rawLegacyInitialize(new URL("/mcp?only=notes&readonly", baseUrl), headers);
  assert.equal(opened.status, 200, opened.text);
  const session = String(opened.headers["mcp-session-id"]);
  const answers: Record<string, number> = {};
  for (const query of [...OTHER_VIEWS, ...SAME_VIEW]) {
    const answer = await raw({
      url: new URL(`/mcp?${query}`, baseUrl),
      method: "POST",
      headers: { ...LEGACY_POST_HEADERS, "mcp-session-id": session, "mcp-protocol-version": "2025-11-25", ...headers },
      body: legacyBody("tools/list"),
    });
    answers[query] = answer.status;
  }
  return answers;
}

const expected = Object.fromEntries([...OTHER_VIEWS.map((q) => [q, 400]), ...SAME_VIEW.map((q) => [q, 200])]);

describe("a legacy session keeps its view", { timeout: 60_000 }, () => {
  it("refuses a request that names the session's toolsets with another view, with auth off", async () => {
    const { served } = await serveHost(file.cleanup, authExtensions([]));
    assert.deepEqual(await sessionAnswers(served.baseUrl, {}), expected);
  });

  it("refuses a request that names the session's toolsets with another view, with auth on", async () => {
    const served = await file.serve();
    const token = await served.token({ sub: "alice", scope: "mcp:read" });
    assert.deepEqual(await sessionAnswers(served.baseUrl, bearer(token)), expected);
  });
});
