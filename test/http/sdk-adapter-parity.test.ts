// One way into the SDK (docs/design.md §8): every MCP request reaches the SDK's own entry — createMcpHandler().fetch
// for 2026-07-28, the web-standard session transport for 2025 — through mcp-host's exchange (src/http/mcp/
// web-exchange.ts: the parsed body, no body copy, the exchange's own signal, a JSON answer in one write). This test
// pins that exchange against the installed SDK's own node adapters, not a list kept by hand: the same build is served
// through the host, and through a reference server that mounts the same per-request servers the way the SDK documents
// (`toNodeHandler(createMcpHandler(factory))` behind a JSON body parser; `NodeStreamableHTTPServerTransport` per
// 2025 session). For every request of a corpus that walks the SDK entry's ladder (plain calls and lists, every header
// mismatch, progress tokens, log levels, retries, batches, notifications, cursors, discovery…), the status, content
// type and body must be equal — and so must what a probe tool's handler saw: its era, its selection, its client's
// capabilities and envelope, the SDK context's HTTP request (URL, method, headers) and auth info. Whatever the SDK's
// adapters start doing that the exchange does not, or the other way round, fails here.
// The differential suite of the fast path (src/http/mcp/fast-path.ts, docs/design.md §8) rides on the same corpus: the
// host serves it with the fast path on (the default) and a second host with it forced off (`fastPath: false`, every
// request through the SDK's entry); the two must answer alike, and the requests the fast path took are pinned, so a
// guard that stops taking an ordinary request, or starts taking one the entry refuses, fails here too.
// test/http/fast-path-parity.test.ts covers what a corpus of single requests cannot (concurrency, tasks, leaving).
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import * as z from "zod";
import { NodeStreamableHTTPServerTransport, toNodeHandler } from "@modelcontextprotocol/node";
import { createMcpHandler } from "@modelcontextprotocol/server";
import { defineExtension, defineTool, inputRequired, type McpExtension, type ToolContext } from "../../src/index.js";
import { compiledOf } from "../../src/host/built-server.js";
import { createSdkServer } from "../../src/host/protocol/sdk-server.js";
import { FastPath } from "../../src/http/mcp/fast-path.js";
import { parseSelection } from "../../src/host/selection.js";
import { Cleanup, deferred, raw, serveHost, type RawResponse } from "../helpers/http-host.js";
import { defined } from "../../src/defined.js";

const REVISION = "2026-07-28";
const META = {
  "io.modelcontextprotocol/protocolVersion": REVISION,
  "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {} } },
  "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
};

/** What a handler sees, in terms that do not differ between two servers by accident (ports, ids). */
function seen(ctx: ToolContext): unknown {
  const http = ctx.mcp.http;
  const req = http?.req;
  const headers = req === undefined ? undefined : Object.fromEntries([...req.headers].filter(([name]) => name !== "host" && name !== "content-length"));
  return {
    era: ctx.era,
    transport: ctx.transport,
    selection: ctx.selection,
    clientCapabilities: ctx.clientCapabilities ?? null,
    meta: ctx.meta ?? null,
    envelope: ctx.mcp.mcpReq.envelope ?? null,
    method: ctx.mcp.mcpReq.method,
    http:
      http === undefined
        ? null
        : {
            hasReq: req !== undefined,
            url: req === undefined ? null : new URL(req.url).pathname + new URL(req.url).search,
            method: req?.method ?? null,
            headers: headers ?? null,
            authInfo: http.authInfo ?? null,
            signal: req === undefined ? null : req.signal instanceof AbortSignal,
          },
    signal: ctx.signal instanceof AbortSignal,
  };
}

