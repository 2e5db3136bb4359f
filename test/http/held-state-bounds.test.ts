// Everything a client can make the host keep is bounded, per client (issue 17 class 3, docs/design.md §16): a
// legacy session's resource subscriptions and a listen stream's are capped in count and URI length and limited to
// URIs the selection serves; one caller holds at most its share of the legacy sessions and of the listen streams,
// so it cannot lock every other caller out of the session table (for the 30 minutes an idle session lives) or of
// the streams. Callers are told apart by address here (127.0.0.1 and 127.0.0.2 are both loopback).
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { request as httpRequest } from "node:http";
import type { McpExtension } from "../../src/extension/types.js";
import { Cleanup, LEGACY_POST_HEADERS, legacyBody, legacyInitialize, modernBody, modernHeaders, serveHost, type RawResponse } from "../helpers/http-host.js";
import { defined } from "../../src/defined.js";

const notes: McpExtension = {
  name: "notes",
  toolsets: [{ name: "notes" }],
  resources: [{ uri: "note://readme", name: "readme", read: () => ({ contents: [{ uri: "note://readme", text: "hi" }] }) }],
  resourceTemplates: [{ uriTemplate: "note://{id}", name: "note", read: (uri) => ({ contents: [{ uri, text: uri }] }) }],
  tools: [{ name: "echo", handler: () => ({ content: [{ type: "text", text: "ok" }] }) }],
};

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

/** One request from `from` (a loopback address), read to its end. */
function send(url: URL, from: string, headers: Record<string, string>, body: string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, path: `${url.pathname}${url.search}`, method: "POST", headers, localAddress: from, agent: false },
      (res) => {
        let text = "";
        res.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
        res.on("end", () => {
          const data = text.startsWith("{")
            ? text
            : (text
                .split("\n")
                .find((l) => l.startsWith("data: "))
                ?.slice(6) ?? "null");
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: JSON.parse(data) });
        });
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** A 2025-era session opened by `from`; its id, or the refusal. */
async function openSession(url: URL, from: string): Promise<{ id?: string; answer: RawResponse }> {
  const answer = await send(url, from, { ...LEGACY_POST_HEADERS }, legacyInitialize());
  const id = answer.headers["mcp-session-id"];
  return { ...(typeof id === "string" ? { id } : {}), answer };
}

/** A modern `subscriptions/listen` stream from `from`: its status, and (when it opened) how to end it. */
function openListen(url: URL, from: string, resourceSubscriptions?: string[]): Promise<{ status: number; first: string; close(): void }> {
  return new Promise((resolve, reject) => {
    const notifications = { toolsListChanged: true, ...defined({ resourceSubscriptions }) };
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: `${url.pathname}${url.search}`,
        method: "POST",
        headers: modernHeaders("subscriptions/listen"),
        localAddress: from,
        agent: false,
      },
      (res) => {
        res.once("data", (chunk: Buffer) => resolve({ status: res.statusCode ?? 0, first: chunk.toString("utf8"), close: () => req.destroy() }));
        res.on("error", () => {});
      },
    );
    req.on("error", (error) => (req.destroyed ? undefined : reject(error)));
    req.end(modernBody("subscriptions/listen", { notifications }));
  });
}

