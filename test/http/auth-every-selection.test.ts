// Every selection is guarded once auth is on (docs/design.md §7, §9; issue 9 item 2): whatever the URL or header
// selects (default, ?only=, ?a&b, unknown names, X-MCP-Toolsets, trailing slash, case), whatever the era and the
// method (POST, GET, DELETE, modern subscriptions/listen, legacy session GET streams), a request without a valid
// token gets 401 and reaches nothing — no tool runs, no dormant extension wakes. A legacy session id is no
// credential: without the token, its requests are refused too and the session is untouched. And a build's
// `server` mounted outside the app still verifies the token and the caller's toolsets.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import type { AddressInfo } from "node:net";
import express from "express";
import type { McpExtension } from "../../src/extension/types.js";
import { parseSelection } from "../../src/host/selection.js";
import { authTestFile, AUDIENCE, authExtensions, bearer, type Runs } from "../helpers/auth-host.js";
import { LEGACY_POST_HEADERS, legacyInitialize, raw, rawLegacyInitialize, legacyBody, modernBody, modernHeaders } from "../helpers/http-host.js";

const file = authTestFile();
const { cleanup, watch } = file;

/** authExtensions plus a dormant one whose setup must not run for a caller without a token. */
function withDormant(runs: Runs, setups: string[]): McpExtension[] {
  return [
    ...authExtensions(runs),
    {
      name: "sleepy",
      activation: "onToolset",
      toolsets: [{ name: "sleepy", default: false }],
      setup: () => {
        setups.push("sleepy");
      },
      tools: [{ name: "nap", handler: () => ({ content: [{ type: "text", text: "zzz" }] }) }],
    },
  ];
}