const main = defineExtension({
  name: "main",
  toolsets: [{ name: "main" }],
  tools: [
    defineTool({ name: "echo", inputSchema: z.object({ text: z.string() }), handler: ({ text }) => ({ content: [{ type: "text", text }] }) }),
    {
      name: "probe",
      handler: (_args, ctx) => ({ content: [{ type: "text", text: "probed" }], structuredContent: { seen: seen(ctx) } }),
    },
    defineTool({
      name: "measure",
      inputSchema: z.object({ n: z.number() }),
      outputSchema: z.object({ double: z.number() }),
      handler: ({ n }) => ({ content: [{ type: "text", text: String(n * 2) }], structuredContent: { double: n * 2 } }),
    }),
    defineTool({
      name: "wrong_output",
      outputSchema: z.object({ double: z.number() }),
      handler: () => ({ content: [], structuredContent: { double: "two" } }),
    }),
    { name: "fails", handler: () => ({ content: [{ type: "text", text: "it did not work" }], isError: true }) },
    {
      name: "throws",
      handler: () => {
        throw new Error("boom");
      },
    },
    {
      name: "chatty",
      handler: async (_args, ctx) => {
        await ctx.log("info", "working");
        await ctx.progress(1, 2);
        return { content: [{ type: "text", text: "done" }] };
      },
    },
    {
      name: "asks",
      handler: (_args, ctx) =>
        ctx.inputResponses === undefined
          ? inputRequired({
              inputRequests: { who: inputRequired.elicit({ message: "Who?", requestedSchema: z.object({ who: z.string() }) }) },
              requestState: "asks-1",
            })
          : { content: [{ type: "text", text: "answered" }] },
    },
  ],
  prompts: [{ name: "greet", description: "A greeting", arguments: [{ name: "who", required: true }], get: () => ({ messages: [] }) }],
  resources: [{ uri: "main://readme", name: "readme", mimeType: "text/plain", read: () => ({ contents: [{ uri: "main://readme", text: "hi" }] }) }],
});

const EXTENSIONS: McpExtension[] = [main];

interface Req {
  what: string;
  headers: Record<string, string>;
  body: string;
}

function headersFor(method: string, name?: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": REVISION,
    "mcp-method": method,
    ...(name === undefined ? {} : { "mcp-name": name }),
    ...extra,
  };
}

function call(what: string, name: string, args: Record<string, unknown> | undefined, id: number | string = 7): Req {
  return {
    what,
    headers: headersFor("tools/call", name),
    body: JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name, ...defined({ arguments: args }), _meta: META } }),
  };
}

function list(method: string): Req {
  return { what: method, headers: headersFor(method), body: JSON.stringify({ jsonrpc: "2.0", id: "l-1", method, params: { _meta: META } }) };
}

function withBody(req: Req, what: string, mutate: (body: any) => void, headers: Record<string, string> = req.headers): Req {
  const body = JSON.parse(req.body);
  mutate(body);
  return { ...req, what, headers, body: JSON.stringify(body) };
}

const echo = call("", "echo", { text: "hello" });
const probe = call("", "probe", {});

