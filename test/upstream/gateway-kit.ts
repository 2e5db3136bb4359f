/**
 * What the gateway tests share: server entries for the real upstreams (the v1-SDK and v2-SDK fixture servers over
 * stdio, server-everything over stdio), a host serving `createGateway(…)` beside other extensions on 127.0.0.1:0,
 * its log with a way to wait for a line, and a check that no upstream process outlives the test.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/client";
import type { McpExtension } from "../../src/extension/types.js";
import type { HostOptions } from "../../src/host/host-options.js";
import { buildHost } from "../../src/host/build-host.js";
import type { McpHost } from "../../src/host/host.js";
import { listenHost, type ListeningHost, type ListenOptions } from "../../src/http/listen.js";
import { createLogger, type LogRecord } from "../../src/logger.js";
import { createGateway, type Gateway, type GatewayOptions, type GatewayServerConfig } from "../../src/upstream/index.js";
import type { FixtureConfig } from "../fixtures/upstream/legacy-behaviours.mjs";
import { connectV1, connectV2, deferred, watchLegacyStreams, type Cleanup, type ToolClient } from "../helpers/http-host.js";
import { EVERYTHING, EVERYTHING_OFFER, FIXTURES } from "../helpers/registry/harness.js";
import { descendants } from "../helpers/processes.js";

/** A 2025-era (v1 SDK) fixture server over stdio. */
export function legacyServer(name: string, config: FixtureConfig = {}, extra: GatewayServerConfig = {}): GatewayServerConfig {
  return { command: process.execPath, args: [join(FIXTURES, "legacy-stdio.mjs"), JSON.stringify({ name, ...config })], ...extra };
}

/** The dual-era v2 fixture over stdio, spoken to in 2026-07-28 (its questions arrive as `input_required`). */
export function modernServer(name: string, config: { extraTools?: string[] } = {}, extra: GatewayServerConfig = {}): GatewayServerConfig {
  return { command: process.execPath, args: [join(FIXTURES, "modern-stdio.mjs"), JSON.stringify({ name, ...config })], era: "modern", ...extra };
}

/**
 * What server-everything offers the gateway, sorted: its tools, plus those it adds for a client that declares
 * sampling, elicitation (form) and roots — which the gateway does, to relay them to its own clients.
 */
export const EVERYTHING_TOOLS = [...EVERYTHING_OFFER.tools, "get-roots-list", "trigger-elicitation-request", "trigger-sampling-request"].sort();

/** @modelcontextprotocol/server-everything over stdio, from node_modules. */
export function everythingServer(extra: GatewayServerConfig = {}): GatewayServerConfig {
  return { command: process.execPath, args: [EVERYTHING, "stdio"], ...extra };
}

export interface ServedGateway {
  gateway: Gateway;
  host: McpHost;
  served: ListeningHost;
  url: URL;
  at(query: string): URL;
  records: LogRecord[];
  /** Resolves once `count` 2025-era GET streams are open (a legacy client can be told of changes from then on). */
  legacyStreams(count: number): Promise<void>;
  /** Resolves with the first record that matches, logged already or from now on (bounded: fails saying what never came). */
  logged(match: (record: LogRecord) => boolean, what: string): Promise<LogRecord>;
}

const LOG_WAIT_MS = 15_000;

