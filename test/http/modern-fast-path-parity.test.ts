// The modern fast path answers exactly what the SDK entry answers (docs/design.md §8, §15): the same host served
// twice, fast path on and off, real HTTP, the same raw requests with exact headers — status, content type and
// body must be equal for every request, and the fast path must have served the plain ones and none of the rest.
import { after, afterEach, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import * as z from "zod";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { defineExtension, defineTool, inputRequired, type McpExtension } from "../../src/index.js";
import { fastPathServed } from "../../src/http/modern-fast-path.js";
import { type AuthorizationServer, startAuthorizationServer } from "../fixtures/auth/authorization-server.js";
import { bearer, LeakWatch, serveAuthHost } from "../helpers/auth-host.js";
import { request as httpRequest } from "node:http";
import { Cleanup, deferred, raw, serveHost, type RawResponse, type ServedHost } from "../helpers/http-host.js";

const REVISION = "2026-07-28";
const META = {
  "io.modelcontextprotocol/protocolVersion": REVISION,
  "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {} } },
  "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
};

const main = defineExtension({
  name: "main",
  toolsets: [{ name: "main" }],
  tools: [
    defineTool({
      name: "echo",
      description: "Says it back",
      inputSchema: z.object({ text: z.string() }),
      handler: ({ text }) => ({ content: [{ type: "text", text }] }),
    }),
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
      // Extra fields the SDK's result schema passes or strips, and a log line and progress nobody asked for.
      name: "chatty",
      handler: async (_args, ctx) => {
        await ctx.log("info", "working");
        await ctx.progress(1, 2);
        return { content: [{ type: "text", text: "done", annotations: { priority: 1 }, extra: "kept?" }], _meta: { mine: true }, unknownTop: 1 } as never;
      },
    },
    {
      name: "asks",
      handler: (_args, ctx) => {
        if (ctx.inputResponses === undefined)
          return inputRequired({
            inputRequests: { who: inputRequired.elicit({ message: "Who?", requestedSchema: z.object({ who: z.string() }) }) },
            requestState: "asks-1",
          });
        return { content: [{ type: "text", text: "answered" }] };
      },
    },
    { name: "not_a_result", handler: () => ({ nope: true }) as never },
  ],
  prompts: [{ name: "greet", description: "A greeting", arguments: [{ name: "who", required: true }], get: () => ({ messages: [] }) }],
  resources: [{ uri: "main://readme", name: "readme", mimeType: "text/plain", read: () => ({ contents: [{ uri: "main://readme", text: "hi" }] }) }],
  resourceTemplates: [
    {
      uriTemplate: "main://notes/{id}",
      name: "note",
      list: () => [{ uri: "main://notes/1", name: "note 1" }],
      read: (uri) => ({ contents: [{ uri, text: "note" }] }),
    },
  ],
});

const side = defineExtension({
  name: "side",
  toolsets: [{ name: "side", default: false }],
  tools: [{ name: "side_tool", handler: () => ({ content: [{ type: "text", text: "side" }] }) }],
});

const EXTENSIONS: McpExtension[] = [main, side];

interface Req {
  what: string;
  /** Query string of the endpoint (a selection). */
  query?: string;
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
    body: JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name, ...(args === undefined ? {} : { arguments: args }), _meta: META } }),
  };
}

function list(method: string, query?: string): Req {
  return {
    what: `${method}${query ? ` ?${query}` : ""}`,
    ...(query === undefined ? {} : { query }),
    headers: headersFor(method),
    body: JSON.stringify({ jsonrpc: "2.0", id: "l-1", method, params: { _meta: META } }),
  };
}

