// A bounded memory soak (docs/design.md §16) of the real `mcp-host serve`: rounds of mixed traffic — 2025-era sessions
// opened, subscribed, used and ended, 2026-07-28 calls of every kind and listen streams opened and dropped, requests
// that are refused — with the server's RSS read after each, and every structure a client can make the host keep
// (sessions, their subscriptions, the callers' tables, listen streams, selection endpoints: `mcp_host_held_entries`
// on /metrics) counted after each: back where it started once the round's clients are gone. The main thread's heap is capped (--max-old-space-size=192; the host needs ~30 MB), so memory that
// grows with the traffic ends as a crash, not as a number; RSS — which also holds the isolated tools' worker heaps,
// grown lazily up to their own limits — must stay within a bound once warm. Prints RSS per round.
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { Cleanup } from "../helpers/cleanup.js";
import { exchange } from "./kit/exchange.js";
import { fuzzCase } from "./kit/fuzz-cases.js";
import { endSession, messageOf, modernCall, openSession, sessionCall, sessionRequest } from "./kit/mcp-requests.js";
import { figure, mib } from "./kit/report.js";
import { scaled } from "./kit/scale.js";
import { seededRandom } from "./kit/seed.js";
import { serveCli, type ServedCli } from "./kit/served.js";

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

const ROUNDS = scaled(8, 40);
const WARM_ROUNDS = 3;

/** Every `mcp_host_held_entries` series on /metrics, by structure. */
async function heldEntries(served: ServedCli): Promise<Record<string, number>> {
  const text = await (await fetch(new URL("/metrics", served.baseUrl))).text();
  const held: Record<string, number> = {};
  for (const match of text.matchAll(/^mcp_host_held_entries\{structure="([^"]+)"\} (\d+)$/gm)) held[match[1]!] = Number(match[2]);
  return held;
}

/** A modern listen stream (following the steady resource), held open until `close`. */
async function listen(served: ServedCli): Promise<() => void> {
  const controller = new AbortController();
  const response = await fetch(served.url, {
    method: "POST",
    signal: controller.signal,
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "subscriptions/listen",
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "subscriptions/listen",
      params: {
        notifications: { toolsListChanged: true, resourceSubscriptions: ["steady://readme"] },
        _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} },
      },
    }),
  });
  assert.equal(response.status, 200);
  const reader = response.body!.getReader();
  await reader.read();
  return () => controller.abort();
}

async function round(served: ServedCli, random: ReturnType<typeof seededRandom>): Promise<number> {
  let requests = 0;
  const streams = await Promise.all(Array.from({ length: 6 }, () => listen(served)));
  requests += streams.length;
  await Promise.all(
    Array.from({ length: 10 }, async () => {
      const { id } = await openSession(served.url);
      assert.ok(id);
      const subscribed = await sessionRequest(served.url, id, "resources/subscribe", { uri: "steady://readme" });
      assert.equal(subscribed.status, 200);
      await subscribed.arrayBuffer();
      for (let i = 0; i < 5; i++) assert.equal((await sessionCall(served.url, id, "echo", { text: `s${i}` })).status, 200);
      assert.equal(await endSession(served.url, id), 200);
      requests += 8;
    }),
  );
  await Promise.all(
    Array.from({ length: 8 }, async (_, w) => {
      for (let i = 0; i < 25; i++) {
        const [name, args] = i % 3 === 0 ? ["text_stats", { text: "word ".repeat(200) }] : ["echo", { text: `m${w}-${i}` }];
        const answer = await messageOf(await modernCall(new URL("?only=steady,text", served.url), name as string, args));
        assert.equal(answer.result.isError, undefined);
        requests += 1;
      }
    }),
  );
  for (let i = 0; i < 50; i++) {
    await exchange(served.port, fuzzCase(random, served.port, random.pick(["body", "jsonrpc", "encoding", "charset", "header"] as const)).bytes, 10_000);
    requests += 1;
  }
  for (const close of streams) close();
  return requests;
}

/**
 * What may stay once a round's clients are gone: selection endpoints by design (one per selection served, bounded like
 * the build cache), and the sessions the fuzz opened and never ended (they expire after the idle TTL; all come from
 * this one address, so its share bounds them). Everything else is back where it started.
 */
const BOUNDS: Record<string, number> = { selection_endpoints: 256, legacy_sessions: 100, session_callers: 1 };

/** The held entries once nothing is above `idle` any more, or after a bounded wait, whichever comes first. */
async function settledHeld(served: ServedCli, idle: Record<string, number>): Promise<Record<string, number>> {
  let held = await heldEntries(served);
  for (let i = 0; i < 100 && Object.entries(held).some(([k, v]) => v > (BOUNDS[k] ?? idle[k] ?? 0)); i++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    held = await heldEntries(served);
  }
  return held;
}

describe("a bounded memory soak", { timeout: 300_000 }, () => {
  it(`keeps the server's memory flat over ${ROUNDS} rounds of mixed traffic`, async () => {
    const random = seededRandom();
    const served = await serveCli(cleanup, "http:\n  headersTimeoutMs: 1000\n  requestTimeoutMs: 2000\nmetrics: {}\n", [], {
      NODE_OPTIONS: "--max-old-space-size=192",
    });
    const rss: number[] = [served.rss()];
    const idle = await heldEntries(served);
    let requests = 0;
    const grown: string[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      requests += await round(served, random);
      rss.push(served.rss());
      // Streams close a moment after their clients leave; what is still held then grew with the traffic.
      const held = await settledHeld(served, idle);
      for (const [structure, entries] of Object.entries(held))
        if (entries > (BOUNDS[structure] ?? idle[structure] ?? 0)) grown.push(`round ${r}: ${structure} ${entries}`);
    }
    figure("memory soak", `held entries when idle: ${JSON.stringify(idle)}; after the last round: ${JSON.stringify(await heldEntries(served))}`);
    assert.deepEqual(grown, [], "every structure clients can fill is empty again once they are gone, or within its bound");
    for (const structure of [
      "legacy_sessions",
      "legacy_subscriptions",
      "session_callers",
      "callers_in_flight",
      "callers_listening",
      "caller_listen_streams",
      "selection_endpoints",
    ])
      assert.ok(structure in idle, `${structure} is counted`);
    const warm = rss[WARM_ROUNDS]!;
    const last = rss[rss.length - 1]!;
    const peak = Math.max(...rss.slice(WARM_ROUNDS));
    figure("memory soak", `seed ${random.seed}, ${requests} requests in ${ROUNDS} rounds; RSS per round: ${rss.map(mib).join(", ")}`);
    figure(
      "memory soak",
      `warm (after round ${WARM_ROUNDS}) ${mib(warm)}, last ${mib(last)}, peak ${mib(peak)}: ${last >= warm ? "+" : ""}${mib(last - warm)}`,
    );
    assert.ok(served.alive());
    assert.equal(((await (await fetch(new URL("/healthz", served.baseUrl))).json()) as { status: string }).status, "ok");
    assert.ok(last - warm < 96 * 1024 * 1024, `RSS grew by ${mib(last - warm)} after warm-up`);
  });
});