/** Starts a host over the gateway (and `extensions`) and serves it; closed (and every upstream with it) by `cleanup`. */
export async function serveGateway(
  cleanup: Cleanup,
  options: Omit<GatewayOptions, "logger">,
  more: { extensions?: McpExtension[]; host?: Partial<HostOptions>; http?: ListenOptions } = {},
): Promise<ServedGateway> {
  const records: LogRecord[] = [];
  const waiters = new Set<(record: LogRecord) => void>();
  const logger = createLogger({
    level: "debug",
    sink: (record) => {
      records.push(record);
      for (const waiter of [...waiters]) waiter(record);
    },
  });
  const gateway = createGateway({ ...options, logger });
  const streams = watchLegacyStreams(more.host?.serverFactory);
  const host = buildHost([gateway.extension, ...(more.extensions ?? [])], {
    name: "gateway-host",
    logger,
    listChangedDebounceMs: 5,
    ...more.host,
    serverFactory: streams.serverFactory,
  });
  await host.start();
  const served = await listenHost(host, { port: 0, host: "127.0.0.1", ...more.http });
  cleanup.add(async () => {
    await served.close();
    assertNoUpstreamLeft();
  });
  const logged = (match: (record: LogRecord) => boolean, what: string) => {
    const past = records.find(match);
    if (past) return Promise.resolve(past);
    const found = deferred<LogRecord>();
    const bound = setTimeout(() => {
      waiters.delete(waiter);
      found.resolve({ level: "error", prefix: [], message: `never logged: ${what}` });
    }, LOG_WAIT_MS);
    const waiter = (record: LogRecord) => {
      if (!match(record)) return;
      clearTimeout(bound);
      waiters.delete(waiter);
      found.resolve(record);
    };
    waiters.add(waiter);
    return found.promise.then((record) => {
      assert.notEqual(record.message, `never logged: ${what}`, `${what} was never logged`);
      return record;
    });
  };
  return {
    gateway,
    host,
    served,
    url: served.url,
    at: (query) => new URL(`${served.url.href}${query ? `?${query}` : ""}`),
    records,
    legacyStreams: (count) => streams.opened(count),
    logged,
  };
}

/** A client that counts the tools/list_changed notifications it gets and re-lists when told. */
export interface Listener {
  label: string;
  client: ToolClient;
  told(): number;
  /** The tool names the client re-listed when it was first told. */
  firstTold: Promise<string[]>;
}

/** A listening client of `kind` (v2 pinned 2026-07-28, v2 default 2025 handshake, or the v1 SDK) on `url`. */
export async function listener(cleanup: Cleanup, url: URL, kind: "modern" | "legacy" | "v1"): Promise<Listener> {
  let count = 0;
  const first = deferred<string[]>();
  const tools = {
    debounceMs: 0,
    onChanged: (error: Error | null, listed: Array<{ name: string }> | null) => {
      count += 1;
      first.resolve(error ? [`error: ${error.message}`] : (listed ?? []).map((t) => t.name).sort());
    },
  };
  const client =
    kind === "v1"
      ? (await connectV1(cleanup, url, { listChanged: { tools } })).client
      : (await connectV2(cleanup, url, kind, { name: kind, clientOptions: { listChanged: { tools } } })).client;
  return { label: kind, client, told: () => count, firstTold: first.promise };
}

/** Every upstream fixture or server-everything process this test process started is gone. */
export function assertNoUpstreamLeft(): void {
  const left = descendants().filter((p) => p.cmd.includes("legacy-stdio.mjs") || p.cmd.includes("modern-stdio.mjs") || p.cmd.includes("server-everything"));
  assert.deepEqual(
    left.map((p) => p.cmd),
    [],
    "no upstream process outlives the gateway",
  );
}

/** The text of a tool result's first block (asserting it is not an error). */
export function textOf(result: unknown): string {
  const r = result as { content?: Array<{ type: string; text?: string }>; isError?: boolean };
  assert.notEqual(r.isError, true, `unexpected error result: ${JSON.stringify(result)}`);
  return r.content?.[0]?.text ?? "";
}

/** Sorted tool names a v2 client lists. */
export async function toolNames(client: Pick<Client, "listTools">): Promise<string[]> {
  return (await client.listTools()).tools.map((t) => t.name).sort();
}

/** The server name a fixture's `argv` tool reports (its config is its first argument). */
export function argvServer(result: unknown): string {
  return (JSON.parse(JSON.parse(textOf(result))[0]) as { name: string }).name;
}

/** A line a stdio upstream wrote to its stderr (the registry logs it under `[server] [stderr]`). */
export function stderrOf(server: string, line: string): (record: LogRecord) => boolean {
  return (r) => r.prefix.slice(-2).join("/") === `${server}/stderr` && r.message === line;
}