describe("with auth on, every selection is guarded", { timeout: 60_000 }, () => {
  it("answers 401 to every selection, era and method without a valid token; nothing runs, nothing wakes", async () => {
    const runs: Runs = [];
    const setups: string[] = [];
    const served = await file.serve({ extensions: withDormant(runs, setups), runs });
    const expired = await served.token({ exp: Math.floor(Date.now() / 1000) - 3600 });
    const otherAudience = await served.token({ aud: "https://other.example/mcp" });
    const credentials: Record<string, Record<string, string>> = {
      "no token": {},
      "Basic scheme": { authorization: "Basic dXNlcjpwYXNz" },
      "not a JWT": bearer(watch.track("not-a-jwt")),
      expired: bearer(expired),
      "another audience": bearer(otherAudience),
    };
    const targets: Array<[string, string, Record<string, string>]> = [
      ["default", "/mcp", {}],
      ["?only=notes", "/mcp?only=notes", {}],
      ["?admin", "/mcp?admin", {}],
      ["?notes&extra", "/mcp?notes&extra", {}],
      ["?sleepy", "/mcp?sleepy", {}],
      ["?nosuch", "/mcp?nosuch", {}],
      ["?only=", "/mcp?only=", {}],
      ["X-MCP-Toolsets", "/mcp", { "x-mcp-toolsets": "only=admin" }],
      ["trailing slash", "/mcp/?only=admin", {}],
      ["case", "/MCP?only=admin", {}],
    ];
    const requests: Array<[string, string, Record<string, string>, string | undefined]> = [
      ["legacy initialize", "POST", LEGACY_POST_HEADERS, legacyInitialize()],
      ["legacy tools/call on a made-up session", "POST", { ...LEGACY_POST_HEADERS, "mcp-session-id": "x" }, legacyBody("tools/call", { name: "wipe" })],
      ["modern tools/call", "POST", modernHeaders("tools/call", "wipe"), modernBody("tools/call", { name: "wipe", arguments: {} })],
      [
        "modern subscriptions/listen",
        "POST",
        modernHeaders("subscriptions/listen"),
        modernBody("subscriptions/listen", { notifications: { toolsListChanged: true } }),
      ],
      ["legacy GET stream", "GET", { accept: "text/event-stream", "mcp-session-id": "x" }, undefined],
      ["GET without a session", "GET", { accept: "text/event-stream" }, undefined],
      ["DELETE", "DELETE", { "mcp-session-id": "x" }, undefined],
    ];
    const statuses: Record<string, number> = {};
    for (const [credential, auth] of Object.entries(credentials)) {
      for (const [target, path, extra] of targets) {
        for (const [request, method, headers, body] of requests) {
          const label = `${credential} | ${target} | ${request}`;
          const response = await raw({ url: new URL(path, served.baseUrl), method, headers: { ...headers, ...extra, ...auth }, ...(body ? { body } : {}) });
          statuses[label] = response.status;
          if (response.status !== 401) continue;
          assert.match(String(response.headers["www-authenticate"]), /^Bearer /, label);
          assert.equal(response.json.error.code, -32000, label);
          assert.match(response.json.error.message, /^Unauthorized: /, label);
        }
      }
    }
    const expected = Object.fromEntries(Object.keys(statuses).map((label) => [label, 401]));
    assert.deepEqual(statuses, expected);
    assert.deepEqual(runs, [], "no tool ran");
    assert.deepEqual(setups, [], "no dormant extension was woken by a caller without a token");
    assert.equal(served.served.hostApp.endpoints.sessions.size, 0, "no session was opened");
  });

  it("does not take a legacy session id as a credential: without the token its requests are refused and the session is untouched", async () => {
    const served = await file.serve();
    const token = await served.token({ sub: "alice" });
    const url = new URL("/mcp?only=notes", served.baseUrl);
    const opened = await rawLegacyInitialize(url, bearer(token));
    assert.equal(opened.status, 200, opened.text);
    const session = String(opened.headers["mcp-session-id"]);
    const onSession = { ...LEGACY_POST_HEADERS, "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" };
    const call = legacyBody("tools/call", { name: "read_note", arguments: {} });
    for (const [label, auth] of Object.entries({ "no token": {}, "an invalid token": bearer(watch.track("garbage.token.value")) })) {
      const post = await raw({ url, method: "POST", headers: { ...onSession, ...auth }, body: call });
      const stream = await raw({ url, method: "GET", headers: { accept: "text/event-stream", "mcp-session-id": session, ...auth } });
      const end = await raw({ url, method: "DELETE", headers: { "mcp-session-id": session, ...auth } });
      assert.deepEqual([post.status, stream.status, end.status], [401, 401, 401], label);
    }
    assert.deepEqual(served.runs, []);
    assert.equal(served.served.hostApp.endpoints.sessions.size, 1, "the session survived the DELETE without a token");
    const allowed = await raw({ url, method: "POST", headers: { ...onSession, ...bearer(token) }, body: call });
    assert.equal(allowed.status, 200, allowed.text);
    assert.deepEqual(allowed.json.result.content, [{ type: "text", text: "a note" }]);
    assert.deepEqual(served.runs, ["notes/read_note alice"]);
  });

  it("guards a build's server mounted outside the app: the token is verified and the build's toolsets must be the caller's", async () => {
    const served = await file.serve();
    const built = await served.host.build(parseSelection("only=admin"));
    assert.deepEqual(built.toolsets, ["admin"]);
    const elsewhere = express();
    elsewhere.use(express.json());
    elsewhere.all("/raw", (req, res, next) => void built.server(req, res, next));
    const server = elsewhere.listen(0, "127.0.0.1");
    await new Promise<void>((resolve) => server.once("listening", () => resolve()));
    cleanup.add(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/raw`);
    const call = { method: "POST", headers: modernHeaders("tools/call", "wipe"), body: modernBody("tools/call", { name: "wipe", arguments: {} }) };
    const anonymous = await raw({ url, ...call });
    assert.equal(anonymous.status, 401);
    const reader = await raw({ url, ...call, headers: { ...call.headers, ...bearer(await served.token({ scope: "mcp:read" })) } });
    assert.equal(reader.status, 403);
    assert.equal(
      reader.headers["www-authenticate"]?.toString().startsWith('Bearer error="insufficient_scope"'),
      true,
      String(reader.headers["www-authenticate"]),
    );
    assert.match(String(reader.headers["www-authenticate"]), /scope="mcp:read mcp:admin"/);
    assert.deepEqual(served.runs, []);
    const admin = await raw({ url, ...call, headers: { ...call.headers, ...bearer(await served.token({ sub: "root", scope: "mcp:read mcp:admin" })) } });
    assert.equal(admin.status, 200, admin.text);
    assert.deepEqual(served.runs, ["admin/wipe root"]);
    assert.equal(AUDIENCE, "urn:test:mcp");
  });

  it("keeps a mounted build's view under auth: its single tools are served to a caller who may reach them, and only to them", async () => {
    const served = await file.serve();
    const built = await served.host.build(parseSelection("only=notes&tools=wipe"));
    const elsewhere = express();
    elsewhere.use(express.json());
    elsewhere.all("/raw", (req, res, next) => void built.server(req, res, next));
    const server = elsewhere.listen(0, "127.0.0.1");
    await new Promise<void>((resolve) => server.once("listening", () => resolve()));
    cleanup.add(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/raw`);
    const listed = async (scope: string) => {
      const headers = { ...modernHeaders("tools/list"), ...bearer(await served.token({ scope })) };
      const answer = await raw({ url, method: "POST", headers, body: modernBody("tools/list", {}) });
      assert.equal(answer.status, 200, answer.text);
      return (answer.json.result.tools as Array<{ name: string }>).map((tool) => tool.name).sort();
    };
    assert.deepEqual(await listed("mcp:read mcp:admin"), ["list_server_toolsets", "read_note", "whoami", "wipe"]);
    assert.deepEqual(await listed("mcp:read"), ["list_server_toolsets", "read_note", "whoami"]);
  });
});
