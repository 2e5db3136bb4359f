/**
 * The HTTP edge fuzz's generator: each case starts from a real request of either era (initialize, a listing, a
 * tool call, a resource read, a prompt) and bends one part of it — its method, its target, a header, its body, its
 * JSON-RPC shape, its content coding, its charset and byte-order mark, or the HTTP framing itself — or calls a tool
 * whose schema has a catastrophic pattern or format with an argument that chokes a backtracking engine, or a gateway
 * tool whose upstream answers huge, slow, deep, malformed or for the wrong id. Every family
 * is something a client can send; the
 * server must answer each with a 2xx, a 3xx or a 4xx, never a 5xx and never a crash. Seeded: a seed names a run.
 */
import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
import { schemaCall } from "./schema-family.js";
import type { Random } from "./seed.js";
import { upstreamCall } from "./upstream-family.js";

export const FAMILIES = ["method", "path", "header", "body", "jsonrpc", "encoding", "charset", "framing", "schema", "upstream"] as const;
export type Family = (typeof FAMILIES)[number];

export interface FuzzCase {
  family: Family;
  /** What was bent, for the report. */
  what: string;
  bytes: Buffer;
}

const MODERN_META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "fuzz", version: "1" },
};

interface Draft {
  method: string;
  target: string;
  headers: Array<[string, string]>;
  body: Buffer;
  /** Set when the framing was bent and Content-Length must not be added. */
  framed?: boolean;
}

const TOOL_CALLS: ReadonlyArray<{ name: string; arguments: unknown }> = [
  { name: "echo", arguments: { text: "hello" } },
  { name: "echo", arguments: {} },
  { name: "echo", arguments: { text: 42 } },
  { name: "text_stats", arguments: { text: "One two. Three four five!" } },
  { name: "slugify", arguments: { text: "Hello, Wörld & you" } },
  { name: "change_case", arguments: { text: "hello world", to: "snake" } },
  { name: "diff_lines", arguments: { before: "a\nb\nc", after: "a\nc\nd" } },
  { name: "regex_test", arguments: { pattern: "\\b(\\w)(\\w*)\\b", text: "one two three" } },
  { name: "regex_test", arguments: { pattern: "(", text: "x" } },
  { name: "list_server_toolsets", arguments: {} },
  { name: "nope", arguments: {} },
];

function message(random: Random, modern: boolean): { method: string; name?: string; params: Record<string, unknown> } {
  const kind = random.int(0, modern ? 6 : 7);
  const call = random.pick(TOOL_CALLS);
  const base = [
    { method: "tools/list", params: {} },
    { method: "tools/call", name: call.name, params: { name: call.name, arguments: call.arguments } },
    { method: "resources/list", params: {} },
    { method: "resources/read", name: "steady://readme", params: { uri: random.pick(["steady://readme", "nope://x", ""]) } },
    { method: "prompts/get", name: "greet", params: { name: "greet", arguments: random.chance(0.5) ? { who: "you" } : {} } },
    { method: "completion/complete", params: { ref: { type: "ref/prompt", name: "greet" }, argument: { name: "who", value: "y" } } },
    { method: random.pick(["ping", "logging/setLevel", "nope/nope", "subscriptions/listen"]), params: { level: "info" } },
    {
      method: "initialize",
      params: {
        protocolVersion: random.pick(["2025-11-25", "2025-06-18", "2025-03-26", "1999-01-01"]),
        capabilities: {},
        clientInfo: { name: "fuzz", version: "1" },
      },
    },
  ][kind]!;
  return modern ? { ...base, params: { ...base.params, _meta: MODERN_META } } : base;
}

