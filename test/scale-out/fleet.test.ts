// Many instances behind a load balancer (docs/scale-out.md): three real `mcp-host serve` instances, one real Redis and
// a real nginx running the example's own configuration in front of them. What each instance would otherwise decide
// alone is shared: events (a resources/updated raised on B reaches a listen stream on A and a legacy session on C),
// the callers' rate (the 200s of one caller stay within burst + rate × time across the fleet), the requestState key
// (a call's second round is accepted on another instance), and 2025-era sessions reach their instance through nginx
// by the prefix of their id. Then faults: SIGKILL one instance (no modern request lost; only its sessions, 404 then a
// new session), and stop Redis mid-run (no request lost; events cross again once it is back). Figures are printed as
// test diagnostics. Phases run in order and share the fleet; the faults come last.
//
// MCP tasks (issue 29 §4, docs/scale-out.md "Tasks across the fleet") are kept in the fleet's Redis: a task made
// through nginx is polled to completion on every instance in turn; one made on A, polled on B, is cancelled from C and
// its handler on A sees its signal; a fourth instance SIGKILLed mid-task leaves its task failed once its lease runs
// out, not working; and a task's change on B reaches a listen stream on A.
//
// A second fleet serves without tokens (issue 26 part 2): every instance trusts nginx alone (`http.trustProxy`), so two
// clients behind nginx — told apart by their loopback source address — hold separate rate buckets and session shares,
// and a spoofed X-Forwarded-For, sent through nginx or straight to an instance, changes nothing.
import assert from "node:assert/strict";
import { after, before, describe, it, type TestContext } from "node:test";
import { Redis } from "ioredis";
import { assertBuilt } from "../helpers/cli-process.js";
import { assertFleetServers, type NginxProcess, type RedisProcess, startNginx, startRedis } from "../helpers/fleet-servers.js";
import { Cleanup, connectV2 } from "../helpers/http-host.js";
import { rpc, type RpcAnswer } from "../tasks/tasks-kit.js";
import {
  type Answer,
  callModern,
  closeClientAgents,
  fleetConfig,
  initializeLegacy,
  inPool,
  type Instance,
  legacySubscriber,
  listenModern,
  listenTasks,
  RATE,
  type Sender,
  startInstance,
  TASK_LEASE_MS,
  TASK_POLL_MS,
  textOf,
  tokenFor,
} from "./fleet-kit.js";

const cleanup = new Cleanup();
const IDS = ["mcp-a", "mcp-b", "mcp-c"] as const;
const NOTE = "fleet://note";
const CHANNEL = `mcp-host:resource:${NOTE}`;

let redis: RedisProcess;
let nginx: NginxProcess;
let instances: Record<(typeof IDS)[number], Instance>;
let probe: Redis;

/** How many instances follow `channel` in Redis now. */
async function followers(channel: string): Promise<number> {
  const [, count] = (await probe.pubsub("NUMSUB", channel)) as [string, number];
  return Number(count);
}

