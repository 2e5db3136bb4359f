/**
 * What the fleet test (fleet.test.ts) needs beyond the servers: three real `mcp-host serve` instances of the fleet
 * fixture project sharing one Redis and one state key, tokens for its callers, modern calls made by hand (to count
 * every status), and a reader of server-sent events that waits for the event it is asked for.
 *
 * `FLEET_SHARING_OFF=redis` (events and the rate stay per instance) or `=stateKey` (each instance seals its own
 * requestState) writes the config without that sharing: the fleet test must then fail the tests that depend on it.
 * Only for showing that the test can fail; npm test never sets it.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createConnection, createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SignJWT } from "jose";
import { Agent, fetch as undiciFetch } from "undici";
import { type CliProcess, REPO, startCli } from "../helpers/cli-process.js";
import { type Cleanup, lastRpcMessage, modernHeaders } from "../helpers/http-host.js";

export const FLEET_PROJECT = join(REPO, "test", "fixtures", "fleet-project");
export const ISSUER = "https://issuer.fleet.example";
export const AUDIENCE = "https://mcp.fleet.example/mcp";
const HS256_SECRET = "fleet-test-hs256-secret-of-enough-bytes";
const STATE_KEY = "fleet-test-state-key-shared-by-every-instance";
/** A sharing the config leaves out, to show the fleet test fails without it (see above). */
const SHARING_OFF = process.env.FLEET_SHARING_OFF;
/** The configured rate: what the 200s of one caller must stay within. */
export const RATE = { perSecond: 5, burst: 20 };
const MODERN = "2026-07-28";
/** The fleet's task lease (`scaleOut.taskLeaseMs`, its least): a killed instance's task fails this long after its last renewal. */
export const TASK_LEASE_MS = 3_000;
/** The poll interval the fleet's tasks suggest (`tasks.pollIntervalMs`): the task checks poll at it. */
export const TASK_POLL_MS = 250;

/** Where nginx connects from (loopback); the test's own clients use other loopback addresses (127.0.0.2 on). */
export const NGINX_ADDRESS = "127.0.0.1";

/**
 * The fleet's config file: nginx as the one trusted proxy (`trustProxy`), auth unless `tokens: false` (each token's
 * subject its own caller; without tokens, each client address is), the rate limit, any further `http` lines, and
 * `scaleOut` with each instance's name, the Redis URL and the state key by reference.
 */
export function fleetConfig(cleanup: Cleanup, options: { tokens?: boolean; http?: string[]; rate?: { perSecond: number; burst: number } } = {}): string {
  const rate = options.rate ?? RATE;
  const dir = mkdtempSync(join(tmpdir(), "mcp-host-fleet-config-"));
  cleanup.add(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, "mcp-host.config.yaml");
  writeFileSync(
    file,
    [
      "http:",
      "  port: 0",
      `  trustProxy: [${NGINX_ADDRESS}]`,
      `  callerRequestsPerSecond: ${rate.perSecond}`,
      `  callerBurst: ${rate.burst}`,
      ...(options.http ?? []).map((line) => `  ${line}`),
      ...(options.tokens === false
        ? []
        : ["auth:", `  issuer: ${ISSUER}`, `  audience: ${AUDIENCE}`, "  hs256Secret: ${env:FLEET_HS256_SECRET}", "  algorithms: [HS256]"]),
      "logging: { access: false, audit: false }",
      // A short lease and poll interval, so the task checks see a killed instance's task fail within seconds.
      `tasks: { pollIntervalMs: ${TASK_POLL_MS} }`,
      "scaleOut:",
      "  instanceId: ${env:FLEET_INSTANCE}",
      `  taskLeaseMs: ${TASK_LEASE_MS}`,
      ...(SHARING_OFF === "redis" ? [] : ["  redis:", "    url: ${env:FLEET_REDIS_URL}"]),
      ...(SHARING_OFF === "stateKey" ? [] : ["  stateKey: ${env:FLEET_STATE_KEY}"]),
      "",
    ].join("\n"),
  );
  return file;
}

/** One running instance: its name, its own URL (past nginx) and its process. */
export interface Instance {
  id: string;
  url: URL;
  base: URL;
  cli: CliProcess;
}

