/**
 * What the HTTP serving tests share: a host served for real on 127.0.0.1:0, real MCP clients of both SDK
 * generations and both protocol eras connected to it, raw HTTP — with request headers and bodies of both eras — for
 * the edge cases no client will send, and one cleanup list per test so every client, session and server is closed
 * in afterEach (last opened, first closed).
 */
import assert from "node:assert/strict";
import { request as httpRequest, type RequestOptions } from "node:http";
import { urlToHttpOptions } from "node:url";
import { Client, StreamableHTTPClientTransport, type ClientOptions } from "@modelcontextprotocol/client";
import { Client as V1Client, type ClientOptions as V1ClientOptions } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as V1Transport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { buildHost } from "../../src/host/build-host.js";
import type { McpHost } from "../../src/host/host.js";
import type { HostOptions } from "../../src/host/host-options.js";
import type { ServerFactory } from "../../src/host/built-server.js";
import type { McpExtension } from "../../src/extension/types.js";
import { listenHost, type ListeningHost, type ListenOptions } from "../../src/http/listen.js";
import { memoryLogger, type LogRecord } from "../../src/logger.js";
import { Cleanup } from "./cleanup.js";

export { Cleanup };

export interface ServedHost {
  host: McpHost;
  served: ListeningHost;
  /** The MCP endpoint, e.g. http://127.0.0.1:41234/mcp */
  url: URL;
  baseUrl: URL;
  /** What the host logged. */
  records: LogRecord[];
  /** The endpoint with a query: `at("only=x")`. */
  at(query: string): URL;
}

/** Builds, starts and serves a host over `extensions` on 127.0.0.1:0; closed by `cleanup`. */
export async function serveHost(
  cleanup: Cleanup,
  extensions: readonly McpExtension[],
  options: { host?: Partial<HostOptions>; http?: ListenOptions } = {},
): Promise<ServedHost> {
  const { logger, records } = memoryLogger();
  const host = buildHost(extensions, { name: "test-host", version: "1.2.3", logger, listChangedDebounceMs: 5, ...options.host });
  await host.start();
  const served = await listenHost(host, { port: 0, host: "127.0.0.1", ...options.http });
  cleanup.add(() => {
    // The test's requests are over: idle keep-alive sockets go now rather than after the shutdown's grace for a
    // request on its way (1 s of real time per served host; graceful-shutdown.test.ts covers the grace itself).
    served.http.closeIdleConnections();
    return served.close();
  });
  const at = (query: string) => new URL(`${served.url.href}${query ? `?${query}` : ""}`);
  return { host, served, url: served.url, baseUrl: served.baseUrl, records, at };
}

export type V2Era = "legacy" | "modern" | "auto";

/** The v2 client options for an era: the default legacy handshake, pinned 2026-07-28, or the `auto` probe. */
export function eraOptions(era: V2Era): Pick<ClientOptions, "versionNegotiation"> {
  if (era === "modern") return { versionNegotiation: { mode: { pin: "2026-07-28" } } };
  if (era === "auto") return { versionNegotiation: { mode: "auto" } };
  return {};
}

export interface V2Connection {
  client: Client;
  transport: StreamableHTTPClientTransport;
}

/** Connects an SDK v2 client in `era` to `url`; closed by `cleanup`. */
export async function connectV2(
  cleanup: Cleanup,
  url: URL,
  era: V2Era,
  options: { clientOptions?: ClientOptions; headers?: Record<string, string>; name?: string; setup?: (client: Client) => void } = {},
): Promise<V2Connection> {
  const client = new Client({ name: options.name ?? `v2-${era}`, version: "1.0.0" }, { ...eraOptions(era), ...options.clientOptions });
  options.setup?.(client);
  const transport = new StreamableHTTPClientTransport(url, options.headers ? { requestInit: { headers: options.headers } } : {});
  await client.connect(transport);
  cleanup.add(async () => {
    // A legacy session is ended as a well-behaved client would (DELETE), so the server has nothing left open.
    if (transport.sessionId !== undefined) await transport.terminateSession().catch(() => {});
    await client.close();
  });
  return { client, transport };
}