/** Requests the fast path takes. */
const TAKEN: Req[] = [
  call("tools/call ok", "echo", { text: "hello" }),
  call("tools/call with a string id", "echo", { text: "s" }, "abc"),
  call("tools/call with structured output", "measure", { n: 21 }),
  call("tools/call whose output does not match its schema", "wrong_output", {}),
  call("tools/call with no arguments", "fails", undefined),
  call("tools/call with an isError result", "fails", {}),
  call("tools/call with invalid arguments", "echo", { text: 5 }),
  call("tools/call of an unknown tool", "nope", {}),
  call("tools/call of a tool that throws", "throws", {}),
  call("tools/call of a tool that logs and reports progress, extra fields in its result", "chatty", {}),
  call("tools/call of a tool that asks for input (input_required)", "asks", {}),
  call("tools/call of a tool returning no tool result", "not_a_result", {}),
  call("tools/call of the toolsets tool", "list_server_toolsets", {}),
  list("tools/list"),
  list("prompts/list"),
  list("resources/list"),
  list("resources/templates/list"),
  list("tools/list", "only=side"),
  { ...call("tools/call in a toolset-scoped selection", "side_tool", {}), query: "only=side" },
  { ...call("tools/call of a tool outside the selection", "echo", { text: "x" }), query: "only=side" },
  {
    ...list("tools/list"),
    what: "tools/list with a charset in the content type",
    headers: headersFor("tools/list", undefined, { "content-type": "application/json; charset=utf-8" }),
  },
];

function withBody(req: Req, what: string, mutate: (body: any) => void, headers: Record<string, string> = req.headers): Req {
  const body = JSON.parse(req.body);
  mutate(body);
  return { ...req, what, headers, body: JSON.stringify(body) };
}

const echo = call("", "echo", { text: "hello" });
const toolsList = list("tools/list");