/**
 * Starts the instance `id` of the fleet, with `scaleOut` as `options` says (the fleet test turns each sharing off to
 * show it fails).
 */
export async function startInstance(cleanup: Cleanup, config: string, id: string, redisUrl: string): Promise<Instance> {
  const cli = startCli(cleanup, ["serve", "--cwd", FLEET_PROJECT, "--config", config], {
    env: { FLEET_INSTANCE: id, FLEET_REDIS_URL: redisUrl, FLEET_STATE_KEY: STATE_KEY, FLEET_HS256_SECRET: HS256_SECRET },
  });
  const line = await cli.line(/is serving .* over MCP at /);
  const url = new URL(/over MCP at (\S+)/.exec(line)![1]!);
  return { id, url, base: new URL("/", url), cli };
}

/** A token for `subject` (each caller of the test has its own, so each has its own rate). */
export function tokenFor(subject: string): Promise<string> {
  return new SignJWT({})
    .setProtectedHeader({ alg: "HS256" })
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setSubject(subject)
    .setIssuedAt()
    .setExpirationTime("10m")
    .sign(new TextEncoder().encode(HS256_SECRET));
}

/** What a modern call came back with. */
export interface Answer {
  status: number;
  retryAfter: string | null;
  /** The JSON-RPC message of the answer (undefined for an empty body). */
  message: { result?: Record<string, unknown> & { content?: Array<{ text?: string }> }; error?: { code: number; message: string } } | undefined;
}

let nextId = 1;

function bearer(token: string | undefined): Record<string, string> {
  return token === undefined ? {} : { authorization: `Bearer ${token}` };
}

const agents = new Map<string, Agent>();

/**
 * `fetch` from the loopback address `from` (each its own client behind nginx), or from the default one. The agents
 * are closed by `closeClientAgents`.
 */
export function fetchFrom(from: string | undefined, url: URL, init: { method: string; headers: Record<string, string>; body?: string }): Promise<Response> {
  if (from === undefined) return fetch(url, init);
  let agent = agents.get(from);
  if (agent === undefined) {
    agent = new Agent({ localAddress: from });
    agents.set(from, agent);
  }
  return undiciFetch(url, { ...init, dispatcher: agent }) as unknown as Promise<Response>;
}

/** Closes every agent `fetchFrom` made. */
export async function closeClientAgents(): Promise<void> {
  const all = [...agents.values()];
  agents.clear();
  await Promise.all(all.map((agent) => agent.close()));
}

/** Who sends a request made by hand: a loopback source address, and headers of its own (a spoofed X-Forwarded-For). */
export interface Sender {
  from?: string;
  headers?: Record<string, string>;
}

/** A 2026-07-28 `tools/call` made by hand, so the test sees every status (a 429 included). */
export async function callModern(
  url: URL,
  token: string | undefined,
  name: string,
  args: Record<string, unknown> = {},
  params: Record<string, unknown> = {},
  sender: Sender = {},
): Promise<Answer> {
  const response = await fetchFrom(sender.from, url, {
    method: "POST",
    headers: { ...modernHeaders("tools/call", name), ...bearer(token), ...sender.headers },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: nextId++,
      method: "tools/call",
      params: {
        name,
        arguments: args,
        ...params,
        _meta: {
          "io.modelcontextprotocol/protocolVersion": MODERN,
          "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {} } },
          "io.modelcontextprotocol/clientInfo": { name: "fleet-test", version: "1" },
        },
      },
    }),
  });
  const text = await response.text();
  return { status: response.status, retryAfter: response.headers.get("retry-after"), message: text === "" ? undefined : lastRpcMessage(text) };
}

/** The text of a successful call's only content block; fails the test otherwise. */
export function textOf(answer: Answer): string {
  assert.equal(answer.status, 200, `expected 200, got ${answer.status}: ${JSON.stringify(answer.message)}`);
  const text = answer.message?.result?.content?.[0]?.text;
  assert.equal(typeof text, "string", `expected a text result: ${JSON.stringify(answer.message)}`);
  return text!;
}