export interface V1Connection {
  client: V1Client;
  transport: V1Transport;
}

/** Connects an SDK v1 (2025, sessionful) client to `url`; its session is ended and it is closed by `cleanup`. */
export async function connectV1(
  cleanup: Cleanup,
  url: URL,
  options: {
    capabilities?: Record<string, unknown>;
    headers?: Record<string, string>;
    listChanged?: V1ClientOptions["listChanged"];
    setup?: (client: V1Client) => void;
  } = {},
): Promise<V1Connection> {
  const client = new V1Client(
    { name: "v1-client", version: "1.32.2" },
    { capabilities: (options.capabilities ?? {}) as never, ...(options.listChanged ? { listChanged: options.listChanged } : {}) },
  );
  options.setup?.(client);
  const transport = new V1Transport(url, options.headers ? { requestInit: { headers: options.headers } } : {});
  await client.connect(transport);
  cleanup.add(async () => {
    await transport.terminateSession().catch(() => {});
    await client.close();
  });
  return { client, transport };
}

/** What every MCP client can do that the tests need: list and call tools. */
export interface ToolClient {
  listTools(): Promise<{ tools: Array<{ name: string }> }>;
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<unknown>;
}

/** The tool names a client lists, in the order it got them. */
export async function listedTools(client: ToolClient): Promise<string[]> {
  return (await client.listTools()).tools.map((t) => t.name);
}

/** Calls a tool and returns its single text block; fails on an isError result. */
export async function callText(client: ToolClient, name: string, args: Record<string, unknown> = {}): Promise<string> {
  const result = (await client.callTool({ name, arguments: args })) as { content?: Array<{ type: string; text?: string }>; isError?: boolean };
  assert.notEqual(result.isError, true, `tool "${name}" failed: ${JSON.stringify(result)}`);
  assert.equal(result.content?.length, 1, `expected one content block from "${name}": ${JSON.stringify(result)}`);
  assert.equal(result.content[0]!.type, "text");
  return result.content[0]!.text!;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The body as JSON (or the first `data:` event of an SSE body); undefined when it is neither. */
  json: any;
}

function parseBody(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    const data = text.split("\n").find((line) => line.startsWith("data: "));
    if (!data) return undefined;
    try {
      return JSON.parse(data.slice("data: ".length));
    } catch {
      return undefined;
    }
  }
}

/**
 * The JSON-RPC answer in a POST's body: the body itself when it is JSON, else the last `data:` event of its SSE
 * stream (the answer comes after any requests the server sent first); `{}` when there is none.
 * @example const answer = lastRpcMessage(await (await fetch(url, init)).text());
 */
export function lastRpcMessage(text: string): any {
  const data = text.startsWith("{")
    ? text
    : (text
        .split("\n")
        .filter((l) => l.startsWith("data:"))
        .map((l) => l.slice(5))
        .pop() ?? "{}");
  return JSON.parse(data);
}

/**
 * Sends one request with node:http as given (no agent, so no connection is reused) and reads the answer to the end.
 * @example await exchange({ host: "127.0.0.1", port, path: "http://127.0.0.1:1234/mcp", method: "GET" })
 */
export function exchange(options: RequestOptions, body?: string | Buffer): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ ...options, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: parseBody(text) });
      });
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}

/**
 * One HTTP request with exactly these headers (node:http, so Host and Origin can be anything), read to the end.
 * @example await raw({ url, method: "POST", headers: { "content-type": "application/json" }, body: "{" })
 */
export function raw(options: { url: URL; method?: string; headers?: Record<string, string>; body?: string | Buffer }): Promise<RawResponse> {
  return exchange({ ...urlToHttpOptions(options.url), method: options.method ?? "GET", headers: options.headers ?? {} }, options.body);
}

