// A bounded memory soak (docs/design.md §16) of the real `mcp-host serve`: rounds of mixed traffic — 2025-era sessions
// opened, used and ended, 2026-07-28 calls of every kind, requests that are refused — with the server's RSS read
// after each. The main thread's heap is capped (--max-old-space-size=192; the host needs ~30 MB), so memory that
// grows with the traffic ends as a crash, not as a number; RSS — which also holds the isolated tools' worker heaps,
// grown lazily up to their own limits — must stay within a bound once warm. Prints RSS per round.
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { Cleanup } from "../helpers/cleanup.js";
import { exchange } from "./kit/exchange.js";
import { fuzzCase } from "./kit/fuzz-cases.js";
import { endSession, messageOf, modernCall, openSession, sessionCall } from "./kit/mcp-requests.js";
import { figure, mib } from "./kit/report.js";
import { scaled } from "./kit/scale.js";
import { seededRandom } from "./kit/seed.js";
import { serveCli, type ServedCli } from "./kit/served.js";

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

const ROUNDS = scaled(8, 40);
const WARM_ROUNDS = 3;

async function round(served: ServedCli, random: ReturnType<typeof seededRandom>): Promise<number> {
  let requests = 0;
  await Promise.all(
    Array.from({ length: 10 }, async () => {
      const { id } = await openSession(served.url);
      assert.ok(id);
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
    await exchange(served.port, fuzzCase(random, served.port, random.pick(["body", "jsonrpc", "encoding", "header"] as const)).bytes, 10_000);
    requests += 1;
  }
  return requests;
}

describe("a bounded memory soak", { timeout: 300_000 }, () => {
  it(`keeps the server's memory flat over ${ROUNDS} rounds of mixed traffic`, async () => {
    const random = seededRandom();
    const served = await serveCli(cleanup, "http:\n  headersTimeoutMs: 1000\n  requestTimeoutMs: 2000\n", [], { NODE_OPTIONS: "--max-old-space-size=192" });
    const rss: number[] = [served.rss()];
    let requests = 0;
    for (let r = 0; r < ROUNDS; r++) {
      requests += await round(served, random);
      rss.push(served.rss());
    }
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
