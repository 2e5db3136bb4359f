// Every answer the gateway reads from an upstream is read in linear time and bounded (issue 30 §1, §3): a 16 MiB SSE
// `data:` line, a 300 MiB JSON body and a 300 MiB stdio line — forwarded, and through an SDK client round (a tool with
// an outputSchema) — each become an isError naming the limit, the tool and the server (never the URL), while this
// process, which serves the host, keeps its event loop free and /healthz answering, and its memory grows by far less
// than the answer. Answers nested past maxJsonDepth are refused unparsed; answers to one request sent on another's
// stream are ignored. The unruly upstreams (test/fixtures/upstream/unruly-*.mjs) write their bodies as streams.
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { Client } from "@modelcontextprotocol/client";
import { startUnrulyHttp, unrulyStdio, type ServingFigures, watchServing } from "../../bench/lib/unruly-upstream.js";
import { Cleanup } from "../helpers/cleanup.js";
import { connectV2 } from "../helpers/http-host.js";
import type { GatewayServerConfig } from "../../src/upstream/index.js";
import { serveGateway, type ServedGateway } from "./gateway-kit.js";

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

const MIB = 1 << 20;
const KEY = "unruly-api-key-5c1f";
/** What the upstreams may take: far longer than any answer here needs, so an answer that never comes shows as a hang. */
const LONG_MS = 120_000;
/**
 * The serving process while a huge answer arrives: the quadratic reader this replaced blocked the loop for seconds
 * (2.9 s, /healthz 4.3 s for the 16 MiB line on this machine; 11 s for the 300 MiB JSON of an SDK round), so these
 * bounds fail it clearly and still leave a loaded two-core machine room.
 */
const LOOP_MAX_MS = 1_000;
const HEALTHZ_MAX_MS = 2_000;
/** Memory: the reader holds at most one answer's limit (10 MiB); the old one grew by 229 MiB (16 MiB line) and 1.2 GiB (300 MiB). */
const RSS_GROWTH_MAX = 64 * MIB;

interface Served {
  gateway: ServedGateway;
  web: Client;
  pipe: Client;
}

async function serve(extra: { maxJsonDepth?: number } = {}): Promise<Served> {
  const web = await startUnrulyHttp((stop) => cleanup.add(stop));
  const servers: Record<string, GatewayServerConfig> = {
    web: { url: web.url, era: "legacy", headers: { "X-Api-Key": KEY }, timeoutMs: LONG_MS },
    pipe: { ...unrulyStdio(KEY), timeoutMs: LONG_MS },
  };
  // undici loaded first: an HTTP connection forwards from its second call on (its first runs a client round).
  await import("undici");
  const gateway = await serveGateway(cleanup, { servers, ...extra });
  const client = async (server: string) => {
    const connected = (await connectV2(cleanup, gateway.at(`only=${server}`), "legacy")).client;
    await connected.callTool({ name: "echo", arguments: { text: "warm" } });
    return connected;
  };
  return { gateway, web: await client("web"), pipe: await client("pipe") };
}