/** A corpus over the SDK entry's ladder: the plain cases and one bend of each rung. */
const CORPUS: Req[] = [
  call("tools/call ok", "echo", { text: "hello" }),
  call("tools/call with a string id", "echo", { text: "s" }, "abc"),
  call("tools/call with structured output", "measure", { n: 21 }),
  call("tools/call whose output does not match its schema", "wrong_output", {}),
  call("tools/call with no arguments", "fails", undefined),
  call("tools/call with invalid arguments", "echo", { text: 5 }),
  call("tools/call of an unknown tool", "nope", {}),
  call("tools/call of a tool that throws", "throws", {}),
  call("tools/call of a tool that logs and reports progress", "chatty", {}),
  call("tools/call of a tool that asks for input", "asks", {}),
  { ...probe, what: "the probe, plain" },
  withBody(probe, "the probe with a progress token", (b) => (b.params._meta.progressToken = 3)),
  withBody(probe, "the probe with a log level", (b) => (b.params._meta["io.modelcontextprotocol/logLevel"] = "debug")),
  withBody(probe, "the probe with extra _meta", (b) => (b.params._meta.mine = { a: 1 })),
  withBody(probe, "the probe without client capabilities", (b) => delete b.params._meta["io.modelcontextprotocol/clientCapabilities"]),
  { ...probe, what: "the probe with headers of its own", headers: headersFor("tools/call", "probe", { "x-extra": "yes", "user-agent": "parity" }) },
  withBody(
    probe,
    "a chatty call with a progress token",
    (b) => {
      b.params.name = "chatty";
      b.params._meta.progressToken = "p";
    },
    headersFor("tools/call", "chatty"),
  ),
  list("tools/list"),
  list("prompts/list"),
  list("resources/list"),
  list("resources/templates/list"),
  { ...echo, what: "Mcp-Name disagrees with params.name", headers: headersFor("tools/call", "measure") },
  { ...echo, what: "Mcp-Name missing on tools/call", headers: headersFor("tools/call") },
  { ...echo, what: "Mcp-Name in base64", headers: headersFor("tools/call", `=?base64?${Buffer.from("echo").toString("base64")}?=`) },
  { ...echo, what: "Mcp-Method disagrees", headers: headersFor("tools/list", "echo") },
  { ...echo, what: "MCP-Protocol-Version disagrees with the envelope", headers: { ...headersFor("tools/call", "echo"), "mcp-protocol-version": "2026-08-01" } },
  withBody(echo, "MCP-Protocol-Version header missing", () => {}, (({ "mcp-protocol-version": _, ...rest }) => rest)(headersFor("tools/call", "echo"))),
  withBody(echo, "an envelope naming another revision", (b) => (b.params._meta["io.modelcontextprotocol/protocolVersion"] = "2026-08-01")),
  withBody(
    echo,
    "a retry with inputResponses and a forged requestState",
    (b) => {
      b.params.name = "asks";
      b.params.inputResponses = { who: { action: "accept", content: { who: "me" } } };
      b.params.requestState = "forged";
    },
    headersFor("tools/call", "asks"),
  ),
  withBody(echo, "arguments that are not an object", (b) => (b.params.arguments = [1])),
  withBody(echo, "jsonrpc 1.0", (b) => (b.jsonrpc = "1.0")),
  withBody(echo, "a notification (no id)", (b) => delete b.id),
  withBody(echo, "a null id", (b) => (b.id = null)),
  withBody(list("tools/list"), "a cursor", (b) => (b.params.cursor = "abc")),
  { ...echo, what: "a batch", body: `[${echo.body}]` },
  {
    ...echo,
    what: "prompts/get",
    headers: headersFor("prompts/get", "greet"),
    body: JSON.stringify({ jsonrpc: "2.0", id: 3, method: "prompts/get", params: { name: "greet", arguments: { who: "x" }, _meta: META } }),
  },
  {
    ...echo,
    what: "resources/read",
    headers: headersFor("resources/read", "main://readme"),
    body: JSON.stringify({ jsonrpc: "2.0", id: 5, method: "resources/read", params: { uri: "main://readme", _meta: META } }),
  },
  {
    ...echo,
    what: "completion/complete",
    headers: headersFor("completion/complete"),
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 6,
      method: "completion/complete",
      params: { ref: { type: "ref/prompt", name: "greet" }, argument: { name: "who", value: "a" }, _meta: META },
    }),
  },
  {
    ...echo,
    what: "server/discover",
    headers: headersFor("server/discover"),
    body: JSON.stringify({ jsonrpc: "2.0", id: 4, method: "server/discover", params: { _meta: META } }),
  },
];

interface Answer {
  status: number;
  contentType: string | undefined;
  body: unknown;
}

/** Sealed multi-round-trip state differs between two hosts (their keys, the time): compared as present. */
function unsealed(body: unknown): unknown {
  const result = (body as { result?: { requestState?: unknown } } | undefined)?.result;
  if (typeof result?.requestState !== "string") return body;
  return { ...(body as object), result: { ...result, requestState: "(sealed)" } };
}

function answerOf(response: RawResponse): Answer {
  const contentType = response.headers["content-type"];
  // An SSE answer: its events (the stream's framing is the SDK's on both sides).
  const events =
    typeof contentType === "string" && contentType.startsWith("text/event-stream")
      ? response.text
          .split("\n")
          .filter((l) => l.startsWith("data: "))
          .map((l) => unsealed(JSON.parse(l.slice(6))))
      : undefined;
  return {
    status: response.status,
    contentType: Array.isArray(contentType) ? contentType.join(",") : contentType,
    body: events ?? unsealed(response.json ?? response.text),
  };
}

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

/** The requests the fast path served (by the order they reached it), counted by wrapping its class in this process. */
const fastServed = { count: 0 };
const fastServe = FastPath.prototype.serve;
FastPath.prototype.serve = async function (this: FastPath, ...args: Parameters<FastPath["serve"]>) {
  const served = await fastServe.apply(this, args);
  if (served) fastServed.count += 1;
  return served;
};

/**
 * What the fast path must take of the corpus: every ordinary request on its method list, whatever the handler then
 * does (an error result, a throw, a log or progress first, input required). The rest go to the SDK's entry.
 */
