// MCP tasks in a fleet (docs/scale-out.md, "Tasks across the fleet"), between hosts served in this process over one
// real Redis, each on a manual clock of its own: a task made on A is read, answered and cancelled through B — the
// answers and the cancellation reach the handler running on A — and its changes are heard through another instance's
// store in the order they were written; a task whose instance stops renewing its lease is failed by the next tasks/get
// after it, and a late write of that instance cannot undo the failure; one caller's unfinished tasks are bounded across
// the instances even when its calls race; with Redis unreachable a call does not become a task and nothing waits; and
// an instance cut off from Redis writes what it wrote meanwhile once it reaches Redis again.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, beforeEach, describe, it } from "node:test";
import { Redis } from "ioredis";
import { acceptedContent, inputRequired, type McpExtension } from "../../src/index.js";
import { memoryLogger } from "../../src/logger.js";
import { createManualClock, type ManualClock } from "../../src/manual-clock.js";
import { createFleet, type Fleet } from "../../src/scale-out/fleet.js";
import { assertFleetServers, freePort, type RedisProcess, startRedis } from "../helpers/fleet-servers.js";
import { Cleanup, deferred, type ServedHost, serveHost } from "../helpers/http-host.js";
import { rpc, startTask } from "../tasks/tasks-kit.js";
import { CutProxy, listenTasks } from "./fleet-kit.js";

const cleanup = new Cleanup();
const text = (t: string) => ({ content: [{ type: "text" as const, text: t }] });

/** What the handlers saw of their signal, as "<instance> saw its signal". */
let seen: string[] = [];
/** Opened by a test to let every `hold` handler finish. */
let released = deferred<void>();

/** The tools each instance serves: `hold` runs as a task until released or cancelled; `confirm` asks, then answers. */
function taskTools(instance: string): McpExtension {
  return {
    name: "jobs",
    tools: [
      {
        name: "hold",
        taskSupport: "optional",
        handler: async (_args, ctx) => {
          await ctx.task?.start(`holding on ${instance}`);
          if (!ctx.task?.running) return text(`answered on the request by ${instance}`);
          await new Promise<void>((resolve, reject) => {
            ctx.signal.addEventListener(
              "abort",
              () => {
                seen.push(`${instance} saw its signal`);
                reject(ctx.signal.reason);
              },
              { once: true },
            );
            void released.promise.then(resolve);
          });
          return text(`released on ${instance}`);
        },
      },
      {
        name: "confirm",
        taskSupport: "optional",
        handler: async (_args, ctx) => {
          const answer = acceptedContent<{ ok?: unknown }>(ctx.inputResponses, "go");
          if (answer !== undefined) return text(`confirmed ${String(answer.ok)} on ${instance}`);
          await ctx.task?.start(`asking on ${instance}`);
          return inputRequired({
            inputRequests: {
              go: inputRequired.elicit({
                mode: "form",
                message: "Go on?",
                requestedSchema: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] } as never,
              }),
            },
          });
        },
      },
    ],
  };
}

interface TaskInstance {
  served: ServedHost;
  url: URL;
  fleet: Fleet;
  clock: ManualClock;
  /** What the fleet's Redis link logged. */
  linkRecords: ReturnType<typeof memoryLogger>["records"];
}

const LEASE_MS = 30_000;

/** A host whose tasks are kept in Redis under `prefix` (each test has its own), on a manual clock of its own. */
async function taskInstance(id: string, redisUrl: string, prefix: string, maxPerCaller = 16): Promise<TaskInstance> {
  const clock = createManualClock(Date.UTC(2026, 0, 1));
  const { logger, records } = memoryLogger();
  const fleet = await createFleet({ instanceId: id, redis: { url: redisUrl, prefix }, logger, clock, tasks: { maxPerCaller } });
  cleanup.add(() => fleet.close());
  const served = await serveHost(cleanup, [taskTools(id)], {
    host: { clock, tasks: { store: fleet.tasks!, instance: id, limits: { maxPerCaller, leaseMs: LEASE_MS } } },
    http: { scaleOut: fleet },
  });
  await until(`${id} connected`, async () => fleet.status().redis === "up" || records.some((r) => r.data?.code === "SCALE_OUT_REDIS_DOWN"));
  return { served, url: served.url, fleet, clock, linkRecords: records };
}

async function until(what: string, check: () => boolean | Promise<boolean>, withinMs = 10_000): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${withinMs} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** tasks/get on `url`, asserting it answered. */
async function taskOn(url: URL, taskId: string): Promise<any> {
  const answer = await rpc(url, "tasks/get", { taskId });
  assert.equal(answer.error, undefined, JSON.stringify(answer));
  return answer.result;
}

/** Polls tasks/get on `url` until the task has `status` (each poll waits for the previous answer). */
async function untilStatus(url: URL, taskId: string, status: string): Promise<any> {
  let last: any;
  await until(`task ${taskId.slice(0, 8)} ${status} on ${url.host}`, async () => (last = await taskOn(url, taskId)).status === status);
  return last;
}