interface Outcome {
  isError: boolean;
  code: unknown;
  text: string;
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<Outcome> {
  const result = (await client.callTool({ name, arguments: args }, { timeout: LONG_MS })) as {
    isError?: boolean;
    content?: Array<{ text?: string }>;
    _meta?: Record<string, { code?: unknown } | undefined>;
  };
  return { isError: result.isError === true, code: result._meta?.["mcp-host/error"]?.code, text: result.content?.map((c) => c.text ?? "").join("\n") ?? "" };
}

/** Calls while watching this process (the host's); returns the outcome and what the watch saw. */
async function watched(served: Served, client: Client, name: string, args: Record<string, unknown>): Promise<{ outcome: Outcome; seen: ServingFigures }> {
  const watch = watchServing(new URL("/healthz", served.gateway.url));
  const outcome = await call(client, name, args);
  return { outcome, seen: await watch.stop() };
}

function assertResponsive(seen: ServingFigures, what: string): void {
  const figures = `loop max ${Math.round(seen.loopMaxMs)} ms, /healthz max ${Math.round(seen.healthzMaxMs)} ms over ${seen.healthzCount}, RSS ${Math.round(seen.rssStart / MIB)} → ${Math.round(seen.rssPeak / MIB)} MiB`;
  assert.ok(seen.loopMaxMs < LOOP_MAX_MS, `${what}: the event loop was blocked ${Math.round(seen.loopMaxMs)} ms (${figures})`);
  assert.ok(seen.healthzMaxMs < HEALTHZ_MAX_MS, `${what}: /healthz took ${Math.round(seen.healthzMaxMs)} ms (${figures})`);
  assert.equal(seen.healthzFailed, 0, `${what}: /healthz failed (${figures})`);
  assert.ok(seen.rssPeak - seen.rssStart < RSS_GROWTH_MAX, `${what}: RSS grew by ${Math.round((seen.rssPeak - seen.rssStart) / MIB)} MiB (${figures})`);
}

function assertTooLarge(outcome: Outcome, tool: string, server: string): void {
  assert.equal(outcome.isError, true, outcome.text.slice(0, 300));
  assert.equal(outcome.code, "MCP_ANSWER_TOO_LARGE", outcome.text.slice(0, 300));
  assert.equal(
    outcome.text,
    `tool "${tool}" on server "${server}" failed: the answer is larger than the 8388608 bytes a result may take (maxResultBytes); it was given up after 10485760 bytes, unread`,
  );
  assert.doesNotMatch(outcome.text, /127\.0\.0\.1|http:/);
}

describe("huge answers: read in linear time, given up past the limit", { timeout: 600_000 }, () => {
  it("a forwarded call answered by a 16 MiB SSE line, or a 300 MiB JSON body", async () => {
    const served = await serve();
    const sse = await watched(served, served.web, "text", { bytes: 16 * MIB, via: "sse" });
    assertResponsive(sse.seen, "16 MiB SSE line");
    assertTooLarge(sse.outcome, "text", "web");
    const json = await watched(served, served.web, "text", { bytes: 300 * MIB, via: "json" });
    assertResponsive(json.seen, "300 MiB JSON body");
    assertTooLarge(json.outcome, "text", "web");
    // The connection stays usable: the next call is answered.
    assert.deepEqual(await call(served.web, "echo", { text: "still here" }), { isError: false, code: undefined, text: "still here" });
  });

  it("an SDK client round (a tool with an outputSchema) answered the same ways", async () => {
    const served = await serve();
    const sse = await watched(served, served.web, "checked_text", { bytes: 16 * MIB, via: "sse" });
    assertResponsive(sse.seen, "16 MiB SSE line, SDK round");
    assertTooLarge(sse.outcome, "checked_text", "web");
    const json = await watched(served, served.web, "checked_text", { bytes: 300 * MIB, via: "json" });
    assertResponsive(json.seen, "300 MiB JSON body, SDK round");
    assertTooLarge(json.outcome, "checked_text", "web");
    assert.deepEqual(await call(served.web, "echo", { text: "still here" }), { isError: false, code: undefined, text: "still here" });
  });

  it("a stdio upstream writing a 300 MiB line, forwarded and through an SDK round", async () => {
    const served = await serve();
    const forwarded = await watched(served, served.pipe, "text", { bytes: 300 * MIB });
    assertResponsive(forwarded.seen, "300 MiB stdio line");
    assertTooLarge(forwarded.outcome, "text", "pipe");
    const round = await watched(served, served.pipe, "checked_text", { bytes: 300 * MIB });
    assertResponsive(round.seen, "300 MiB stdio line, SDK round");
    assertTooLarge(round.outcome, "checked_text", "pipe");
    // The line after the huge one is read as the next message, not as the huge line's tail.
    assert.deepEqual(await call(served.pipe, "echo", { text: "next line" }), { isError: false, code: undefined, text: "next line" });
  });

  it("answers within the limit still pass whole, on every path", async () => {
    const served = await serve();
    for (const [client, server, via] of [
      [served.web, "web", "sse"],
      [served.web, "web", "json"],
      [served.pipe, "pipe", undefined],
    ] as const) {
      for (const tool of ["text", "checked_text"]) {
        const outcome = await call(client, tool, { bytes: 6 * MIB, ...(via ? { via } : {}) });
        assert.equal(outcome.isError, false, `${server} ${tool} ${via ?? ""}: ${outcome.text.slice(0, 200)}`);
        assert.equal(outcome.text.length, 6 * MIB);
      }
    }
  });
});

describe("deep answers: refused unparsed past maxJsonDepth", { timeout: 300_000 }, () => {
  const depthMessage = (tool: string, server: string) =>
    `tool "${tool}" on server "${server}" failed: the answer nests deeper than 64 levels (maxJsonDepth); it was refused unread`;

  it("forwarded (SSE, JSON, stdio) and through an SDK round", async () => {
    const served = await serve();
    const cases = [
      [served.web, "web", "deep", { depth: 100, via: "sse" }],
      [served.web, "web", "deep", { depth: 100, via: "json" }],
      [served.web, "web", "checked_deep", { depth: 100, via: "sse" }],
      [served.web, "web", "checked_deep", { depth: 100, via: "json" }],
      [served.pipe, "pipe", "deep", { depth: 100 }],
      [served.pipe, "pipe", "checked_deep", { depth: 100 }],
    ] as const;
    for (const [client, server, tool, args] of cases) {
      const outcome = await call(client, tool, args);
      assert.deepEqual(outcome, { isError: true, code: "MCP_ANSWER_TOO_DEEP", text: depthMessage(tool, server) }, `${server} ${tool} ${JSON.stringify(args)}`);
    }
    // Just within the limit (structuredContent 56 deep is 64 with the envelope and the credential's object): passed.
    const within = await call(served.web, "deep", { depth: 56 });
    assert.equal(within.isError, false, within.text);
  });

  it("with the limit raised, an upstream's credential nested 150 deep is still redacted", async () => {
    const served = await serve({ maxJsonDepth: 200 });
    for (const via of ["sse", "json"]) {
      const result = await served.web.callTool({ name: "deep", arguments: { depth: 150, via } }, { timeout: LONG_MS });
      assert.equal(result.isError, undefined, JSON.stringify(result).slice(0, 300));
      const text = JSON.stringify(result);
      assert.ok(!text.includes(KEY), `the upstream's credential reached the caller (${via})`);
      assert.ok(text.includes('{"key":"<redacted>"}'), `the redacted credential is where it was (${via})`);
    }
  });
});

describe("an answer is taken only from its own request's stream", { timeout: 120_000 }, () => {
  /**
   * Two `swap` calls at once: whichever reaches the fixture first gets its own answer on its stream, after one forged
   * for the other; the other's real answer is held until `release`. By the time the first is answered, the forged
   * answer has gone by on the same stream.
   */
  async function swapped(client: Client, tool: string): Promise<string[]> {
    const calls = [call(client, tool, { partnerMs: LONG_MS, hold: true }), call(client, tool, { partnerMs: LONG_MS, hold: true })];
    await Promise.race(calls);
    assert.equal((await call(client, "release", {})).text, "released 1");
    return (await Promise.all(calls)).map((o) => o.text).sort();
  }

  it("forwarded: an answer to another request, sent first on this one's stream, is ignored (and logged at debug)", async () => {
    const served = await serve();
    assert.deepEqual(await swapped(served.web, "swap"), ["first", "second"]);
    await served.gateway.logged((r) => r.message === "an answer to another request arrived on a forwarded request's stream; ignored", "the ignored answer");
  });

  it("through an SDK client round: the same", async () => {
    const served = await serve();
    assert.deepEqual(await swapped(served.web, "checked_swap"), ["first", "second"]);
    await served.gateway.logged((r) => r.message === "an answer to another request arrived on a request's stream; ignored", "the ignored answer");
  });
});