function baseDraft(random: Random, port: number): Draft {
  const modern = random.chance(0.5);
  const m = message(random, modern);
  const body = JSON.stringify({ jsonrpc: "2.0", id: random.int(1, 1_000_000), method: m.method, params: m.params });
  const headers: Array<[string, string]> = [
    ["host", `127.0.0.1:${port}`],
    ["content-type", "application/json"],
    ["accept", "application/json, text/event-stream"],
  ];
  if (modern) {
    headers.push(["mcp-protocol-version", "2026-07-28"], ["mcp-method", m.method]);
    if (m.name !== undefined) headers.push(["mcp-name", m.name]);
  } else if (m.method !== "initialize") {
    headers.push(["mcp-protocol-version", "2025-11-25"]);
  }
  return { method: "POST", target: random.pick(["/mcp", "/mcp?only=steady", "/mcp?only=text,steady", "/mcp?without=text"]), headers, body: Buffer.from(body) };
}

function setHeader(draft: Draft, name: string, value: string | undefined): void {
  draft.headers = draft.headers.filter(([n]) => n !== name);
  if (value !== undefined) draft.headers.push([name, value]);
}

function nested(levels: number): string {
  return `${"[".repeat(levels)}${"]".repeat(levels)}`;
}

/** Makes the draft a well-formed 2026-07-28 `tools/call` of `call.name` at `call.target`. */
function modernCall(random: Random, draft: Draft, port: number, call: { target: string; name: string; arguments: Record<string, unknown> }): void {
  draft.target = call.target;
  draft.headers = [
    ["host", `127.0.0.1:${port}`],
    ["content-type", "application/json"],
    ["accept", "application/json, text/event-stream"],
    ["mcp-protocol-version", "2026-07-28"],
    ["mcp-method", "tools/call"],
    ["mcp-name", call.name],
  ];
  const params = { name: call.name, arguments: call.arguments, _meta: MODERN_META };
  draft.body = Buffer.from(JSON.stringify({ jsonrpc: "2.0", id: random.int(1, 1_000_000), method: "tools/call", params }));
}

