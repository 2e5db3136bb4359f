// What a fleet shares, between two hosts served in this process over one real Redis (docs/scale-out.md): an instance
// follows only the channels of what its listeners serve, hears a change to several toolsets once and a change to
// toolsets it does not serve not at all, ignores what is not a change mcp-host sent, and gives up a channel when its
// last listener goes; the callers' rate is one bucket for the fleet; a sealed request state is accepted once for the
// whole fleet; with Redis unreachable each instance keeps its own bound — the rate by its own bucket, single-use states
// by what it has seen — events are told locally, and the outage is logged once with its code.
// Redis delivers one connection's messages to a subscriber in the order they were published, so a resource update
// raised after a change is a sentinel: once it arrives, every message of the change has too.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Redis } from "ioredis";
import { inputRequired, type ExtensionContext, type McpExtension } from "../../src/index.js";
import { memoryLogger } from "../../src/logger.js";
import { createFleet, type Fleet } from "../../src/scale-out/fleet.js";
import { assertFleetServers, freePort, type RedisProcess, startRedis } from "../helpers/fleet-servers.js";
import { Cleanup, type ServedHost, serveHost } from "../helpers/http-host.js";
import { callModern, type EventReader, inPool, listenModern, textOf } from "./fleet-kit.js";

const cleanup = new Cleanup();
const SENTINEL = "fleet://sentinel";

/** An extension declaring toolsets a and b, whose tools change the offer or raise resources/updated. */
function twoToolsets(): McpExtension {
  let ctx: ExtensionContext | undefined;
  let confirmed = 1;
  const text = (t: string) => ({ content: [{ type: "text" as const, text: t }] });
  return {
    name: "pair",
    toolsets: [{ name: "a" }, { name: "b" }],
    resources: [{ uri: SENTINEL, name: "sentinel", toolset: "a", read: () => ({ contents: [{ uri: SENTINEL, text: "s" }] }) }],
    tools: [
      {
        name: "change",
        toolset: "a",
        inputSchema: { type: "object", properties: { toolsets: { type: "array", items: { type: "string" } } } },
        handler: (args) => {
          for (const toolset of args.toolsets as string[]) ctx!.addTool({ name: `added_${toolset}_${Date.now()}`, toolset, handler: () => text("added") });
          return text("changed");
        },
      },
      {
        name: "touch",
        toolset: "a",
        inputSchema: { type: "object", properties: { uri: { type: "string" } } },
        handler: (args) => {
          ctx!.resourceUpdated(String(args.uri));
          return text("touched");
        },
      },
      { name: "ping", toolset: "a", handler: () => text("pong") },
      {
        name: "confirm",
        toolset: "a",
        handler: (_args, ctx) =>
          ctx.inputResponses?.ok === undefined
            ? inputRequired({
                inputRequests: { ok: inputRequired.elicit({ message: "Sure?", requestedSchema: { type: "object", properties: {} } }) },
                requestState: "asked",
              })
            : text(`confirmed ${confirmed++}`),
      },
    ],
    setup(context) {
      ctx = context;
    },
  };
}

/** The key every instance of a test fleet signs request state with (`scaleOut.stateKey`). */
const STATE_KEY = "a-test-fleet-state-key-of-32-bytes-or-more";

async function instance(
  id: string,
  redisUrl: string,
  http: Record<string, unknown> = {},
): Promise<{ served: ServedHost; fleet: Fleet; records: ReturnType<typeof memoryLogger>["records"] }> {
  const { logger, records } = memoryLogger();
  const fleet = await createFleet({ instanceId: id, redis: { url: redisUrl, prefix: "test:" }, logger });
  cleanup.add(() => fleet.close());
  const served = await serveHost(cleanup, [twoToolsets()], {
    host: { requestStateKey: STATE_KEY, ...(fleet.claims ? { requestStateClaims: fleet.claims } : {}) },
    http: { scaleOut: fleet, ...http },
  });
  // Until it is connected (or knows it cannot be) an instance serves without sharing: the tests start after.
  await until(`${id} connected`, async () => fleet.status().redis === "up" || records.some((r) => r.data?.code === "SCALE_OUT_REDIS_DOWN"));
  return { served, fleet, records };
}

/** The list changes `events` heard before the sentinel update; the sentinel is consumed. */
async function listChangesBeforeSentinel(events: EventReader): Promise<number> {
  let count = 0;
  for (;;) {
    const message = await events.next((m) => m.method === "notifications/tools/list_changed" || m.params?.uri === SENTINEL);
    if (message.params?.uri === SENTINEL) return count;
    count++;
  }
}

