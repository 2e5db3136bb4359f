// A legacy session whose client keeps its GET stream open is listening, not idle (docs/design.md §16, issue 11
// build 6): the idle TTL does not expire it while the stream is open; the stream itself is ended after
// http.streamMaxAgeMs (so nothing is held forever), and from then on the idle TTL counts again. On a manual clock.
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { request, type IncomingMessage } from "node:http";
import type { McpExtension } from "../../src/extension/types.js";
import { Cleanup, LEGACY_POST_HEADERS, raw, rawLegacyInitialize, rawLegacyToolsList, serveHost } from "../helpers/http-host.js";
import { ManualClock } from "../helpers/manual-clock.js";

const notes: McpExtension = {
  name: "notes",
  toolsets: [{ name: "notes" }],
  tools: [{ name: "count", handler: () => ({ content: [{ type: "text", text: "3 notes" }] }) }],
};

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

/** Opens the session's GET stream; resolves once its 200 headers arrived, with a promise of its end. */
function openStream(url: URL, sessionId: string): Promise<{ response: IncomingMessage; ended: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: "GET", agent: false, headers: { accept: "text/event-stream", "mcp-session-id": sessionId, "mcp-protocol-version": "2025-11-25" } },
      (response) => {
        response.resume();
        const ended = new Promise<void>((done) => response.once("close", () => done()));
        resolve({ response, ended });
      },
    );
    req.on("error", reject);
    cleanup.add(() => req.destroy());
    req.end();
  });
}

async function initializedSession(url: URL): Promise<string> {
  const sessionId = String((await rawLegacyInitialize(url)).headers["mcp-session-id"]);
  const initialized = await raw({
    url,
    method: "POST",
    headers: { ...LEGACY_POST_HEADERS, "mcp-session-id": sessionId, "mcp-protocol-version": "2025-11-25" },
    body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
  });
  assert.equal(initialized.status, 202);
  return sessionId;
}

describe("a legacy session with an open GET stream", { timeout: 30_000 }, () => {
  it("is kept past the idle TTL while the stream is open, and expires once the stream has ended", async () => {
    const clock = new ManualClock();
    const { url, served } = await serveHost(cleanup, [notes], { http: { clock, sessionIdleTtlMs: 60_000, streamMaxAgeMs: 600_000 } });
    const listening = await initializedSession(url);
    const quiet = await initializedSession(url);
    const stream = await openStream(url, listening);
    assert.equal(stream.response.statusCode, 200);
    const sessions = served.hostApp.endpoints.sessions;
    assert.equal(sessions.size, 2);

    // Five idle TTLs later: the quiet session is gone, the listening one is not.
    await clock.advance(300_000);
    assert.equal(sessions.size, 1);
    assert.ok(sessions.get(listening));
    assert.equal((await rawLegacyToolsList(url, quiet)).status, 404);
    assert.equal((await rawLegacyToolsList(url, listening)).json.result.tools[0].name, "count");

    // Past the stream's own bound, the server ends the stream (the client would reconnect)…
    await clock.advance(301_000 + 30_000);
    await stream.ended;
    assert.ok(sessions.get(listening), "ending the stream does not end the session");
    // …and with no stream and no traffic, the idle TTL ends the session.
    await clock.advance(91_000);
    assert.equal(sessions.size, 0);
    assert.equal((await rawLegacyToolsList(url, listening)).status, 404);
  });
});