/** A subsequence check: every item of `part` appears in `whole`, in order. */
function isSubsequence(part: readonly string[], whole: readonly string[]): boolean {
  let at = 0;
  for (const item of whole) if (item === part[at]) at++;
  return at === part.length;
}

describe("MCP tasks kept in a fleet's Redis", { timeout: 120_000 }, () => {
  let redis: RedisProcess;
  let probe: Redis;
  let prefix: string;
  const subscribers = async (channel: string) => Number(((await probe.pubsub("NUMSUB", channel)) as [string, number])[1]);
  before(async () => {
    assertFleetServers();
    redis = await startRedis(cleanup);
    probe = new Redis(redis.url);
    cleanup.add(() => probe.disconnect());
  });
  beforeEach(() => {
    prefix = `t-${randomUUID().slice(0, 8)}:`;
    seen = [];
    released = deferred<void>();
  });
  after(async () => {
    released.resolve();
    await cleanup.run();
  });

  it("reads and answers on B a task made on A, and B's store hears each change in the order it was written", async () => {
    const a = await taskInstance("in-a", redis.url, prefix);
    const b = await taskInstance("in-b", redis.url, prefix);
    const watcher = await createFleet({ instanceId: "watcher", redis: { url: redis.url, prefix }, logger: memoryLogger().logger });
    cleanup.add(() => watcher.close());
    const heardOnB: string[] = [];
    const heardByWatcher: string[] = [];
    const stopB = b.fleet.tasks!.onChange((task) => heardOnB.push(task.status));
    const stopWatcher = watcher.tasks!.onChange((task) => heardByWatcher.push(`${task.status}:${task.instance}`));
    await until("B and the watcher follow the task changes", async () => (await subscribers(`${prefix}tasks:changed`)) === 2);

    const taskId = await startTask(a.url, "confirm");
    const asking = await untilStatus(b.url, taskId, "input_required");
    assert.deepEqual(Object.keys(asking.inputRequests), ["go"], "B shows the question the handler on A asked");
    const acknowledged = await rpc(b.url, "tasks/update", { taskId, inputResponses: { go: { action: "accept", content: { ok: true } } } });
    assert.equal(acknowledged.result?.resultType, "complete", JSON.stringify(acknowledged));
    const done = await untilStatus(b.url, taskId, "completed");
    assert.equal(done.result.content[0].text, "confirmed true on in-a", "the answer given on B ran the next round on A");

    const written = ["working", "input_required", "working", "completed"];
    await until("the watcher heard the task complete", () => heardByWatcher.length === written.length);
    assert.deepEqual(
      heardByWatcher,
      written.map((status) => `${status}:in-a`),
      "every change, in the order A wrote it",
    );
    await until("B heard the task complete", () => heardOnB.at(-1) === "completed");
    assert.ok(isSubsequence(heardOnB, written), `B never hears a state older than one it read or heard: ${heardOnB}`);
    stopB();
    stopWatcher();
    await until("the channel is let go with the last listeners", async () => (await subscribers(`${prefix}tasks:changed`)) === 0);
  });

  it("tells a listen stream on B about a task running on A", async () => {
    const a = await taskInstance("listen-a", redis.url, prefix);
    const b = await taskInstance("listen-b", redis.url, prefix);
    const taskId = await startTask(a.url, "hold");
    const stream = await listenTasks(b.url, undefined, [taskId]);
    cleanup.add(() => stream.close());
    const current = await stream.events.next((m) => m.method === "notifications/tasks");
    assert.equal(current.params.status, "working");
    await until("B follows the task changes", async () => (await subscribers(`${prefix}tasks:changed`)) === 1);
    released.resolve();
    const completed = await stream.events.next((m) => m.method === "notifications/tasks" && m.params.status === "completed");
    assert.equal(completed.params.result.content[0].text, "released on listen-a");
    stream.close();
  });

  it("cancels from B a task running on A: the handler on A sees its signal and the task ends cancelled", async () => {
    const a = await taskInstance("cancel-a", redis.url, prefix);
    const b = await taskInstance("cancel-b", redis.url, prefix);
    const taskId = await startTask(a.url, "hold");
    assert.equal((await taskOn(b.url, taskId)).statusMessage, "holding on cancel-a");
    assert.equal((await rpc(b.url, "tasks/cancel", { taskId })).result?.resultType, "complete", "the cancel is acknowledged");
    await until("the handler on A saw its signal", () => seen.includes("cancel-a saw its signal"));
    const cancelled = await untilStatus(b.url, taskId, "cancelled");
    assert.equal(cancelled.result, undefined);
    assert.equal((await taskOn(a.url, taskId)).status, "cancelled");
  });

  it("fails on B's next tasks/get a task whose instance stopped renewing its lease; A's late result cannot undo it", async () => {
    const a = await taskInstance("lease-a", redis.url, prefix);
    const b = await taskInstance("lease-b", redis.url, prefix);
    // A's clock stands still: its beat never renews the lease, as if it were frozen or gone.
    const taskId = await startTask(a.url, "hold");
    assert.equal((await taskOn(b.url, taskId)).status, "working", "within the lease the task is working");
    await b.clock.advance(LEASE_MS + 1);
    const failed = await taskOn(b.url, taskId);
    assert.equal(failed.status, "failed");
    assert.deepEqual(failed.error, { code: -32603, message: "The instance running this task (lease-a) stopped before it finished." });
    assert.ok(
      b.served.records.some((r) => r.data?.code === "TASK_LEASE_EXPIRED" && r.message.includes('"lease-a"')),
      "B logs whose lease ran out",
    );
    // The handler on A finishes after all: its write is refused, and A's own view takes what Redis holds.
    released.resolve();
    await until("A's handler finished and A wrote its result", () => a.fleet.tasks!.recent(1)[0]?.status !== "working");
    // A read on A's own connection comes after A's write: by its answer the write has been taken or refused.
    await a.fleet.tasks!.get(taskId);
    for (const on of [b, a]) assert.equal((await taskOn(on.url, taskId)).status, "failed", `still failed on ${on.fleet.instanceId}`);
    assert.equal(a.fleet.tasks!.recent(1)[0]?.status, "failed", "A's own view takes what Redis holds");
  });

  it("holds one caller's most unfinished tasks across both instances, even when its calls race", async () => {
    const a = await taskInstance("limit-a", redis.url, prefix, 2);
    const b = await taskInstance("limit-b", redis.url, prefix, 2);
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => rpc((i % 2 === 0 ? a : b).url, "tools/call", { name: "hold", arguments: {} })));
    const tasks = answers.filter((x) => x.result?.resultType === "task").map((x) => x.result.taskId as string);
    const onRequest = answers.filter((x) => /^answered on the request by limit-[ab]$/.test(x.result?.content?.[0]?.text ?? ""));
    assert.equal(tasks.length, 2, `2 of 8 racing calls became tasks: ${JSON.stringify(answers.map((x) => x.result?.resultType ?? x.result?.content))}`);
    assert.equal(onRequest.length, 6, "the others were answered on their request");
    for (const taskId of tasks) await rpc(b.url, "tasks/cancel", { taskId });
    for (const taskId of tasks) await untilStatus(a.url, taskId, "cancelled");
    assert.equal((await rpc(b.url, "tools/call", { name: "hold", arguments: {} })).result?.resultType, "task", "a finished task frees its place");
  });

  it("answers a task call on its request while Redis is unreachable; tasks/get answers -32603; the outage is logged once", async () => {
    const nowhere = `redis://127.0.0.1:${await freePort()}`;
    const down = await taskInstance("down", nowhere, prefix);
    for (let i = 0; i < 3; i++) {
      const answer = await rpc(down.url, "tools/call", { name: "hold", arguments: {} });
      assert.equal(answer.result?.content?.[0]?.text, "answered on the request by down", JSON.stringify(answer));
    }
    const refused = down.served.records.filter((r) => r.data?.code === "TASK_STORE_UNAVAILABLE");
    assert.equal(refused.length, 3, "each call that could not become a task says why");
    assert.match(refused[0]!.message, /tool "hold" could not become a task: the fleet's task store \(Redis, scaleOut\.redis\) did not answer in time/);
    const get = await rpc(down.url, "tasks/get", { taskId: randomUUID() });
    assert.equal(get.status, 200);
    assert.equal(get.error?.code, -32603, JSON.stringify(get));
    assert.match(get.error!.message, /task store \(Redis, scaleOut\.redis\) did not answer in time while reading a task/);
    const health = (await (await fetch(new URL("/healthz", down.served.baseUrl))).json()) as { status: string };
    assert.equal(health.status, "degraded");
    assert.equal(down.linkRecords.filter((r) => r.data?.code === "SCALE_OUT_REDIS_DOWN").length, 1, "the outage is logged once");
    assert.ok(!JSON.stringify([...down.linkRecords, ...down.served.records]).includes(nowhere), "the URL is never logged");
  });

  it("writes what an instance cut off from Redis wrote meanwhile, once it reaches Redis again", async () => {
    const proxy = await CutProxy.start(cleanup, redis.port);
    const a = await taskInstance("cut-a", proxy.url, prefix);
    const b = await taskInstance("cut-b", redis.url, prefix);
    const taskId = await startTask(a.url, "hold");
    proxy.cut();
    await until("A lost Redis", () => a.fleet.status().redis === "down");
    assert.equal((await rpc(a.url, "tasks/get", { taskId })).error?.code, -32603, "A cannot read it meanwhile");
    released.resolve();
    await until("A finished the task while cut off", () => a.fleet.tasks!.recent(1)[0]?.status === "completed");
    assert.equal((await taskOn(b.url, taskId)).status, "working", "Redis has not heard of it yet");
    proxy.restore();
    const done = await untilStatus(b.url, taskId, "completed");
    assert.equal(done.result.content[0].text, "released on cut-a");
  });
});
