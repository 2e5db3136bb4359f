// A legacy session is bound to the subject that opened it (docs/design.md §9; issue 9 item 3; the MCP security
// guidance on session hijacking): another subject's valid token on its Mcp-Session-Id gets exactly the answer an
// unknown session gets (404), for POST, GET and DELETE; nothing runs and the session lives on for its owner. A
// session also keeps the toolsets it was opened with.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { authTestFile, bearer } from "../helpers/auth-host.js";
import { callText, connectV2, LEGACY_POST_HEADERS, raw, rawLegacyInitialize, legacyBody } from "../helpers/http-host.js";

const file = authTestFile();
const { cleanup } = file;

const NOT_FOUND = {
  jsonrpc: "2.0",
  error: { code: -32001, message: "Session not found: it ended or expired. Start a new session with initialize (without an Mcp-Session-Id header)." },
  id: null,
};

describe("legacy sessions with auth on", { timeout: 60_000 }, () => {
  it("refuses another subject's token on a session as if the session did not exist, and runs nothing", async () => {
    const served = await file.serve();
    const alice = await served.token({ sub: "alice" });
    const mallory = await served.token({ sub: "mallory", scope: "mcp:read mcp:admin" });
    const url = new URL("/mcp?only=notes", served.baseUrl);
    const opened = await rawLegacyInitialize(url, bearer(alice));
    assert.equal(opened.status, 200, opened.text);
    const session = String(opened.headers["mcp-session-id"]);
    const onSession = { ...LEGACY_POST_HEADERS, "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" };
    const call = legacyBody("tools/call", { name: "read_note", arguments: {} });

    const post = await raw({ url, method: "POST", headers: { ...onSession, ...bearer(mallory) }, body: call });
    const stream = await raw({ url, method: "GET", headers: { accept: "text/event-stream", "mcp-session-id": session, ...bearer(mallory) } });
    const end = await raw({ url, method: "DELETE", headers: { "mcp-session-id": session, ...bearer(mallory) } });
    const unknown = await raw({ url, method: "POST", headers: { ...onSession, "mcp-session-id": "no-such-session", ...bearer(mallory) }, body: call });
    for (const [label, response] of Object.entries({ post, stream, end, unknown })) {
      assert.equal(response.status, 404, label);
      assert.deepEqual(response.json, NOT_FOUND, label);
    }
    assert.deepEqual(served.runs, [], "mallory's call did not run");
    assert.equal(served.served.hostApp.endpoints.sessions.size, 1, "mallory's DELETE did not end alice's session");
    const warning = served.records.find((r) => r.message.startsWith("a legacy session was presented by a caller other than the one that opened it"));
    assert.equal(warning?.level, "warn");
    assert.equal(JSON.stringify(warning).includes(session), false, "the log names the session by a prefix only");

    const own = await raw({ url, method: "POST", headers: { ...onSession, ...bearer(alice) }, body: call });
    assert.equal(own.status, 200, own.text);
    assert.deepEqual(served.runs, ["notes/read_note alice"]);
    const alsoAlice = await served.token({ sub: "alice", scope: "mcp:read", jti: "a-refreshed-token" });
    const refreshed = await raw({ url, method: "POST", headers: { ...onSession, ...bearer(alsoAlice) }, body: call });
    assert.equal(refreshed.status, 200, "a fresh token of the same subject keeps working on the session");
  });

  it("answers to each request's token: a later token that no longer reaches the session's toolsets is refused 403 and runs nothing", async () => {
    const served = await file.serve();
    const admin = await served.token({ sub: "root", scope: "mcp:read mcp:admin" });
    const client = await connectV2(cleanup, new URL("/mcp", served.baseUrl), "legacy", { headers: bearer(admin) });
    assert.equal(await callText(client.client, "wipe"), "wiped");
    // The same subject, its token now without mcp:admin: the session it opened serves admin, which this token lacks.
    const narrower = await served.token({ sub: "root", scope: "mcp:read" });
    const session = client.transport.sessionId!;
    const url = new URL("/mcp", served.baseUrl);
    const headers = { ...LEGACY_POST_HEADERS, "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" };
    for (const body of [legacyBody("tools/call", { name: "wipe", arguments: {} }), legacyBody("tools/list", {}), legacyBody("resources/list", {})]) {
      const refused = await raw({ url, method: "POST", headers: { ...headers, ...bearer(narrower) }, body });
      assert.equal(refused.status, 403, refused.text);
      const challenge = String(refused.headers["www-authenticate"] ?? "");
      assert.match(challenge, /^Bearer error="insufficient_scope"/);
      assert.match(challenge, /scope="[^"]*mcp:admin[^"]*"/, "the challenge names the scope to step up to");
    }
    assert.deepEqual(served.runs, ["admin/wipe root"], "nothing ran for the narrower token");
    // Stepped up again: the session goes on.
    const again = await raw({
      url,
      method: "POST",
      headers: { ...headers, ...bearer(admin) },
      body: legacyBody("tools/call", { name: "wipe", arguments: {} }),
    });
    assert.equal(again.status, 200, again.text);
    assert.deepEqual(served.runs, ["admin/wipe root", "admin/wipe root"]);
  });
});