/** A 2025-era `initialize` made by hand from `sender`: its status and the session it opened (if any). */
export async function initializeLegacy(url: URL, sender: Sender = {}): Promise<{ status: number; session: string | null; message: string }> {
  const response = await fetchFrom(sender.from, url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...sender.headers },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "fleet-legacy", version: "1" } },
    }),
  });
  const text = await response.text();
  return { status: response.status, session: response.headers.get("mcp-session-id"), message: text };
}

/** Runs `count` jobs, at most `concurrency` at once; resolves with their results in order. */
export async function inPool<T>(count: number, concurrency: number, job: (i: number) => Promise<T>): Promise<T[]> {
  const results = new Array<T>(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      results[i] = await job(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return results;
}

/** A server-sent event stream read as it comes; `next` waits for the first unread message a predicate accepts. */
export class EventReader {
  private readonly seen: unknown[] = [];
  private readonly waiters: Array<{ accepts: (message: any) => boolean; resolve: (message: any) => void }> = [];
  private ended = false;
  private failure: string | undefined;

  constructor(body: ReadableStream<Uint8Array>) {
    void this.read(body);
  }

  /** The first message (seen or still to come) that `accepts` takes, consumed; fails after `withinMs`. */
  next(accepts: (message: any) => boolean, withinMs = 10_000): Promise<any> {
    const at = this.seen.findIndex(accepts);
    if (at >= 0) return Promise.resolve(this.seen.splice(at, 1)[0]);
    if (this.ended) return Promise.reject(new Error(`the stream ended before the event came${this.failure ? `: ${this.failure}` : ""}`));
    return new Promise((resolve, reject) => {
      const waiter = { accepts, resolve };
      const timer = setTimeout(() => {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        reject(new Error(`no such event within ${withinMs} ms; seen: ${JSON.stringify(this.seen).slice(0, 2_000)}`));
      }, withinMs);
      waiter.resolve = (message) => {
        clearTimeout(timer);
        resolve(message);
      };
      this.waiters.push(waiter);
    });
  }

  private deliver(message: unknown): void {
    const waiter = this.waiters.find((w) => w.accepts(message));
    if (waiter === undefined) {
      this.seen.push(message);
      return;
    }
    this.waiters.splice(this.waiters.indexOf(waiter), 1);
    waiter.resolve(message);
  }

  private async read(body: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    let pending = "";
    try {
      for await (const chunk of body) {
        pending += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = pending.indexOf("\n\n")) >= 0) {
          const frame = pending.slice(0, end);
          pending = pending.slice(end + 2);
          const data = frame
            .split("\n")
            .filter((l) => l.startsWith("data:"))
            .map((l) => l.slice(5).trim())
            .join("\n");
          if (data !== "") this.deliver(JSON.parse(data));
        }
      }
    } catch (error) {
      this.failure = (error as Error).message;
    }
    this.ended = true;
  }
}

/**
 * Opens a 2026-07-28 `subscriptions/listen` stream following `uris` on `url`, and waits for its acknowledgement.
 * @example
 * const { events, close } = await listenModern(a.url, token, ["fleet://note"]);
 */
export async function listenModern(url: URL, token: string | undefined, uris: string[]): Promise<{ events: EventReader; close: () => void }> {
  const abort = new AbortController();
  const response = await fetch(url, {
    method: "POST",
    signal: abort.signal,
    headers: { ...modernHeaders("subscriptions/listen"), ...bearer(token) },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: `listen-${nextId++}`,
      method: "subscriptions/listen",
      params: {
        notifications: { resourceSubscriptions: uris, toolsListChanged: true },
        _meta: {
          "io.modelcontextprotocol/protocolVersion": MODERN,
          "io.modelcontextprotocol/clientCapabilities": {},
          "io.modelcontextprotocol/clientInfo": { name: "fleet-test", version: "1" },
        },
      },
    }),
  });
  assert.equal(response.status, 200, `listen on ${url.host}: ${response.status}`);
  const events = new EventReader(response.body!);
  await events.next((m) => m.method === "notifications/subscriptions/acknowledged");
  return { events, close: () => abort.abort() };
}