describe("resource subscriptions are bounded and limited to what the selection serves", { timeout: 60_000 }, () => {
  it("refuses a legacy session's subscription past the cap, to a URI too long, or to one nothing serves", async () => {
    const { at } = await serveHost(cleanup, [notes], { http: { maxSubscriptionsPerSession: 5, maxSubscriptionUriLength: 64 } });
    const url = at("only=notes");
    const { id } = await openSession(url, "127.0.0.1");
    assert.ok(id);
    const subscribe = (uri: unknown, n: number) =>
      send(
        url,
        "127.0.0.1",
        { ...LEGACY_POST_HEADERS, "mcp-session-id": id, "mcp-protocol-version": "2025-11-25" },
        legacyBody("resources/subscribe", { uri }, n),
      );
    for (let i = 0; i < 5; i++) assert.deepEqual((await subscribe(`note://n${i}`, 10 + i)).json.result, {}, `subscription ${i}`);
    assert.deepEqual((await subscribe("note://n0", 20)).json.result, {}, "a repeat is no new subscription");
    const refusals: Array<[unknown, RegExp]> = [
      ["note://n5", /at most 5 URIs/],
      ["note://readme", /at most 5 URIs/],
      [`note://${"x".repeat(100)}`, /at most 5 URIs|too long/],
    ];
    for (const [i, [uri, message]] of refusals.entries()) {
      const answer = await subscribe(uri, 30 + i);
      assert.equal(answer.json.error?.code, -32602, `${String(uri).slice(0, 20)}: ${answer.text}`);
      assert.match(answer.json.error.message, message);
    }
    // With room again: what is too long, or served by nothing, is still refused.
    await send(
      url,
      "127.0.0.1",
      { ...LEGACY_POST_HEADERS, "mcp-session-id": id, "mcp-protocol-version": "2025-11-25" },
      legacyBody("resources/unsubscribe", { uri: "note://n1" }, 40),
    );
    for (const [i, [uri, message]] of (
      [
        [`note://${"x".repeat(100)}`, /too long/],
        ["other://x", /does not serve/],
        ["file:///etc/passwd", /does not serve/],
        ["", /does not serve/],
      ] as const
    ).entries()) {
      const answer = await subscribe(uri, 50 + i);
      assert.equal(answer.json.error?.code, -32602, `${uri.slice(0, 20)}: ${answer.text}`);
      assert.match(answer.json.error.message, message);
    }
    assert.deepEqual((await subscribe("note://readme", 60)).json.result, {}, "a listed resource may be followed");
  });

  it("refuses a listen stream whose resource subscriptions are too many, too long or not served", async () => {
    const { at } = await serveHost(cleanup, [notes], { http: { maxSubscriptionsPerSession: 5, maxSubscriptionUriLength: 64 } });
    const url = at("only=notes");
    const family: Array<[string[], RegExp]> = [
      [Array.from({ length: 6 }, (_, i) => `note://n${i}`), /at most 5 URIs/],
      [Array.from({ length: 500 }, (_, i) => `note://n${i}`), /at most 5 URIs/],
      [[`note://${"x".repeat(100)}`], /too long/],
      [["other://x"], /does not serve/],
      [["note://a", "https://elsewhere.example/x"], /does not serve/],
    ];
    for (const [uris, message] of family) {
      const stream = await openListen(url, "127.0.0.1", uris);
      stream.close();
      const answer = JSON.parse(
        stream.first.startsWith("{")
          ? stream.first
          : (stream.first
              .split("\n")
              .find((l) => l.startsWith("data: "))
              ?.slice(6) ?? "{}"),
      );
      assert.equal(answer.error?.code, -32602, `${uris.length} URIs: ${stream.first.slice(0, 200)}`);
      assert.match(answer.error.message, message);
    }
    const fine = await openListen(url, "127.0.0.1", ["note://a", "note://readme"]);
    fine.close();
    assert.match(fine.first, /subscriptions\/acknowledged/);
  });
});

