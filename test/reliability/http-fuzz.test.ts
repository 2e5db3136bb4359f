// A seeded fuzz of the HTTP edge (docs/design.md §16, docs/reliability.md) against the real `mcp-host serve`: requests
// of both eras bent in every family the generator has — methods, paths, headers, bodies, JSON-RPC shapes, content
// codings, charsets and byte-order marks, framing, tool calls that meet catastrophic schema patterns, and tool calls
// whose upstream answers huge, slow, deep, malformed or for the wrong id — sent 16 at a time on fresh connections.
// Not one may get a 5xx; every 4xx the app sends carries
// a JSON-RPC error body; every request is answered (or its connection closed) in bounded time; the server is alive
// and serving at the end. Prints the seed, the status histogram, p50/p99 and the server's RSS before and after.
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { Cleanup } from "../helpers/cleanup.js";
import { exchange, type Exchange } from "./kit/exchange.js";
import { FAMILIES, type Family, fuzzCase, type FuzzCase } from "./kit/fuzz-cases.js";
import { startUnrulyHttp } from "../../bench/lib/unruly-upstream.js";
import { patternedServers } from "./kit/schema-family.js";
import { count, figure, histogram, mib, ms, percentile } from "./kit/report.js";
import { scaled } from "./kit/scale.js";
import { seededRandom } from "./kit/seed.js";
import { serveCli } from "./kit/served.js";
import { FUZZ_MAX_RESULT_BYTES, unrulyServers } from "./kit/upstream-family.js";

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

const REQUESTS = scaled(3_000, 30_000);
/** RELIABILITY_FUZZ_FAMILY=schema fuzzes one family alone (the figures then show only it). */
const ONLY = process.env.RELIABILITY_FUZZ_FAMILY as Family | undefined;
if (ONLY !== undefined && !FAMILIES.includes(ONLY)) throw new Error(`RELIABILITY_FUZZ_FAMILY: no family "${ONLY}" (${FAMILIES.join(", ")})`);
const IN_FLIGHT = 16;
/** Longer than the server's own request timeout (2 s here), so a request the server holds shows as its 408. */
const EXCHANGE_TIMEOUT_MS = 10_000;

/**
 * The patterned upstream (the schema family's gateway tools) is one more stdio child of the served command; the
 * unruly ones (the upstream family's) are a stdio child too, and an HTTP server this test starts.
 */
function config(unrulyUrl: string): string {
  const servers = { ...patternedServers(), ...unrulyServers(unrulyUrl) };
  return `http:\n  headersTimeoutMs: 1000\n  requestTimeoutMs: 2000\n  maxBodyBytes: 65536\ntools:\n  maxResultBytes: ${FUZZ_MAX_RESULT_BYTES}\nservers: ${JSON.stringify(servers)}\n`;
}

/** A JSON-RPC error body, as the app sends with every 4xx of its own. */
function isJsonRpcError(body: string): boolean {
  try {
    const parsed = JSON.parse(body) as { jsonrpc?: unknown; error?: { code?: unknown; message?: unknown } };
    return parsed.jsonrpc === "2.0" && typeof parsed.error?.code === "number" && typeof parsed.error.message === "string";
  } catch {
    return false;
  }
}

/** How an answer is counted: its status, and for a 4xx whether it came with a JSON-RPC error or (from Node's parser) with nothing. */
function classify(answer: Exchange): string {
  if (typeof answer.outcome !== "number") return answer.outcome;
  if (answer.outcome < 400) return String(answer.outcome);
  if (answer.outcome >= 500) return `${answer.outcome}!`;
  if (isJsonRpcError(answer.body)) return String(answer.outcome);
  return answer.body === "" ? `${answer.outcome} (no body)` : `${answer.outcome} (other body)`;
}

describe("the HTTP edge under a seeded fuzz", { timeout: 300_000 }, () => {
  it(`answers ${REQUESTS} bent requests of both eras without a 5xx, and keeps serving`, async () => {
    const random = seededRandom();
    figure("http fuzz", `seed ${random.seed} (RELIABILITY_SEED=${random.seed} repeats this run), ${REQUESTS} requests, ${IN_FLIGHT} in flight`);
    const unruly = await startUnrulyHttp((stop) => cleanup.add(stop));
    const served = await serveCli(cleanup, config(unruly.url));
    // Warm up (the first builds, the text plugin's worker) before the first memory reading.
    for (let i = 0; i < 50; i++) await exchange(served.port, fuzzCase(random, served.port, "jsonrpc").bytes, EXCHANGE_TIMEOUT_MS);
    const rssBefore = served.rss();

    const statuses = new Map<string, number>();
    const byFamily = new Map<string, Map<string, number>>(FAMILIES.map((f) => [f, new Map()]));
    const latencies: number[] = [];
    const bad: Array<{ c: FuzzCase; answer: Exchange }> = [];
    let next = 0;
    const worker = async () => {
      while (next < REQUESTS) {
        next += 1;
        const c = fuzzCase(random, served.port, ONLY ?? random.pick(FAMILIES));
        const answer = await exchange(served.port, c.bytes, EXCHANGE_TIMEOUT_MS);
        const kind = classify(answer);
        count(statuses, kind);
        count(byFamily.get(c.family)!, kind);
        if (typeof answer.outcome === "number") latencies.push(answer.ms);
        if (kind.endsWith("!") || kind.includes("other body") || kind === "timeout" || kind === "error") bad.push({ c, answer });
      }
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
    const rssAfter = served.rss();

    figure("http fuzz", `statuses: ${histogram(statuses)}`);
    for (const [family, counts] of byFamily) figure("http fuzz", `  ${family}: ${histogram(counts)}`);
    figure("http fuzz", `latency p50 ${ms(percentile(latencies, 0.5))}, p99 ${ms(percentile(latencies, 0.99))}`);
    figure("http fuzz", `server RSS before ${mib(rssBefore)}, after ${mib(rssAfter)}`);

    const shown = bad.slice(0, 5).map(({ c, answer }) => `${c.family}/${c.what}: ${String(answer.outcome)} ${answer.body.slice(0, 200)}`);
    assert.deepEqual(shown, [], `seed ${random.seed}: answers a client mistake must never get`);
    assert.equal([...statuses.keys()].filter((k) => k.endsWith("!")).length, 0, "no 5xx at all");
    // Every schema and upstream case is a well-formed call of a tool on offer: answered 200, its result an isError or a value.
    for (const family of ["schema", "upstream"]) {
      assert.deepEqual(
        [...byFamily.get(family)!.keys()].filter((k) => k !== "200"),
        [],
        `${family} family: answered 200 only`,
      );
    }
    assert.ok(served.alive(), `the server died: ${served.cli.stderr.slice(-2000)}`);
    const health = await fetch(new URL("/healthz", served.baseUrl));
    assert.equal(health.status, 200);
    assert.equal(((await health.json()) as { status: string }).status, "ok");
    assert.doesNotMatch(served.cli.stderr, /^error /m, "nothing the fuzz sent is logged as an error");
  });
});