const FAST_TAKEN = [
  "tools/call ok",
  "tools/call with a string id",
  "tools/call with structured output",
  "tools/call whose output does not match its schema",
  "tools/call with no arguments",
  "tools/call with invalid arguments",
  "tools/call of an unknown tool",
  "tools/call of a tool that throws",
  "tools/call of a tool that logs and reports progress",
  "tools/call of a tool that asks for input",
  "the probe, plain",
  "the probe with a progress token",
  "the probe with a log level",
  "the probe with extra _meta",
  // "the probe without client capabilities" is not taken: the pooled server's dispatch refuses the envelope at once
  // (-32602), so the fast path hands the request to the entry, which gives its own answer.
  "the probe with headers of its own",
  "a chatty call with a progress token",
  "tools/list",
  "prompts/list",
  "resources/list",
  "resources/templates/list",
  "a retry with inputResponses and a forged requestState",
  "arguments that are not an object",
  "a cursor",
  "prompts/get",
  "resources/read",
  "completion/complete",
];

/**
 * The host (fast path on), a second host with the fast path forced off (every request through the SDK's entry), and
 * a reference server over the same build mounted with the SDK's own node adapters.
 */
async function serveBoth() {
  const host = await serveHost(cleanup, EXTENSIONS, { host: { instructions: "Be brief." } });
  const entry = await serveHost(cleanup, EXTENSIONS, { host: { instructions: "Be brief." }, http: { fastPath: false } });
  const compiled = compiledOf(await host.host.build(parseSelection("")));
  const selection = { active: compiled.toolsets, unknown: [] as string[] };
  const modern = createMcpHandler((ctx) => createSdkServer(compiled.protocol, { era: ctx.era, selection, ...defined({ authInfo: ctx.authInfo }) }), {
    legacy: "reject",
  });
  const node = toNodeHandler(modern);
  const sessions = new Map<string, NodeStreamableHTTPServerTransport>();
  const reference = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const text = Buffer.concat(chunks).toString("utf8");
      let body: unknown;
      try {
        body = text === "" ? undefined : JSON.parse(text);
      } catch {
        body = undefined;
      }
      const sessionId = req.headers["mcp-session-id"];
      const initialize = (body as { method?: unknown } | undefined)?.method === "initialize";
      if (typeof sessionId === "string" || initialize) {
        let transport = typeof sessionId === "string" ? sessions.get(sessionId) : undefined;
        if (transport === undefined) {
          const created: NodeStreamableHTTPServerTransport = new NodeStreamableHTTPServerTransport({
            sessionIdGenerator: () => randomUUID(),
            onsessioninitialized: (id) => void sessions.set(id, created),
          });
          transport = created;
          await createSdkServer(compiled.protocol, { era: "legacy", selection }).connect(transport);
        }
        await transport.handleRequest(req as never, res, body);
        return;
      }
      await node(req as never, res as never, body);
    });
  });
  await new Promise<void>((resolve) => reference.listen(0, "127.0.0.1", resolve));
  cleanup.add(async () => {
    await modern.close();
    for (const t of sessions.values()) await t.close();
    reference.closeAllConnections();
    await new Promise<void>((resolve) => reference.close(() => resolve()));
  });
  const referenceUrl = new URL(`http://127.0.0.1:${(reference.address() as AddressInfo).port}/mcp`);
  return { host, entry, referenceUrl };
}

async function ask(url: URL, req: Req, headers: Record<string, string> = {}): Promise<Answer> {
  return answerOf(await raw({ url, method: "POST", headers: { ...req.headers, ...headers }, body: req.body }));
}