/** A 2025-era session made by hand on one instance, following `uri`, with its GET stream open; `close` ends it (DELETE). */
export async function legacySubscriber(
  url: URL,
  token: string | undefined,
  uri: string,
): Promise<{ id: string; events: EventReader; close: () => Promise<void> }> {
  const headers = { "content-type": "application/json", accept: "application/json, text/event-stream", ...bearer(token) };
  const init = await fetch(url, {
    method: "POST",
    headers,
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "fleet-legacy", version: "1" } },
    }),
  });
  await init.text();
  const id = init.headers.get("mcp-session-id");
  assert.ok(id, `initialize on ${url.host} opened a session (${init.status})`);
  const onSession = { ...headers, "mcp-session-id": id, "mcp-protocol-version": "2025-11-25" };
  const initialized = await fetch(url, { method: "POST", headers: onSession, body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) });
  await initialized.text();
  const subscribe = await fetch(url, {
    method: "POST",
    headers: onSession,
    body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "resources/subscribe", params: { uri } }),
  });
  const subscribed = lastRpcMessage(await subscribe.text());
  assert.deepEqual(subscribed.result, {}, `resources/subscribe on ${url.host}: ${JSON.stringify(subscribed)}`);
  const abort = new AbortController();
  const stream = await fetch(url, { method: "GET", signal: abort.signal, headers: { ...onSession, accept: "text/event-stream" } });
  assert.equal(stream.status, 200, `the session's GET stream on ${url.host}`);
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    abort.abort();
    await (await fetch(url, { method: "DELETE", headers: onSession })).text();
  };
  return { id, events: new EventReader(stream.body!), close };
}

/**
 * Opens a 2026-07-28 `subscriptions/listen` stream that follows `taskIds` (the tasks extension declared), and waits for
 * its acknowledgement.
 * @example
 * const { events, close } = await listenTasks(b.url, token, [taskId]);
 */
export async function listenTasks(url: URL, token: string | undefined, taskIds: string[]): Promise<{ events: EventReader; close: () => void }> {
  const abort = new AbortController();
  const response = await fetch(url, {
    method: "POST",
    signal: abort.signal,
    headers: { ...modernHeaders("subscriptions/listen"), ...bearer(token) },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: `listen-${nextId++}`,
      method: "subscriptions/listen",
      params: {
        notifications: { taskIds },
        _meta: {
          "io.modelcontextprotocol/protocolVersion": MODERN,
          "io.modelcontextprotocol/clientCapabilities": { extensions: { "io.modelcontextprotocol/tasks": {} } },
          "io.modelcontextprotocol/clientInfo": { name: "fleet-test", version: "1" },
        },
      },
    }),
  });
  assert.equal(response.status, 200, `listen on ${url.host}: ${response.status}`);
  const events = new EventReader(response.body!);
  const ack = await events.next((m) => m.method === "notifications/subscriptions/acknowledged");
  assert.deepEqual(ack.params?.notifications?.taskIds, taskIds, `the stream on ${url.host} follows the tasks: ${JSON.stringify(ack)}`);
  return { events, close: () => abort.abort() };
}

/**
 * A TCP relay on loopback between one instance and Redis that a test can cut and restore: the instance loses Redis
 * (its connections are closed, new ones refused) while Redis keeps its data and the other instances keep it.
 * @example
 * const proxy = await CutProxy.start(cleanup, redis.port); … proxy.cut(); … proxy.restore();
 */
export class CutProxy {
  private readonly sockets = new Set<Socket>();
  private open = true;

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(cleanup: Cleanup, redisPort: number): Promise<CutProxy> {
    let proxy: CutProxy | undefined;
    const server = createServer((client) => proxy!.relay(client, redisPort));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as { port: number }).port;
    proxy = new CutProxy(server, `redis://127.0.0.1:${port}`);
    cleanup.add(() => proxy!.close());
    return proxy;
  }

  /** Closes every relayed connection and refuses new ones until `restore`. */
  cut(): void {
    this.open = false;
    for (const socket of this.sockets) socket.destroy();
  }

  restore(): void {
    this.open = true;
  }

  private relay(client: Socket, redisPort: number): void {
    if (!this.open) {
      client.destroy();
      return;
    }
    const upstream = createConnection({ host: "127.0.0.1", port: redisPort });
    for (const [from, to] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      this.sockets.add(from);
      from.pipe(to);
      from.on("error", () => to.destroy());
      from.on("close", () => {
        this.sockets.delete(from);
        to.destroy();
      });
    }
  }

  private async close(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
