// A flood of legacy sessions against the real `mcp-host serve` (docs/design.md §16): beyond http.maxSessions a new
// session is refused with 503 and a message saying why (the documented answer, HTTP_SESSION_LIMIT), the sessions
// already open keep working, modern clients are not affected, and ending sessions makes room again.
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { Cleanup } from "../helpers/cleanup.js";
import { endSession, messageOf, modernCall, openSession, sessionCall } from "./kit/mcp-requests.js";
import { figure, histogram, mib } from "./kit/report.js";
import { scaled } from "./kit/scale.js";
import { serveCli } from "./kit/served.js";

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

const MAX_SESSIONS = scaled(200, 2_000);

describe("a flood of legacy sessions", { timeout: 300_000 }, () => {
  it(`holds exactly http.maxSessions (${MAX_SESSIONS}), refuses the rest with 503, and makes room as sessions end`, async () => {
    // One client opens every session here, so its share is the whole table (the share itself: test/http/held-state-bounds).
    const served = await serveCli(cleanup, `http:\n  maxSessions: ${MAX_SESSIONS}\n  maxSessionsPerCaller: ${MAX_SESSIONS}\n`);
    const rssBefore = served.rss();
    const statuses = new Map<number, number>();
    const opened: string[] = [];
    const attempts = MAX_SESSIONS + Math.ceil(MAX_SESSIONS / 4);
    for (let batch = 0; batch < attempts; batch += 25) {
      const results = await Promise.all(Array.from({ length: Math.min(25, attempts - batch) }, () => openSession(served.url)));
      for (const { id, response } of results) {
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        if (id !== undefined) opened.push(id);
        else {
          assert.equal(response.headers.get("retry-after"), "30");
          const refusal = await messageOf(response);
          assert.match(refusal.error.message, new RegExp(`^Too many sessions: this server holds at most ${MAX_SESSIONS} legacy \\(2025\\) sessions`));
        }
      }
    }
    figure("session flood", `${attempts} initialize requests: ${histogram(new Map([...statuses].map(([s, n]) => [String(s), n])))}`);
    assert.deepEqual(Object.fromEntries(statuses), { 200: MAX_SESSIONS, 503: attempts - MAX_SESSIONS });

    // The open sessions still work; a modern client was never affected.
    const first = await messageOf(await sessionCall(served.url, opened[0]!, "echo", { text: "still here" }));
    assert.deepEqual(first.result.content, [{ type: "text", text: "echo: still here" }]);
    const modern = await messageOf(await modernCall(served.url, "echo", { text: "modern" }));
    assert.deepEqual(modern.result.content, [{ type: "text", text: "echo: modern" }]);

    // Ending ten sessions makes room for ten, and no more.
    for (const id of opened.splice(0, 10)) assert.equal(await endSession(served.url, id), 200);
    const again = await Promise.all(Array.from({ length: 11 }, () => openSession(served.url)));
    assert.deepEqual(again.map((r) => r.response.status).sort(), [...Array(10).fill(200), 503]);
    figure("session flood", `server RSS with ${MAX_SESSIONS} sessions open: ${mib(served.rss())} (before: ${mib(rssBefore)})`);
    assert.ok(served.alive());
  });
});