const bend: Record<Family, (random: Random, draft: Draft, port: number) => string> = {
  method(random, draft) {
    draft.method = random.pick(["GET", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD", "TRACE", "FOO", "post", "GET"]);
    if (draft.method === "GET" && random.chance(0.5)) setHeader(draft, "accept", "text/event-stream");
    if (draft.method === "GET" || draft.method === "HEAD") draft.body = Buffer.alloc(0);
    if (random.chance(0.3)) setHeader(draft, "mcp-session-id", random.pick(["00000000-0000-4000-8000-000000000000", "x", "a".repeat(300)]));
    return draft.method;
  },
  path(random, draft, port) {
    draft.target = random.pick([
      "/mcp/",
      "/MCP",
      "/mcp?only=",
      "/mcp?only=nope",
      "/mcp?toolsets=a,b,,c",
      "/mcp?%zz=1",
      "/mcp?only=text&only=steady",
      "/mcp?access_token=abc",
      "/mcp#frag",
      "/toolsets",
      "/toolsets?only=nope",
      "/healthz",
      "/",
      "/nope",
      "/mcp/../healthz",
      "//mcp",
      `http://127.0.0.1:${port}/mcp`,
      `http://localhost:${port}/mcp?only=steady`,
      "http://evil.example.com/mcp",
      "*",
      `/${"a".repeat(random.int(100, 6000))}`,
      "/%E2%82%AC",
      `/mcp?${"x=1&".repeat(500)}`,
    ]);
    return draft.target.slice(0, 40);
  },
  header(random, draft) {
    const which = random.int(0, 13);
    const [name, value] = (
      [
        [
          "content-type",
          random.pick([
            undefined,
            "text/plain",
            "application/json; charset=utf-8",
            "application/json; charset=latin1",
            "application/vnd.x+json",
            "multipart/form-data",
            "application/json; charset=iso-8859-1",
            ";;;",
          ]),
        ],
        ["accept", random.pick([undefined, "application/json", "text/event-stream", "*/*", "image/png"])],
        ["mcp-protocol-version", random.pick([undefined, "2025-11-25", "2026-07-28", "1999-01-01", "garbage", "2026-99-99"])],
        ["mcp-session-id", random.pick(["00000000-0000-4000-8000-000000000000", "", "x".repeat(2000), "\u00e9"])],
        ["mcp-method", random.pick(["tools/call", "nope", ""])],
        ["mcp-name", random.pick(["echo", "", "x".repeat(500)])],
        ["host", random.pick(["127.0.0.1:99999", "evil.example.com", "localhost", "[::1]:1", "a b", ""])],
        ["origin", random.pick(["http://evil.example.com", "http://localhost:1", "null", "not a url"])],
        ["authorization", random.pick(["Bearer x", "Basic abc", "Bearer ", "x".repeat(9000)])],
        ["x-mcp-toolsets", random.pick(["only=text", "only=nope", "%%%"])],
        ["content-length", random.pick(["abc", "-1", "1e3"])],
        ["transfer-encoding", random.pick(["gzip", "identity", "chunked, chunked"])],
        ["x-big", "y".repeat(random.int(8_000, 20_000))],
        ["cookie", "a=b; ".repeat(100)],
      ] as const
    )[which]!;
    setHeader(draft, name, value);
    if (name === "content-length" || name === "transfer-encoding") draft.framed = true;
    return `${name}`;
  },
  body(random, draft) {
    const kind = random.int(0, 13);
    const bodies = [
      () => "",
      () => "{",
      () => "null",
      () => "[]",
      () => "123",
      () => '"text"',
      () => random.bytes(random.int(1, 2000)).toString("latin1"),
      () => `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":${nested(random.int(60, 70))}}}}`,
      () => `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":${nested(random.int(2_000, 20_000))}}}}`,
      () => `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{},"pad":"${"x".repeat(70_000)}"}`,
      () => '{"jsonrpc":"2.0","id":1,"method":"tools/list","id":2,"method":"ping"}',
      () => '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"\\ud800"}}}',
      () => `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"text_stats","arguments":{"text":"${"word ".repeat(random.int(1, 5_000))}"}}}`,
      () => draft.body.toString("utf8").slice(0, random.int(0, draft.body.length)),
    ];
    draft.body = Buffer.from(bodies[kind]!(), "latin1");
    return `body ${kind}`;
  },
  jsonrpc(random, draft) {
    const parsed = JSON.parse(draft.body.toString("utf8")) as Record<string, unknown>;
    const kind = random.int(0, 11);
    const shapes: Array<() => unknown> = [
      () => ({ ...parsed, jsonrpc: "1.0" }),
      () => ({ ...parsed, id: null }),
      () => ({ ...parsed, id: { a: 1 } }),
      () => ({ ...parsed, id: 1.5 }),
      () => ({ ...parsed, method: 42 }),
      () => ({ ...parsed, params: "nope" }),
      () => ({ jsonrpc: "2.0", method: "notifications/initialized" }),
      () => ({ jsonrpc: "2.0", id: 7, result: {} }),
      () => ({ jsonrpc: "2.0", id: 7, error: { code: 1, message: "x" } }),
      () => [parsed, { ...parsed, id: 99 }],
      () => Array.from({ length: random.int(0, 150) }, (_, i) => ({ ...parsed, id: i })),
      () => ({ ...parsed, params: { ...(parsed.params as object), name: 123, arguments: [1, 2] } }),
    ];
    draft.body = Buffer.from(JSON.stringify(shapes[kind]!()));
    return `shape ${kind}`;
  },
  encoding(random, draft) {
    const kind = random.pick(["gzip", "deflate", "br", "gzip-plain", "x-bogus", "gzip, br", "identity", "zstd", "gzip-truncated"] as const);
    if (kind === "gzip") draft.body = gzipSync(draft.body);
    if (kind === "deflate") draft.body = deflateSync(draft.body);
    if (kind === "br") draft.body = brotliCompressSync(draft.body);
    if (kind === "gzip-truncated") draft.body = gzipSync(draft.body).subarray(0, 12);
    setHeader(draft, "content-encoding", kind === "gzip-plain" || kind === "gzip-truncated" ? "gzip" : kind);
    return kind;
  },
  charset(random, draft) {
    // The body re-encoded (UTF-16 of either byte order, with or without a BOM, or UTF-8 with one), labelled with any
    // charset or none, maybe deep enough to overflow a parser that reads other characters than the depth scan did.
    const text = random.chance(0.5)
      ? draft.body.toString("utf8")
      : draft.body.toString("utf8").replace(/"arguments":\{/, `"arguments":{"deep":${nested(random.int(2_000, 20_000))},`);
    const encoding = random.pick(["utf8", "utf16le", "utf16be"] as const);
    const bom = random.pick(["none", "utf8", "utf16le", "utf16be"] as const);
    const marks = { none: [], utf8: [0xef, 0xbb, 0xbf], utf16le: [0xff, 0xfe], utf16be: [0xfe, 0xff] } as const;
    const bytes = encoding === "utf16be" ? Buffer.from(text, "utf16le").swap16() : Buffer.from(text, encoding);
    draft.body = Buffer.concat([Buffer.from(marks[bom]), bytes]);
    const gzipped = random.chance(0.3);
    if (gzipped) {
      draft.body = gzipSync(draft.body);
      setHeader(draft, "content-encoding", "gzip");
    }
    const label = random.pick([undefined, "utf-8", "UTF-16", "utf-16be", "utf-16le", "utf-32", "ucs-2", '"utf-16"', "utf8", "latin1", "unicode"]);
    setHeader(draft, "content-type", label === undefined ? "application/json" : `application/json; charset=${label}`);
    return `${encoding} bom ${bom} charset ${label ?? "(none)"}${gzipped ? " gzip" : ""}`;
  },
  schema(random, draft, port) {
    // Always a 2026-07-28 call (a 2025 one would need a session first), within the fuzz server's 64 KiB body bound.
    const call = schemaCall(random, 60_000);
    modernCall(random, draft, port, { target: "/mcp", ...call });
    return call.what;
  },
  upstream(random, draft, port) {
    const call = upstreamCall(random);
    modernCall(random, draft, port, call);
    return call.what;
  },
  framing(random, draft) {
    const kind = random.int(0, 7);
    draft.framed = true;
    const body = draft.body;
    if (kind === 0) {
      draft.headers.push(["transfer-encoding", "chunked"]);
      draft.body = Buffer.concat([Buffer.from(`${body.length.toString(16)}\r\n`), body, Buffer.from("\r\n0\r\n\r\n")]);
    } else if (kind === 1) {
      draft.headers.push(["transfer-encoding", "chunked"]);
      draft.body = Buffer.from("zz\r\nabc\r\n0\r\n\r\n");
    } else if (kind === 2) {
      draft.headers.push(["content-length", String(body.length + random.int(1, 50))]);
    } else if (kind === 3) {
      draft.headers.push(["content-length", String(Math.max(0, body.length - 5))]);
    } else if (kind === 4) {
      draft.headers.push(["content-length", String(body.length)], ["content-length", String(body.length + 1)]);
    } else if (kind === 5) {
      draft.headers.push(["content-length", String(body.length)], ["transfer-encoding", "chunked"]);
    } else if (kind === 6) {
      draft.method = random.pick(["GET /mcp HTTP/1.1 extra", "\u0000", "POST\t"]);
    } else {
      draft.headers.push(["content-length", String(body.length)], [random.pick(["bad header", "x:y", "\u00ff"]), "1"]);
    }
    return `framing ${kind}`;
  },
};

/**
 * One case of `family` (or of a family picked at random).
 * @example
 * const { bytes } = fuzzCase(random, port);
 */
export function fuzzCase(random: Random, port: number, family: Family = random.pick(FAMILIES)): FuzzCase {
  const draft = baseDraft(random, port);
  const what = bend[family](random, draft, port);
  const head = [`${draft.method} ${draft.target} HTTP/1.1`, ...draft.headers.map(([n, v]) => `${n}: ${v}`)];
  if (!draft.framed) head.push(`content-length: ${draft.body.length}`);
  head.push("connection: close");
  return { family, what, bytes: Buffer.concat([Buffer.from(`${head.join("\r\n")}\r\n\r\n`, "latin1"), draft.body]) };
}