/** Waits (bounded) until `check` holds, asking again each time Redis or an instance answers. */
async function until(what: string, check: () => Promise<boolean>, withinMs = 10_000): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${withinMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function healthOf(instance: Instance): Promise<{ status: string; scaleOut?: { instance: string; redis?: string } }> {
  const response = await fetch(new URL("/healthz", instance.base), { headers: { authorization: `Bearer ${await tokenFor("health")}` } });
  return (await response.json()) as never;
}

/** Raises resources/updated on `on` and resolves with how long until `arrived` resolved, in ms. */
async function timedUpdate(on: Instance, arrived: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  const waiting = arrived();
  assert.equal(textOf(await callModern(on.url, await tokenFor("toucher"), "touch", { uri: NOTE })), `${on.id} touched ${NOTE}`);
  await waiting;
  return performance.now() - started;
}

const isUpdate = (m: { method?: string; params?: { uri?: string } }) => m.method === "notifications/resources/updated" && m.params?.uri === NOTE;

/** The task a `tools/call` of `job` was answered with: its id and the instance running it (its status names it). */
function taskOf(answer: RpcAnswer): { taskId: string; runsOn: string } {
  assert.equal(answer.result?.resultType, "task", `answered with a task: ${JSON.stringify(answer)}`);
  return { taskId: answer.result.taskId as string, runsOn: /on (mcp-[a-z])$/.exec(answer.result.statusMessage as string)![1]! };
}

/** One `tasks/get`, which must answer. */
async function taskOn(url: URL, token: string, taskId: string): Promise<any> {
  const answer = await rpc(url, "tasks/get", { taskId }, { token });
  assert.equal(answer.error, undefined, `tasks/get on ${url.host}: ${JSON.stringify(answer)}`);
  return answer.result;
}

/** The client's wait between two polls: the interval the task suggests (what a client following the spec does). */
const nextPoll = () => new Promise((resolve) => setTimeout(resolve, TASK_POLL_MS));

describe("a fleet of three instances behind nginx, sharing Redis", { timeout: 120_000 }, () => {
  before(async () => {
    assertBuilt();
    assertFleetServers();
    redis = await startRedis(cleanup);
    probe = new Redis(redis.url, { maxRetriesPerRequest: 1, retryStrategy: (n) => Math.min(n * 50, 500) });
    probe.on("error", () => {});
    cleanup.add(() => probe.disconnect());
    const config = fleetConfig(cleanup);
    const started = await Promise.all(IDS.map((id) => startInstance(cleanup, config, id, redis.url)));
    instances = Object.fromEntries(started.map((i) => [i.id, i])) as typeof instances;
    nginx = await startNginx(cleanup, {
      MCP_HOST_A: instances["mcp-a"].url.host,
      MCP_HOST_B: instances["mcp-b"].url.host,
      MCP_HOST_C: instances["mcp-c"].url.host,
    });
    // (Unless FLEET_SHARING_OFF=redis left Redis out of the config, to show which tests need it: fleet-kit.ts.)
    if (process.env.FLEET_SHARING_OFF !== "redis")
      for (const instance of started) await until(`${instance.id} reaches Redis`, async () => (await healthOf(instance)).scaleOut?.redis === "up");
  });
  after(() => cleanup.run());

  it("round-robins modern calls across all three, every one answered", async (t: TestContext) => {
    const mcp = new URL("/mcp", nginx.url);
    const answers = await inPool(30, 6, async (i) => callModern(mcp, await tokenFor(`rr-${i}`), "whoami"));
    const hits: Record<string, number> = {};
    for (const answer of answers) {
      const who = textOf(answer);
      hits[who] = (hits[who] ?? 0) + 1;
    }
    assert.deepEqual(Object.keys(hits).sort(), [...IDS], `every instance answered: ${JSON.stringify(hits)}`);
    t.diagnostic(`round-robin: 30 modern calls through nginx, 30 answered 200, by instance ${JSON.stringify(hits)}`);
  });

  it("tells a listen stream on A and a legacy session on C about a resources/updated raised by a tool on B", async (t: TestContext) => {
    const listener = await listenModern(instances["mcp-a"].url, await tokenFor("listener"), [NOTE]);
    cleanup.add(() => listener.close());
    const session = await legacySubscriber(instances["mcp-c"].url, await tokenFor("subscriber"), NOTE);
    cleanup.add(() => session.close());
    assert.match(session.id, /^mcp-c\./, "a session id starts with its instance's name");
    await until("A and C follow the resource's channel", async () => (await followers(CHANNEL)) === 2);
    const latencies: number[] = [];
    for (let round = 0; round < 5; round++) {
      latencies.push(await timedUpdate(instances["mcp-b"], () => Promise.all([listener.events.next(isUpdate), session.events.next(isUpdate)])));
    }
    t.diagnostic(
      `events: 5 resources/updated raised on B, 10 delivered across instances (A's listen stream, C's session), latency ms ${latencies.map((l) => l.toFixed(1)).join(" ")}`,
    );
    listener.close();
    await session.close();
    await until("the channel is let go once the stream closed and the session ended", async () => (await followers(CHANNEL)) === 0);
  });

  it("tells A's listen stream about a tools list change raised on B", async () => {
    const listener = await listenModern(instances["mcp-a"].url, await tokenFor("list-listener"), []);
    cleanup.add(() => listener.close());
    await until("A follows the toolset's channel", async () => (await followers("mcp-host:offer:fleet")) >= 1);
    const changed = listener.events.next((m) => m.method === "notifications/tools/list_changed");
    assert.equal(textOf(await callModern(instances["mcp-b"].url, await tokenFor("changer"), "change", { name: "added_on_b" })), "mcp-b added added_on_b");
    await changed;
    listener.close();
  });

  it("holds one caller's rate across the fleet: its 200s stay within burst + rate × time", async (t: TestContext) => {
    const mcp = new URL("/mcp", nginx.url);
    const token = await tokenFor("rate-limited");
    const started = performance.now();
    const answers: Answer[] = await inPool(150, 10, () => callModern(mcp, token, "whoami"));
    const seconds = (performance.now() - started) / 1000;
    const ok = answers.filter((a) => a.status === 200).length;
    const refused = answers.filter((a) => a.status === 429);
    assert.equal(ok + refused.length, answers.length, `only 200 and 429: ${JSON.stringify(answers.filter((a) => a.status !== 200 && a.status !== 429))}`);
    const allowed = RATE.burst + Math.ceil(RATE.perSecond * seconds) + 1;
    assert.ok(ok >= RATE.burst, `the burst is let through: ${ok} of ${RATE.burst}`);
    assert.ok(ok <= allowed, `the fleet let ${ok} through in ${seconds.toFixed(2)} s; the limit allows ${allowed} (burst ${RATE.burst} + ${RATE.perSecond}/s)`);
    assert.ok(
      refused.every((a) => a.retryAfter !== null && a.message?.error?.code === -32000),
      "every 429 says when to retry",
    );
    t.diagnostic(
      `rate: 150 requests of one caller in ${seconds.toFixed(2)} s through nginx: ${ok} answered 200 (limit ${allowed} = burst ${RATE.burst} + ${RATE.perSecond}/s × time), ${refused.length} answered 429`,
    );
  });

  it("accepts a call's second round on another instance than its first", async (t: TestContext) => {
    const mcp = new URL("/mcp", nginx.url);
    const token = await tokenFor("asker");
    const seen: string[] = [];
    for (let round = 0; round < 3; round++) {
      const first = await callModern(mcp, token, "ask");
      assert.equal(first.message?.result?.resultType, "input_required", JSON.stringify(first.message));
      const asked = JSON.stringify(first.message?.result?.inputRequests);
      const askedOn = IDS.find((id) => asked.includes(`asked on ${id}`))!;
      const other = instances[IDS[(IDS.indexOf(askedOn) + 1) % 3]!];
      const second = await callModern(
        other.url,
        token,
        "ask",
        {},
        {
          requestState: first.message?.result?.requestState,
          inputResponses: { q: { action: "accept", content: { answer: "yes" } } },
        },
      );
      assert.equal(textOf(second), `asked on ${askedOn}, answered yes on ${other.id}`);
      seen.push(`${askedOn}→${other.id}`);
    }
    t.diagnostic(`requestState: 3 two-round calls, rounds on ${seen.join(", ")}, all accepted`);
  });

  it("routes every request of a 2025-era session to its instance through nginx, from the first after initialize", async (t: TestContext) => {
    const mcp = new URL("/mcp", nginx.url);
    const placed: string[] = [];
    for (let i = 0; i < 6; i++) {
      const { client, transport } = await connectV2(cleanup, mcp, "legacy", { headers: { authorization: `Bearer ${await tokenFor(`session-${i}`)}` } });
      const owner = transport.sessionId!.split(".")[0]!;
      assert.ok((IDS as readonly string[]).includes(owner), `the session id names an instance: ${transport.sessionId}`);
      for (let call = 0; call < 4; call++) {
        const result = (await client.callTool({ name: "whoami", arguments: {} })) as { content: Array<{ text: string }> };
        assert.equal(result.content[0]!.text, owner, `call ${call} of session ${i} reached its own instance`);
      }
      placed.push(owner);
    }
    assert.equal(new Set(placed).size, 3, `initialize round-robins: ${placed.join(", ")}`);
    t.diagnostic(`2025 sessions: 6 opened through nginx (on ${placed.join(", ")}), 4 calls each (24 in all), every one answered by the session's own instance`);
  });

  it("polls a task made through nginx to completion on every instance in turn", async (t: TestContext) => {
    const token = await tokenFor("task-poller");
    const started = performance.now();
    const { taskId, runsOn } = taskOf(await rpc(new URL("/mcp", nginx.url), "tools/call", { name: "job", arguments: { label: "rr", ms: 1_500 } }, { token }));
    const seen: string[] = [];
    const completedOn = new Set<string>();
    for (let poll = 0; completedOn.size < IDS.length; poll++) {
      assert.ok(poll < 200, `the task completed within 200 polls: ${seen.join(" ")}`);
      const on = IDS[poll % IDS.length]!;
      const task = await taskOn(instances[on].url, token, taskId);
      seen.push(`${on}:${task.status}`);
      if (task.status === "completed") {
        assert.equal(task.result.content[0].text, `rr done on ${runsOn}`, `${on} shows the result of the run on ${runsOn}`);
        completedOn.add(on);
        continue;
      }
      assert.equal(task.status, "working", `${on} sees it working until it completes`);
      assert.equal(task.statusMessage, `rr working on ${runsOn}`);
      await nextPoll();
    }
    const elsewhere = seen.filter((s) => !s.startsWith(runsOn)).length;
    t.diagnostic(
      `tasks, round robin: a 1.5 s task made through nginx ran on ${runsOn}; ${seen.length} polls (every ${TASK_POLL_MS} ms, ${elsewhere} on other instances) saw it working then completed on all three; ${(performance.now() - started).toFixed(0)} ms from the call to the last poll`,
    );
  });

  it("cancels from C a task made on A and polled on B: the handler on A sees its signal", async (t: TestContext) => {
    const token = await tokenFor("task-canceller");
    const [a, b, c] = [instances["mcp-a"], instances["mcp-b"], instances["mcp-c"]];
    const { taskId, runsOn } = taskOf(await rpc(a.url, "tools/call", { name: "job", arguments: { label: "cancel-me" } }, { token }));
    assert.equal(runsOn, "mcp-a");
    assert.equal((await taskOn(b.url, token, taskId)).statusMessage, "cancel-me working on mcp-a", "B reads the task A runs");
    const started = performance.now();
    const cancelled = await rpc(c.url, "tasks/cancel", { taskId }, { token });
    assert.equal(cancelled.error, undefined, JSON.stringify(cancelled));
    await a.cli.stderrMatches(/job cancel-me on mcp-a saw its signal/);
    const signalled = performance.now() - started;
    let polls = 0;
    await until("B sees the task cancelled", async () => (polls++, (await taskOn(b.url, token, taskId)).status === "cancelled"));
    t.diagnostic(
      `tasks, cancel: made on mcp-a, polled on mcp-b, cancelled from mcp-c; the handler on mcp-a saw its signal ${signalled.toFixed(1)} ms after the cancel; mcp-b showed it cancelled at poll ${polls}`,
    );
  });

  it("fails, within its lease, the task of an instance SIGKILLed mid-task, on whichever instance is polled next", async (t: TestContext) => {
    const token = await tokenFor("task-orphan");
    const mcp = new URL("/mcp", nginx.url);
    // A fourth instance of the fleet, outside nginx's pool, so the faults below still find all three.
    const doomed = await startInstance(cleanup, fleetConfig(cleanup), "mcp-d", redis.url);
    if (process.env.FLEET_SHARING_OFF !== "redis") await until("mcp-d reaches Redis", async () => (await healthOf(doomed)).scaleOut?.redis === "up");
    const { taskId, runsOn } = taskOf(await rpc(doomed.url, "tools/call", { name: "job", arguments: { label: "orphan" } }, { token }));
    assert.equal(runsOn, "mcp-d");
    assert.equal((await taskOn(mcp, token, taskId)).status, "working", "the fleet reads mcp-d's task");
    await doomed.cli.stop("SIGKILL");
    const killed = performance.now();
    const statuses: string[] = [];
    let failed: any;
    for (let poll = 0; failed === undefined; poll++) {
      assert.ok(poll < 200, `the task failed within 200 polls: ${statuses.join(" ")}`);
      const task = await taskOn(mcp, token, taskId);
      statuses.push(task.status);
      if (task.status === "failed") failed = task;
      else {
        assert.equal(task.status, "working", "until its lease runs out the task is working, never anything else");
        await nextPoll();
      }
    }
    const failedAfter = performance.now() - killed;
    assert.deepEqual(failed.error, { code: -32603, message: "The instance running this task (mcp-d) stopped before it finished." });
    await Promise.any(IDS.map((id) => instances[id].cli.stderrMatches(/TASK_LEASE_EXPIRED/)));
    for (const id of IDS) assert.equal((await taskOn(instances[id].url, token, taskId)).status, "failed", `${id} shows it failed`);
    t.diagnostic(
      `tasks, killed instance: mcp-d SIGKILLed mid-task; through nginx the task read working ${statuses.length - 1} times, then failed ${failedAfter.toFixed(0)} ms after the kill (lease ${TASK_LEASE_MS} ms, renewed every ${TASK_LEASE_MS / 3} ms)`,
    );
  });

  it("tells a listen stream on A about a change of a task running on B, answered from C", async (t: TestContext) => {
    const token = await tokenFor("task-listener");
    const [a, b, c] = [instances["mcp-a"], instances["mcp-b"], instances["mcp-c"]];
    const { taskId } = taskOf(await rpc(b.url, "tools/call", { name: "job", arguments: { label: "notify", ask: true } }, { token }));
    const stream = await listenTasks(a.url, token, [taskId]);
    cleanup.add(() => stream.close());
    await stream.events.next((m) => m.method === "notifications/tasks" && m.params?.taskId === taskId);
    await until("A follows the task changes", async () => (await followers("mcp-host:tasks:changed")) >= 1);
    const asking = await taskOn(c.url, token, taskId);
    assert.equal(asking.status, "input_required", JSON.stringify(asking));
    const started = performance.now();
    const completed = stream.events.next((m) => m.method === "notifications/tasks" && m.params?.status === "completed");
    const answered = await rpc(c.url, "tasks/update", { taskId, inputResponses: { go: { action: "accept", content: { go: true } } } }, { token });
    assert.equal(answered.error, undefined, JSON.stringify(answered));
    const notification = await completed;
    const latency = performance.now() - started;
    assert.equal(notification.params.result.content[0].text, "notify answered true on mcp-b", "the answer sent to C ran on B, and A heard it");
    stream.close();
    t.diagnostic(
      `tasks, notifications: a task running on mcp-b, answered through mcp-c; A's listen stream got notifications/tasks completed ${latency.toFixed(1)} ms after the answer was sent`,
    );
  });

  it("loses no modern request and only the killed instance's sessions when one instance is SIGKILLed", async (t: TestContext) => {
    const mcp = new URL("/mcp", nginx.url);
    const sessions: Array<{ owner: string; call: () => Promise<string> }> = [];
    for (let i = 0; sessions.filter((s) => s.owner === "mcp-c").length < 2 && i < 12; i++) {
      const { client, transport } = await connectV2(cleanup, mcp, "legacy", { headers: { authorization: `Bearer ${await tokenFor(`kill-session-${i}`)}` } });
      const call = async () => ((await client.callTool({ name: "whoami", arguments: {} })) as { content: Array<{ text: string }> }).content[0]!.text;
      sessions.push({ owner: transport.sessionId!.split(".")[0]!, call });
    }
    assert.ok(
      sessions.some((s) => s.owner === "mcp-c") && sessions.some((s) => s.owner !== "mcp-c"),
      `sessions on C and elsewhere: ${sessions.map((s) => s.owner)}`,
    );
    let done = 0;
    let gone = false;
    let killed: Promise<void> | undefined;
    const answers = await inPool(60, 6, async (i) => {
      const startedAfterKill = gone;
      const answer = await callModern(mcp, await tokenFor(`kill-${i}`), "whoami");
      if (++done === 15) killed = instances["mcp-c"].cli.stop("SIGKILL").then(() => void (gone = true));
      return { answer, startedAfterKill };
    });
    await killed;
    const lost = answers.filter((a) => a.answer.status !== 200).map((a) => a.answer);
    assert.deepEqual(lost, [], "no modern request was lost");
    const afterwards = answers.filter((a) => a.startedAfterKill).map((a) => textOf(a.answer));
    assert.ok(afterwards.length > 0 && !afterwards.includes("mcp-c"), `nothing is answered by the killed instance once it is gone: ${afterwards}`);
    let reopened = 0;
    let kept = 0;
    for (const session of sessions) {
      if (session.owner !== "mcp-c") {
        assert.equal(await session.call(), session.owner, "a session on a live instance goes on");
        kept++;
        continue;
      }
      await assert.rejects(session.call(), /Session not found/, "a session of the killed instance gets the clean 404");
      const { client, transport } = await connectV2(cleanup, mcp, "legacy", { headers: { authorization: `Bearer ${await tokenFor(`reopened-${reopened}`)}` } });
      const owner = transport.sessionId!.split(".")[0]!;
      assert.notEqual(owner, "mcp-c");
      assert.equal(((await client.callTool({ name: "whoami", arguments: {} })) as { content: Array<{ text: string }> }).content[0]!.text, owner);
      reopened++;
    }
    t.diagnostic(
      `kill: SIGKILL of mcp-c during 60 modern calls: 60 answered 200 (0 lost); ${reopened} of its sessions got 404 and re-initialized on a live instance; ${kept} sessions elsewhere went on`,
    );
  });

  it("loses no request while Redis is down, and events cross instances again once it is back", async (t: TestContext) => {
    const [a, b] = [instances["mcp-a"], instances["mcp-b"]];
    const mcp = new URL("/mcp", nginx.url);
    const listener = await listenModern(a.url, await tokenFor("outage-listener"), [NOTE]);
    cleanup.add(() => listener.close());
    await until("A follows the resource's channel", async () => (await followers(CHANNEL)) === 1);
    await redis.stop();
    await until("A sees Redis down", async () => (await healthOf(a)).scaleOut?.redis === "down");
    const health = await healthOf(a);
    assert.equal(health.status, "degraded");
    await a.cli.stderrMatches(/SCALE_OUT_REDIS_DOWN/);
    // One caller sends more than its burst: the rate cannot be checked, so it is served (fail open), never a 5xx.
    const flood = await tokenFor("outage-flood");
    const answers = await inPool(RATE.burst + 20, 6, () => callModern(mcp, flood, "whoami"));
    assert.deepEqual(
      answers.filter((x) => x.status !== 200).map((x) => x.status),
      [],
      "every request of the outage was answered 200",
    );
    // Meanwhile an event raised on A still reaches A's own listeners.
    const local = await timedUpdate(a, () => listener.events.next(isUpdate));
    await redis.start();
    await until("A and B are connected again", async () => (await healthOf(a)).scaleOut?.redis === "up" && (await healthOf(b)).scaleOut?.redis === "up");
    await until("A follows the resource's channel again", async () => (await followers(CHANNEL)) === 1);
    const crossed = await timedUpdate(b, () => listener.events.next(isUpdate));
    listener.close();
    t.diagnostic(
      `redis outage: ${answers.length} requests of one caller (burst ${RATE.burst}) while Redis was down, all 200; /healthz degraded; an event on A reached A in ${local.toFixed(1)} ms; after Redis came back an event on B reached A in ${crossed.toFixed(1)} ms`,
    );
  });
});

/** The rate of the fleet without tokens: low, so a spoof that escaped its bucket would show. */
const CALLER_RATE = { perSecond: 1, burst: 5 };

describe("two clients behind nginx without tokens", { timeout: 120_000 }, () => {
  const callers = new Cleanup();
  let front: NginxProcess;
  let direct: Instance;
  const A = "127.0.0.2";
  const B = "127.0.0.3";

  before(async () => {
    assertBuilt();
    assertFleetServers();
    const store = await startRedis(callers);
    callers.add(() => closeClientAgents());
    // One session per client and instance, so a share is quickly full.
    const config = fleetConfig(callers, { tokens: false, rate: CALLER_RATE, http: ["maxSessionsPerCaller: 1"] });
    const started = await Promise.all(IDS.map((id) => startInstance(callers, config, id, store.url)));
    direct = started[0]!;
    front = await startNginx(callers, { MCP_HOST_A: started[0]!.url.host, MCP_HOST_B: started[1]!.url.host, MCP_HOST_C: started[2]!.url.host });
  });
  after(() => callers.run());

  it("gives each client its own rate bucket; a spoofed X-Forwarded-For does not get one out of its own", async (t: TestContext) => {
    const mcp = new URL("/mcp", front.url);
    const call = (url: URL, sender: Sender) => callModern(url, undefined, "whoami", {}, {}, sender);
    // A spends far more than its burst, across the fleet.
    const started = performance.now();
    const flood = await inPool(20, 10, () => call(mcp, { from: A }));
    const refusedA = flood.filter((a) => a.status === 429).length;
    assert.ok(refusedA > 0, `A was held to its rate: ${refusedA} of ${flood.length} refused`);
    // B, behind the same nginx, still has its whole burst.
    const ofB: number[] = [];
    for (let i = 0; i < CALLER_RATE.burst; i++) ofB.push((await call(mcp, { from: B })).status);
    assert.deepEqual(ofB, Array(CALLER_RATE.burst).fill(200), "B's requests are B's, not A's");
    // A claims to forward for someone new each time: through nginx (which appends A's real address), and straight to
    // an instance (which trusts nginx alone). Were any claim believed, each would be a fresh bucket and answered 200.
    const spoofed = await inPool(20, 10, (i) => call(i % 2 === 0 ? mcp : direct.url, { from: A, headers: { "x-forwarded-for": `198.51.100.${i + 1}` } }));
    const seconds = (performance.now() - started) / 1000;
    const okA = [...flood, ...spoofed].filter((a) => a.status === 200).length;
    const allowed = CALLER_RATE.burst + Math.ceil(CALLER_RATE.perSecond * seconds) + 1;
    assert.deepEqual([...new Set([...flood, ...spoofed].map((a) => a.status))].sort(), [200, 429]);
    assert.ok(okA <= allowed, `A's 200s, spoofed ones included, stay within its one bucket: ${okA} in ${seconds.toFixed(2)} s, limit ${allowed}`);
    t.diagnostic(
      `callers without tokens: A sent 20 through nginx (${refusedA} answered 429); B then sent ${CALLER_RATE.burst}, all 200; A sent 20 more with a fresh spoofed X-Forwarded-For each (half through nginx, half straight to ${direct.id}): A's 200s in all ${okA}, limit ${allowed} (burst ${CALLER_RATE.burst} + ${CALLER_RATE.perSecond}/s × ${seconds.toFixed(2)} s)`,
    );
  });

  it("gives each client its own share of the 2025-era sessions", async (t: TestContext) => {
    const mcp = new URL("/mcp", front.url);
    const C = "127.0.0.4";
    const D = "127.0.0.5";
    // C opens sessions until an instance says its share (1 per instance) is full.
    const ofC: number[] = [];
    for (let i = 0; i < 6 && !ofC.includes(429); i++) ofC.push((await initializeLegacy(mcp, { from: C })).status);
    assert.equal(ofC.at(-1), 429, `C filled its share: ${ofC.join(", ")}`);
    assert.ok(ofC.filter((s) => s === 200).length <= 3, `at most one session per instance: ${ofC.join(", ")}`);
    // D, behind the same nginx, still opens one; a spoof from C does not.
    const ofD = await initializeLegacy(mcp, { from: D });
    assert.equal(ofD.status, 200, ofD.message);
    assert.ok(ofD.session, "D has a session");
    // C's share on one instance, reached straight, is full (whichever instances nginx picked above).
    let straight = 200;
    for (let i = 0; i < 2 && straight === 200; i++) straight = (await initializeLegacy(direct.url, { from: C })).status;
    assert.equal(straight, 429);
    const spoofing = await initializeLegacy(direct.url, { from: C, headers: { "x-forwarded-for": "198.51.100.24" } });
    assert.equal(spoofing.status, 429, "C straight to an instance, claiming another address, is still C");
    t.diagnostic(`sessions without tokens: C opened ${ofC.filter((s) => s === 200).length} then got 429; D opened one through the same nginx`);
  });
});
