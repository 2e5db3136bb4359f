// Legacy (2025-era) serving (docs/design.md §8, issue 3 part 1): stateful by default — initialize issues an
// Mcp-Session-Id, DELETE ends the session (then 404), an idle session expires after the TTL, beyond maxSessions
// a new session gets 503 with a message — and the two other modes: `stateless` (no session, interactive
// requests refused cleanly) and `reject` (2025 clients cannot connect; modern clients still can).
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { inputRequired } from "@modelcontextprotocol/server";
import type { McpExtension } from "../../src/extension/types.js";
import {
  Cleanup,
  LEGACY_POST_HEADERS,
  callText,
  connectV1,
  connectV2,
  errorText,
  listedTools,
  raw,
  rawLegacyInitialize,
  rawLegacyToolsList,
  serveHost,
} from "../helpers/http-host.js";
import { ManualClock } from "../helpers/manual-clock.js";

const notes: McpExtension = {
  name: "notes",
  toolsets: [{ name: "notes" }, { name: "extra", default: false }],
  tools: [
    { name: "count", handler: () => ({ content: [{ type: "text", text: "3 notes" }] }) },
    {
      name: "ask_title",
      handler: () =>
        inputRequired({
          inputRequests: { title: inputRequired.elicit({ message: "Title?", requestedSchema: { type: "object", properties: { title: { type: "string" } } } }) },
        }),
    },
  ],
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const SESSION_NOT_FOUND = {
  jsonrpc: "2.0",
  id: null,
  error: { code: -32001, message: "Session not found: it ended or expired. Start a new session with initialize (without an Mcp-Session-Id header)." },
};

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

describe("legacy sessions (stateful, the default)", { timeout: 30_000 }, () => {
  it("issues an Mcp-Session-Id on initialize, serves requests on it, and ends it on DELETE (then 404)", async () => {
    const { at, served } = await serveHost(cleanup, [notes]);
    const url = at("only=notes");
    const init = await rawLegacyInitialize(url);
    assert.equal(init.status, 200);
    const sessionId = String(init.headers["mcp-session-id"]);
    assert.match(sessionId, UUID);
    assert.equal(init.json.result.protocolVersion, "2025-11-25");
    assert.equal(served.hostApp.endpoints.sessions.size, 1);

    const listed = await rawLegacyToolsList(url, sessionId);
    assert.equal(listed.status, 200);
    assert.deepEqual(
      listed.json.result.tools.map((t: { name: string }) => t.name),
      ["ask_title", "count", "list_server_toolsets"],
    );

    const ended = await raw({ url, method: "DELETE", headers: { "mcp-session-id": sessionId, "mcp-protocol-version": "2025-11-25" } });
    assert.equal(ended.status, 200);
    assert.equal(served.hostApp.endpoints.sessions.size, 0);
    const after = await rawLegacyToolsList(url, sessionId);
    assert.equal(after.status, 404);
    assert.deepEqual(after.json, SESSION_NOT_FOUND);
  });

  it("ends a real client's session when it terminates it; the client's next request fails", async () => {
    const { at, served } = await serveHost(cleanup, [notes]);
    const url = at("only=notes");
    const { client, transport } = await connectV1(cleanup, url);
    const sessionId = transport.sessionId!;
    assert.match(sessionId, UUID);
    assert.equal(await callText(client, "count"), "3 notes");
    await transport.terminateSession();
    assert.equal(served.hostApp.endpoints.sessions.size, 0);
    assert.equal((await rawLegacyToolsList(url, sessionId)).status, 404);
  });

  it("keeps a session on the selection it started on", async () => {
    const { at } = await serveHost(cleanup, [notes]);
    const sessionId = String((await rawLegacyInitialize(at("only=notes"))).headers["mcp-session-id"]);
    const elsewhere = await rawLegacyToolsList(at("notes&extra"), sessionId);
    assert.equal(elsewhere.status, 400);
    assert.match(elsewhere.json.error.message, /^This session was started on another selection of toolsets/);
    assert.equal((await rawLegacyToolsList(at("only=notes"), sessionId)).status, 200);
  });

  it("expires a session idle for longer than sessionIdleTtlMs, and only then", async () => {
    const ttl = 60_000;
    const clock = new ManualClock();
    const { at, served } = await serveHost(cleanup, [notes], { http: { sessionIdleTtlMs: ttl, clock } });
    const url = at("only=notes");
    // A raw client, so no GET stream opens while the clock moves (a stream's arrival would count as activity).
    const sessionId = String((await rawLegacyInitialize(url)).headers["mcp-session-id"]);
    const sessions = served.hostApp.endpoints.sessions;
    // The sweep runs every ttl/2 (30 s): at 30 s and 60 s the session is not idle for *more* than the TTL yet.
    await clock.advance(ttl);
    assert.equal(sessions.size, 1, "a session idle for exactly the TTL is kept");
    await clock.advance(ttl / 2);
    assert.equal(sessions.size, 0, "the sweep at 90 s closed it");
    const after = await rawLegacyToolsList(url, sessionId);
    assert.equal(after.status, 404);
    assert.deepEqual(after.json, SESSION_NOT_FOUND);
  });

  it("counts idle time from the session's last request, not from its start", async () => {
    const ttl = 60_000;
    const clock = new ManualClock();
    const { at, served } = await serveHost(cleanup, [notes], { http: { sessionIdleTtlMs: ttl, clock } });
    const url = at("only=notes");
    const sessionId = String((await rawLegacyInitialize(url)).headers["mcp-session-id"]);
    const sessions = served.hostApp.endpoints.sessions;
    await clock.advance(40_000);
    assert.equal((await rawLegacyToolsList(url, sessionId)).status, 200);
    // 80 s after its start the session would be expired if idle time counted from the start; it is 40 s idle.
    await clock.advance(40_000);
    assert.equal(sessions.size, 1);
    // The sweep at 120 s sees it idle for 80 s.
    await clock.advance(40_000);
    assert.equal(sessions.size, 0);
  });

  it("refuses a session beyond maxSessions with 503 and a message, serves modern clients meanwhile, and accepts one again after a DELETE", async () => {
    const { at, served } = await serveHost(cleanup, [notes], { http: { maxSessions: 1 } });
    const url = at("only=notes");
    const first = await rawLegacyInitialize(url);
    assert.equal(first.status, 200);
    const firstId = String(first.headers["mcp-session-id"]);

    const second = await rawLegacyInitialize(url);
    assert.equal(second.status, 503);
    assert.equal(second.headers["retry-after"], "30");
    assert.equal(second.headers["mcp-session-id"], undefined);
    assert.deepEqual(second.json, {
      jsonrpc: "2.0",
      id: null,
      error: {
        code: -32000,
        message: "Too many sessions: this server holds at most 1 legacy (2025) sessions. End unused ones with DELETE, or retry later.",
      },
    });
    await assert.rejects(connectV1(cleanup, url), /Too many sessions/);
    assert.equal(served.hostApp.endpoints.sessions.size, 1);

    const { client: modern } = await connectV2(cleanup, url, "modern");
    assert.equal(await callText(modern, "count"), "3 notes");

    assert.equal((await raw({ url, method: "DELETE", headers: { "mcp-session-id": firstId } })).status, 200);
    const third = await rawLegacyInitialize(url);
    assert.equal(third.status, 200);
    assert.match(String(third.headers["mcp-session-id"]), UUID);
  });
});

describe('legacy: "stateless"', { timeout: 30_000 }, () => {
  it("serves 2025 clients without a session and refuses elicitation cleanly", async () => {
    const { at, served } = await serveHost(cleanup, [notes], { http: { legacy: "stateless" } });
    const url = at("only=notes");
    const init = await rawLegacyInitialize(url);
    assert.equal(init.status, 200);
    assert.equal(init.headers["mcp-session-id"], undefined);

    const { client, transport } = await connectV1(cleanup, url, { capabilities: { elicitation: { form: {} } } });
    assert.equal(transport.sessionId, undefined);
    assert.deepEqual(await listedTools(client), ["ask_title", "count", "list_server_toolsets"]);
    assert.equal(await callText(client, "count"), "3 notes");
    assert.equal(
      errorText(await client.callTool({ name: "ask_title", arguments: {} })),
      "Cannot request input 'title' (elicitation/create): the client on this 2025-era connection did not declare the required capability (no client capabilities are available on this connection — per-request legacy serving cannot receive server-to-client requests)",
    );
    assert.equal(served.hostApp.endpoints.sessions.size, 0);
    const get = await raw({ url, method: "GET", headers: { accept: "text/event-stream", "mcp-protocol-version": "2025-11-25" } });
    assert.equal(get.status, 405);
  });
});

describe('legacy: "reject"', { timeout: 30_000 }, () => {
  it("refuses 2025 clients (initialize → -32022 naming the supported version) and serves modern clients", async () => {
    const { at } = await serveHost(cleanup, [notes], { http: { legacy: "reject" } });
    const url = at("only=notes");
    const init = await rawLegacyInitialize(url);
    assert.equal(init.status, 400);
    assert.equal(init.json.error.code, -32022);
    assert.deepEqual(init.json.error.data.supported, ["2026-07-28"]);
    await assert.rejects(connectV1(cleanup, url), /Unsupported protocol version/);
    await assert.rejects(connectV2(cleanup, url, "legacy"));

    const { client } = await connectV2(cleanup, url, "modern");
    assert.equal(await callText(client, "count"), "3 notes");
    const { client: auto } = await connectV2(cleanup, url, "auto");
    assert.equal(auto.getProtocolEra(), "modern");
    assert.deepEqual(await listedTools(auto), ["ask_title", "count", "list_server_toolsets"]);
    const stream = await raw({ url, method: "GET", headers: { accept: "text/event-stream", "mcp-session-id": "anything" } });
    assert.equal(stream.status, 405, "no 2025 session stream exists in reject mode");
    const sessionless = await raw({ url, method: "POST", headers: LEGACY_POST_HEADERS, body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/list" }) });
    assert.equal(sessionless.status, 400);
    assert.equal(sessionless.json.error.code, -32022);
  });
});