/** Headers a 2025-era client sends with a POST. */
export const LEGACY_POST_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" } as const;

/** A 2025-era `initialize` request body. */
export function legacyInitialize(id = 1, capabilities: Record<string, unknown> = {}): string {
  return JSON.stringify({
    jsonrpc: "2.0",
    id,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities, clientInfo: { name: "raw-client", version: "1.0.0" } },
  });
}

/**
 * Headers of a 2026-07-28 POST for `method` (and `name`, for tools/call).
 * @example await raw({ url, method: "POST", headers: modernHeaders("tools/call", "echo"), body: modernBody("tools/call", { name: "echo", arguments: {} }) })
 */
export function modernHeaders(method: string, name?: string): Record<string, string> {
  return {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": "2026-07-28",
    "mcp-method": method,
    ...(name === undefined ? {} : { "mcp-name": name }),
  };
}

const MODERN_META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
};

/**
 * A 2026-07-28 request body (protocol version, capabilities and client info in `_meta`).
 * @example modernBody("tools/list")
 */
export function modernBody(method: string, params: Record<string, unknown> = {}, id = 1): string {
  return JSON.stringify({ jsonrpc: "2.0", id, method, params: { ...params, _meta: MODERN_META } });
}

/**
 * A 2025-era request body on a session.
 * @example legacyBody("tools/call", { name: "echo", arguments: {} })
 */
export function legacyBody(method: string, params: Record<string, unknown> = {}, id = 2): string {
  return JSON.stringify({ jsonrpc: "2.0", id, method, params });
}

/** Posts a 2025-era initialize over raw HTTP; returns the response (its `mcp-session-id` header names the session). */
export function rawLegacyInitialize(url: URL, headers: Record<string, string> = {}): Promise<RawResponse> {
  return raw({ url, method: "POST", headers: { ...LEGACY_POST_HEADERS, ...headers }, body: legacyInitialize() });
}

/** Posts a 2025-era tools/list on an existing session. */
export function rawLegacyToolsList(url: URL, sessionId: string): Promise<RawResponse> {
  return raw({
    url,
    method: "POST",
    headers: { ...LEGACY_POST_HEADERS, "mcp-session-id": sessionId, "mcp-protocol-version": "2025-11-25" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list", params: {} }),
  });
}

/** A promise with its resolve function, for waiting on an event instead of sleeping. */
export function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** The text of a tool result that must be an error result. */
export function errorText(result: unknown): string {
  const r = result as { content?: Array<{ type: string; text?: string }>; isError?: boolean };
  assert.equal(r.isError, true, `expected an isError result, got ${JSON.stringify(result)}`);
  assert.equal(r.content?.[0]?.type, "text");
  return r.content![0]!.text!;
}

/**
 * A serverFactory that notes each 2025-era GET stream the SDK opens (its 200 headers are written only after the
 * session transport has registered the stream), so a test can wait until a legacy client can be told something
 * instead of sleeping. `inner` wraps the handler further when a test needs its own middleware too.
 */
export function watchLegacyStreams(inner?: ServerFactory): { serverFactory: ServerFactory; opened(count: number): Promise<void> } {
  let count = 0;
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  const serverFactory: ServerFactory = (parts) => {
    const handler = inner ? inner(parts) : parts.handler;
    return (req, res, next) => {
      if (req.method === "GET" && req.headers["mcp-session-id"] !== undefined) {
        const writeHead = res.writeHead;
        res.writeHead = function (this: typeof res, ...args: Parameters<typeof res.writeHead>) {
          const result = writeHead.apply(this, args);
          if (res.statusCode === 200) {
            count += 1;
            for (const w of waiters.filter((w) => w.count <= count)) w.resolve();
          }
          return result;
        } as typeof res.writeHead;
      }
      return handler(req, res, next);
    };
  };
  return {
    serverFactory,
    opened: (wanted) => (count >= wanted ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ count: wanted, resolve }))),
  };
}