/** Requests that must go to the SDK entry (each differs from a taken one in one way). */
const FALLBACK: Req[] = [
  { ...echo, what: "Mcp-Name disagrees with params.name", headers: headersFor("tools/call", "measure") },
  { ...echo, what: "Mcp-Name missing on tools/call", headers: headersFor("tools/call") },
  { ...echo, what: "Mcp-Name in base64 (the same name)", headers: headersFor("tools/call", `=?base64?${Buffer.from("echo").toString("base64")}?=`) },
  { ...echo, what: "Mcp-Name in a broken base64 sentinel", headers: headersFor("tools/call", "=?base64?***?=") },
  { ...echo, what: "Mcp-Method disagrees", headers: headersFor("tools/list", "echo") },
  { ...echo, what: "Mcp-Method missing", headers: { ...headersFor("tools/call", "echo"), "mcp-method": "" } },
  { ...echo, what: "MCP-Protocol-Version disagrees with the envelope", headers: { ...headersFor("tools/call", "echo"), "mcp-protocol-version": "2026-08-01" } },
  withBody(echo, "MCP-Protocol-Version header missing", () => {}, (({ "mcp-protocol-version": _, ...rest }) => rest)(headersFor("tools/call", "echo"))),
  withBody(echo, "a progress token", (b) => (b.params._meta.progressToken = 3)),
  withBody(echo, "a log level in the envelope", (b) => (b.params._meta["io.modelcontextprotocol/logLevel"] = "debug")),
  withBody(echo, "an envelope without client capabilities", (b) => delete b.params._meta["io.modelcontextprotocol/clientCapabilities"]),
  withBody(echo, "an envelope naming another revision", (b) => (b.params._meta["io.modelcontextprotocol/protocolVersion"] = "2026-08-01")),
  withBody(
    echo,
    "a retry with inputResponses and requestState",
    (b) => {
      b.params.name = "asks";
      b.params.inputResponses = { who: { action: "accept", content: { who: "me" } } };
      b.params.requestState = "forged";
    },
    headersFor("tools/call", "asks"),
  ),
  withBody(echo, "arguments that are not an object", (b) => (b.params.arguments = [1])),
  withBody(echo, "a params key the SDK does not know", (b) => (b.params.task = { ttl: 1 })),
  withBody(echo, "jsonrpc 1.0", (b) => (b.jsonrpc = "1.0")),
  withBody(echo, "a notification (no id)", (b) => delete b.id),
  withBody(echo, "a null id", (b) => (b.id = null)),
  withBody(toolsList, "a cursor", (b) => (b.params.cursor = "abc")),
  { ...echo, what: "a batch", body: `[${echo.body}]` },
  { ...echo, what: "a media type the SDK refuses", headers: { ...headersFor("tools/call", "echo"), "content-type": "application/vnd.api+json" } },
  {
    ...toolsList,
    what: "a method off the fast path (prompts/get)",
    headers: headersFor("prompts/get", "greet"),
    body: JSON.stringify({ jsonrpc: "2.0", id: 3, method: "prompts/get", params: { name: "greet", arguments: {}, _meta: META } }),
  },
  {
    ...toolsList,
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

/** A multi-round-trip state is sealed with the host's own key and a time, so two hosts never seal alike. */
function unsealed(body: unknown): unknown {
  const result = (body as { result?: { requestState?: unknown } } | undefined)?.result;
  if (typeof result?.requestState !== "string") return body;
  return { ...(body as object), result: { ...result, requestState: "(sealed)" } };
}

function answerOf(response: RawResponse): Answer {
  const contentType = response.headers["content-type"];
  return {
    status: response.status,
    contentType: Array.isArray(contentType) ? contentType.join(",") : contentType,
    body: unsealed(response.json ?? response.text),
  };
}

async function ask(host: ServedHost, req: Req, headers: Record<string, string> = {}): Promise<Answer> {
  const url = req.query === undefined ? host.url : host.at(req.query);
  return answerOf(await raw({ url, method: "POST", headers: { ...req.headers, ...headers }, body: req.body }));
}

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

describe("the modern fast path answers what the SDK entry answers", { timeout: 60_000 }, () => {
  let fast: ServedHost;
  let entry: ServedHost;
  const serveBoth = async () => {
    fast = await serveHost(cleanup, EXTENSIONS, { host: { instructions: "Be brief." } });
    entry = await serveHost(cleanup, EXTENSIONS, { host: { instructions: "Be brief." }, http: { modernFastPath: false } });
  };

  it("for every request it takes: same status, content type and body, and it served each", async () => {
    await serveBoth();
    for (const req of TAKEN) {
      const before = fastPathServed.count;
      const viaFast = await ask(fast, req);
      assert.equal(fastPathServed.count, before + 1, `the fast path served: ${req.what}`);
      const viaEntry = await ask(entry, req);
      assert.equal(fastPathServed.count, before + 1, `the host with the fast path off did not use it: ${req.what}`);
      assert.deepEqual(viaFast, viaEntry, req.what);
    }
  });

  it("the answers it gives are the ones the protocol expects (so the comparison compares something)", async () => {
    await serveBoth();
    const ok = await ask(fast, TAKEN[0]!);
    assert.equal(ok.status, 200);
    assert.equal(ok.contentType, "application/json");
    assert.deepEqual(ok.body, {
      jsonrpc: "2.0",
      id: 7,
      result: {
        content: [{ type: "text", text: "hello" }],
        resultType: "complete",
        _meta: { "io.modelcontextprotocol/serverInfo": { name: "test-host", version: "1.2.3" } },
      },
    });
    const unknown = (await ask(fast, call("", "nope", {}))).body as { error: { code: number; message: string; data: unknown } };
    assert.equal(unknown.error.code, -32602);
    assert.match(unknown.error.message, /^Unknown tool "nope"/);
    assert.deepEqual(unknown.error.data, { requested: "nope" });
    const asks = (await ask(fast, call("", "asks", {}))).body as { result: { resultType: string; requestState: string; inputRequests: object } };
    assert.equal(asks.result.resultType, "input_required");
    assert.deepEqual(Object.keys(asks.result.inputRequests), ["who"]);
    assert.equal(typeof asks.result.requestState, "string");
    const tools = (await ask(fast, list("tools/list"))).body as { result: { tools: { name: string }[]; ttlMs: number; cacheScope: string } };
    assert.deepEqual(
      tools.result.tools.map((t) => t.name),
      ["asks", "chatty", "echo", "fails", "list_server_toolsets", "measure", "not_a_result", "throws", "wrong_output"],
    );
    assert.equal(tools.result.ttlMs, 0);
    assert.equal(tools.result.cacheScope, "private");
  });

  it("a request it does not take goes to the SDK entry, which answers as it always did", async () => {
    await serveBoth();
    for (const req of FALLBACK) {
      const before = fastPathServed.count;
      const viaFast = await ask(fast, req);
      assert.equal(fastPathServed.count, before, `the fast path left it alone: ${req.what}`);
      const viaEntry = await ask(entry, req);
      assert.deepEqual(viaFast, viaEntry, req.what);
    }
  });

  it("the SDK v2 client (2026-07-28) lists and calls tools through it", async () => {
    await serveBoth();
    const before = fastPathServed.count;
    const client = new Client({ name: "c", version: "1" }, { versionNegotiation: { mode: { pin: REVISION } } });
    await client.connect(new StreamableHTTPClientTransport(fast.url));
    cleanup.add(() => client.close());
    const listed = await client.listTools();
    assert.ok(listed.tools.some((t) => t.name === "echo"));
    const called = await client.callTool({ name: "echo", arguments: { text: "via client" } });
    assert.deepEqual(called.content, [{ type: "text", text: "via client" }]);
    const structured = await client.callTool({ name: "measure", arguments: { n: 2 } });
    assert.deepEqual(structured.structuredContent, { double: 4 });
    assert.ok(fastPathServed.count >= before + 3, `the client's calls and list went through the fast path (${fastPathServed.count - before})`);
  });
});

describe("with auth on, the fast path comes after the token check", { timeout: 60_000 }, () => {
  const watch = new LeakWatch();
  let as: AuthorizationServer;
  before(async () => {
    as = await startAuthorizationServer();
  });
  after(async () => {
    watch.assertClean(as.issuedTokens());
    await as.close();
  });

  it("no token: the same 401 and nothing served; a token: the same answers, the caller's selection", async () => {
    const fast = await serveAuthHost(cleanup, watch, as, { extensions: EXTENSIONS });
    const entry = await serveAuthHost(cleanup, watch, as, { extensions: EXTENSIONS, http: { modernFastPath: false } });
    const before = fastPathServed.count;
    const refusedFast = await ask(fast, TAKEN[0]!);
    const refusedEntry = await ask(entry, TAKEN[0]!);
    assert.equal(refusedFast.status, 401);
    assert.deepEqual(refusedFast, refusedEntry);
    assert.equal(fastPathServed.count, before, "nothing reached the fast path without a token");
    const token = await fast.token();
    for (const req of [TAKEN[0]!, list("tools/list"), { ...call("side", "side_tool", {}), query: "only=side" }]) {
      const viaFast = await ask(fast, req, bearer(token));
      const viaEntry = await ask(entry, req, bearer(token));
      assert.equal(viaFast.status, 200, req.what);
      assert.deepEqual(viaFast, viaEntry, req.what);
    }
    assert.equal(fastPathServed.count, before + 3);
  });
});

describe("a client that leaves in the middle of a fast-path call", { timeout: 30_000 }, () => {
  it("aborts the tool's signal, and the host serves the next request", async () => {
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
    const before = fastPathServed.count;
    const req = call("", "wait", {});
    const outgoing = httpRequest(host.url, { method: "POST", headers: req.headers, agent: false });
    const gone = deferred();
    outgoing.on("error", () => gone.resolve());
    outgoing.on("close", () => gone.resolve());
    outgoing.end(req.body);
    await started.promise;
    assert.equal(fastPathServed.count, before + 1, "the call went through the fast path");
    outgoing.destroy();
    await gone.promise;
    assert.match(await aborted.promise, /closed/i);
    const next = await ask(host, TAKEN[0]!);
    assert.equal(next.status, 200);
  });
});