describe("one caller's share of what every caller shares", { timeout: 60_000 }, () => {
  it("holds one caller to its share of the legacy sessions, so another caller still gets one", async () => {
    const { at } = await serveHost(cleanup, [notes], { http: { maxSessions: 12, maxSessionsPerCaller: 4 } });
    const url = at("only=notes");
    const opened: string[] = [];
    let refused: RawResponse | undefined;
    for (let i = 0; i < 12 && refused === undefined; i++) {
      const { id, answer } = await openSession(url, "127.0.0.1");
      if (id === undefined) refused = answer;
      else opened.push(id);
    }
    assert.equal(opened.length, 4, "the greedy caller got its share and no more");
    assert.equal(refused?.status, 429);
    assert.match(refused?.json.error.message, /one caller may hold 4 legacy \(2025\) sessions at once \(http\.maxSessionsPerCaller\)/);
    assert.equal(refused?.headers["retry-after"], "30");
    for (const other of ["127.0.0.2", "127.0.0.3"]) assert.ok((await openSession(url, other)).id, `${other} still gets a session`);
    // Ending one of its sessions gives the first caller room again.
    const ended = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        {
          host: url.hostname,
          port: url.port,
          path: `${url.pathname}${url.search}`,
          method: "DELETE",
          headers: { "mcp-session-id": opened[0]!, "mcp-protocol-version": "2025-11-25" },
          localAddress: "127.0.0.1",
          agent: false,
        },
        (res) => {
          res.resume();
          res.on("end", () => resolve(res.statusCode ?? 0));
        },
      );
      req.on("error", reject);
      req.end();
    });
    assert.equal(ended, 200);
    assert.ok((await openSession(url, "127.0.0.1")).id, "room again after DELETE");
  });

  it("sizes an unset share by its table: with maxSessions 20, one caller gets 10 and another still opens one", async () => {
    // Issue 26 part 3: the share's absolute default (100) is more than the whole table; before, one caller took all
    // 20 sessions and another caller's initialize got 503.
    const { at } = await serveHost(cleanup, [notes], { http: { maxSessions: 20 } });
    const url = at("only=notes");
    const opened: string[] = [];
    let refused: RawResponse | undefined;
    for (let i = 0; i < 20 && refused === undefined; i++) {
      const { id, answer } = await openSession(url, "127.0.0.1");
      if (id === undefined) refused = answer;
      else opened.push(id);
    }
    assert.equal(opened.length, 10, "the greedy caller got half the table");
    assert.equal(refused?.status, 429);
    assert.match(refused?.json.error.message, /one caller may hold 10 legacy \(2025\) sessions at once \(http\.maxSessionsPerCaller\)/);
    const other = await openSession(url, "127.0.0.2");
    assert.equal(other.answer.status, 200, JSON.stringify(other.answer.json));
    assert.ok(other.id, "another caller still opens a session");
  });

  it("sizes the listen-stream share by the connection table: with maxConnections 8, one caller holds 4", async () => {
    const { at } = await serveHost(cleanup, [notes], { http: { maxConnections: 8, maxConnectionsPerAddress: 8 } });
    const url = at("only=notes");
    const streams: Array<{ close(): void }> = [];
    cleanup.add(() => {
      for (const s of streams) s.close();
    });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const stream = await openListen(url, "127.0.0.1");
      streams.push(stream);
      statuses.push(stream.status);
    }
    assert.deepEqual(statuses, [200, 200, 200, 200, 429]);
    const other = await openListen(url, "127.0.0.2");
    streams.push(other);
    assert.equal(other.status, 200, "another caller still listens");
  });

  it("holds one caller to its share of the listen streams, so another caller still gets one", async () => {
    const { at } = await serveHost(cleanup, [notes], { http: { maxListenStreamsPerCaller: 3 } });
    const url = at("only=notes");
    const streams: Array<{ close(): void }> = [];
    cleanup.add(() => {
      for (const s of streams) s.close();
    });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const stream = await openListen(url, "127.0.0.1");
      streams.push(stream);
      statuses.push(stream.status);
    }
    assert.deepEqual(statuses, [200, 200, 200, 429, 429, 429]);
    const other = await openListen(url, "127.0.0.2");
    streams.push(other);
    assert.equal(other.status, 200, "another caller still listens");
    streams[0]!.close();
    // The closed stream's share comes back once the server has seen it close; a modern call meanwhile is unaffected.
    let reopened = 429;
    for (let i = 0; i < 50 && reopened === 429; i++) {
      const stream = await openListen(url, "127.0.0.1");
      streams.push(stream);
      reopened = stream.status;
    }
    assert.equal(reopened, 200);
    const call = await send(url, "127.0.0.1", modernHeaders("tools/call", "echo"), modernBody("tools/call", { name: "echo", arguments: {} }));
    assert.equal(call.status, 200);
  });
});