async function until(what: string, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within 10 s`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("what a fleet shares through Redis", { timeout: 60_000 }, () => {
  let redis: RedisProcess;
  let probe: Redis;
  const channels = async () => ((await probe.pubsub("CHANNELS", "test:*")) as string[]).sort();
  before(async () => {
    assertFleetServers();
    redis = await startRedis(cleanup);
    probe = new Redis(redis.url);
    cleanup.add(() => probe.disconnect());
  });
  after(() => cleanup.run());

  it("follows only what its listeners serve, hears a change once, and not a change to a toolset it does not serve", async () => {
    const a = await instance("in-a", redis.url);
    const b = await instance("in-b", redis.url);
    const listener = await listenModern(a.served.at("only=a"), undefined, [SENTINEL]);
    await until("A follows toolset a and the sentinel", async () => (await channels()).length === 3);
    assert.deepEqual(await channels(), ["test:offer:*", "test:offer:a", `test:resource:${SENTINEL}`]);
    const onB = b.served.at("a&b");
    const raise = async (toolsets: string[]) => {
      // B's own stream hears the change first: it has been sent to the fleet by then, before the sentinel.
      const local = await listenModern(onB, undefined, []);
      textOf(await callModern(onB, undefined, "change", { toolsets }));
      await local.events.next((m) => m.method === "notifications/tools/list_changed");
      local.close();
      textOf(await callModern(onB, undefined, "touch", { uri: SENTINEL }));
    };
    await raise(["a", "b"]);
    assert.equal(await listChangesBeforeSentinel(listener.events), 1, "a change to a and b is heard once on ?only=a");
    await raise(["b"]);
    assert.equal(await listChangesBeforeSentinel(listener.events), 0, "a change to b alone is not heard on ?only=a");
    await probe.publish("test:offer:a", "not json");
    await probe.publish("test:offer:a", JSON.stringify({ v: 1, from: "someone", id: "x", event: { kind: "offer", toolsets: [42] } }));
    textOf(await callModern(onB, undefined, "touch", { uri: SENTINEL }));
    assert.equal(await listChangesBeforeSentinel(listener.events), 0, "what is not a change mcp-host sent is ignored");
    listener.close();
    await until("A lets its channels go with its last listener", async () => (await channels()).length === 0);
  });

  it("counts one caller's rate once for the fleet", async () => {
    const http = { callerRequestsPerSecond: 0.001, callerBurst: 3 };
    const a = await instance("rate-a", redis.url, http);
    const b = await instance("rate-b", redis.url, http);
    const answers = await inPool(8, 1, (i) => callModern((i % 2 === 0 ? a : b).served.at("only=a"), undefined, "ping"));
    assert.deepEqual(
      answers.map((x) => x.status),
      [200, 200, 200, 429, 429, 429, 429, 429],
    );
  });

  it("accepts a sealed request state once for the whole fleet: its replay on another instance is refused", async () => {
    const a = await instance("once-a", redis.url);
    const b = await instance("once-b", redis.url);
    const asked = await callModern(a.served.at("only=a"), undefined, "confirm");
    const state = asked.message?.result?.requestState as string;
    assert.match(state, /^v1\./, JSON.stringify(asked.message));
    const retry = { requestState: state, inputResponses: { ok: { action: "accept", content: {} } } };
    const first = await callModern(b.served.at("only=a"), undefined, "confirm", {}, retry);
    assert.equal(textOf(first), "confirmed 1", "the round runs where it lands");
    for (const on of [a, b, a]) {
      const replay = await callModern(on.served.at("only=a"), undefined, "confirm", {}, retry);
      assert.equal(replay.message?.error?.code, -32602, `a replay on ${on.fleet.instanceId} is refused: ${JSON.stringify(replay.message)}`);
    }
  });

  it("still accepts a sealed request state once per instance while Redis is unreachable", async () => {
    const nowhere = `redis://127.0.0.1:${await freePort()}`;
    const { served } = await instance("down-once", nowhere);
    const asked = await callModern(served.at("only=a"), undefined, "confirm");
    const retry = { requestState: asked.message?.result?.requestState, inputResponses: { ok: { action: "accept", content: {} } } };
    assert.equal(textOf(await callModern(served.at("only=a"), undefined, "confirm", {}, retry)), "confirmed 1");
    const replay = await callModern(served.at("only=a"), undefined, "confirm", {}, retry);
    assert.equal(replay.message?.error?.code, -32602, JSON.stringify(replay.message));
  });

  it("bounds the callers' rate per instance while Redis is unreachable; events are told here; the outage is logged once", async () => {
    const nowhere = `redis://127.0.0.1:${await freePort()}`;
    const { served, records } = await instance("down", nowhere, { callerRequestsPerSecond: 0.001, callerBurst: 3 });
    const listener = await listenModern(served.at("only=a"), undefined, [SENTINEL]);
    const statuses = (await inPool(5, 1, () => callModern(served.at("only=a"), undefined, "touch", { uri: SENTINEL }))).map((x) => x.status);
    // A burst of 3: the listen stream took one, two calls take the rest.
    assert.deepEqual(statuses, [200, 200, 429, 429, 429], "the rate cannot be checked in Redis: this instance's own bucket bounds it");
    for (let i = 0; i < 2; i++) await listener.events.next((m) => m.params?.uri === SENTINEL);
    listener.close();
    const health = (await (await fetch(new URL("/healthz", served.baseUrl))).json()) as { status: string; scaleOut: unknown };
    assert.deepEqual([health.status, health.scaleOut], ["degraded", { instance: "down", redis: "down" }]);
    const warned = records.filter((r) => r.data?.code === "SCALE_OUT_REDIS_DOWN");
    assert.equal(warned.length, 1, JSON.stringify(warned));
    assert.ok(!JSON.stringify(records).includes(nowhere), "the URL is never logged");
  });
});