describe("the exchange answers what the SDK's own node adapters answer", { timeout: 60_000 }, () => {
  it("2026-07-28: the same status, content type and body for every request of the corpus, and a handler sees the same", async () => {
    const { host, entry, referenceUrl } = await serveBoth();
    const differ: string[] = [];
    const taken: string[] = [];
    for (const req of CORPUS) {
      const before = fastServed.count;
      const viaHost = await ask(host.url, req);
      if (fastServed.count > before) taken.push(req.what);
      const viaEntry = await ask(entry.url, req);
      assert.equal(fastServed.count, before + (taken.at(-1) === req.what ? 1 : 0), "the host forced off never takes the fast path");
      const viaReference = await ask(referenceUrl, req);
      try {
        assert.deepEqual(viaHost, viaReference);
      } catch {
        differ.push(`${req.what}:\n  host      ${JSON.stringify(viaHost)}\n  reference ${JSON.stringify(viaReference)}`);
      }
      try {
        assert.deepEqual(viaHost, viaEntry);
      } catch {
        differ.push(`${req.what} (fast path vs entry):\n  fast  ${JSON.stringify(viaHost)}\n  entry ${JSON.stringify(viaEntry)}`);
      }
    }
    assert.deepEqual(differ, []);
    assert.deepEqual(taken, FAST_TAKEN);
  });

  it("compares something: the probe saw the SDK context's request, the envelope and the client's capabilities", async () => {
    const { host } = await serveBoth();
    const answer = (await ask(host.url, probe)).body as { result: { structuredContent: { seen: any } } };
    const view = answer.result.structuredContent.seen;
    assert.equal(view.era, "modern");
    assert.equal(view.method, "tools/call");
    assert.deepEqual(view.clientCapabilities, { elicitation: { form: {} } });
    assert.equal(view.envelope["io.modelcontextprotocol/clientInfo"].name, "raw");
    assert.equal(view.http.hasReq, true);
    assert.equal(view.http.url, "/mcp");
    assert.equal(view.http.method, "POST");
    assert.equal(view.http.headers["mcp-name"], "probe");
    assert.equal(view.http.signal, true);
  });

  it("2025 sessions: initialize, the probe and a call on the session answer alike", async () => {
    const { host, referenceUrl } = await serveBoth();
    const legacy = { "content-type": "application/json", accept: "application/json, text/event-stream" };
    const open = async (url: URL) => {
      const init = await raw({
        url,
        method: "POST",
        headers: legacy,
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: { protocolVersion: "2025-11-25", capabilities: { sampling: {} }, clientInfo: { name: "raw", version: "1" } },
        }),
      });
      const id = String(init.headers["mcp-session-id"]);
      const on = { ...legacy, "mcp-session-id": id, "mcp-protocol-version": "2025-11-25" };
      await raw({ url, method: "POST", headers: on, body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) });
      return { init, on };
    };
    const a = await open(host.url);
    const b = await open(referenceUrl);
    assert.deepEqual(answerOf(a.init), answerOf(b.init));
    for (const [id, method, params] of [
      [2, "tools/call", { name: "probe", arguments: {} }],
      [3, "tools/call", { name: "echo", arguments: { text: "x" } }],
      [4, "tools/list", {}],
      [5, "tools/call", { name: "nope", arguments: {} }],
    ] as const) {
      const body = JSON.stringify({ jsonrpc: "2.0", id, method, params });
      const viaHost = answerOf(await raw({ url: host.url, method: "POST", headers: a.on, body }));
      const viaReference = answerOf(await raw({ url: referenceUrl, method: "POST", headers: b.on, body }));
      // The session's own id differs between two servers; everything else must not.
      const normal = (x: Answer) =>
        JSON.parse(JSON.stringify(x).replaceAll(a.on["mcp-session-id"], "(session)").replaceAll(b.on["mcp-session-id"], "(session)"));
      assert.deepEqual(normal(viaHost), normal(viaReference), `${method} ${JSON.stringify(params)}`);
    }
  });

  it("a client that leaves mid-call aborts the tool's signal, on both", async () => {
    const started = deferred();
    const aborted = deferred<string>();
    const waiting = defineExtension({
      name: "waiting",
      tools: [
        {
          name: "wait",
          handler: (_args, ctx) =>
            new Promise((resolve) => {
              ctx.signal.addEventListener("abort", () => {
                aborted.resolve(String((ctx.signal.reason as Error | undefined)?.message ?? ctx.signal.reason));
                resolve({ content: [{ type: "text", text: "too late" }] });
              });
              started.resolve();
            }),
        },
      ],
    });
    const host = await serveHost(cleanup, [waiting, main]);
    const req = call("", "wait", {});
    const outgoing = httpRequest(host.url, { method: "POST", headers: req.headers, agent: false });
    const gone = deferred();
    outgoing.on("error", () => gone.resolve());
    outgoing.on("close", () => gone.resolve());
    outgoing.end(req.body);
    await started.promise;
    outgoing.destroy();
    await gone.promise;
    assert.match(await aborted.promise, /closed|abort/i);
    assert.equal((await ask(host.url, call("", "echo", { text: "next" }))).status, 200);
  });
});
