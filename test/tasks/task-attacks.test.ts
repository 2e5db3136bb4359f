// Attacks on MCP tasks (issue 29, docs/tasks.md, docs/security.md), over real HTTP with token verification on:
// another caller's task ids and forged ids are answered exactly like an id nobody made (-32602), and change nothing;
// a flood of task creations stops at the caller's share (tasks.maxPerCaller) with a clear refusal while other callers
// go on; a result over the deployment's limit completes the task with an isError naming the limit, never storing it;
// TTLs are bounded — a tool's own is refused when malformed and clamped to tasks.maxTtlMs, a client's legacy hint is
// ignored, and an expired task is gone for everyone.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { buildHost } from "../../src/entries/testing.js";
import { createManualClock } from "../../src/manual-clock.js";
import type { McpExtension } from "../../src/index.js";
import { authTestFile } from "../helpers/auth-host.js";
import { deferred } from "../helpers/http-host.js";
import { rpc, startTask, untilStatus } from "./tasks-kit.js";

const file = authTestFile();

const text = (t: string) => ({ content: [{ type: "text" as const, text: t }] });

/** Tools that run as tasks until the test lets them finish, one that returns a large result, and runs recorded. */
function taskTools(opened: Promise<void>, runs: string[]): McpExtension {
  return {
    name: "work",
    toolsets: [{ name: "work" }],
    tools: [
      {
        name: "long",
        taskSupport: "required",
        handler: async (_args, ctx) => {
          await ctx.task?.start();
          runs.push("long started");
          await Promise.race([opened, new Promise((_, reject) => ctx.signal.addEventListener("abort", () => reject(ctx.signal.reason), { once: true }))]);
          runs.push("long finished");
          return text("long done");
        },
      },
      {
        name: "maybe_long",
        taskSupport: "optional",
        handler: async (_args, ctx) => {
          await ctx.task?.start();
          return text(ctx.task?.running ? "as a task" : "on the request");
        },
      },
      {
        name: "big",
        taskSupport: "optional",
        handler: async (_args, ctx) => {
          await ctx.task?.start();
          return text("x".repeat(64 * 1024));
        },
      },
      {
        name: "long_ttl",
        taskSupport: "optional",
        taskTtlMs: 86_400_000,
        handler: async (_args, ctx) => {
          await ctx.task?.start();
          return text("kept");
        },
      },
    ],
  };
}

const FORGED: unknown[] = ["", "nosuch", "00000000-0000-4000-8000-000000000000", "x".repeat(10_000), "../../etc/passwd", "\u202e\u0000", 42, null, {}];

describe("attacks on MCP tasks", { timeout: 90_000 }, () => {
  it("answers another caller's task id exactly like a forged one, and it changes nothing", async () => {
    const gate = deferred<void>();
    const runs: string[] = [];
    const served = await file.serve({ extensions: [taskTools(gate.promise, runs)], auth: { toolsetScopes: {} } });
    const alice = await served.token({ sub: "alice", client_id: "shared-app" });
    const bob = await served.token({ sub: "bob", client_id: "shared-app" });
    const taskId = await startTask(served.url, "long", {}, alice);
    const nosuch = crypto.randomUUID();
    for (const [method, extra] of [
      ["tasks/get", {}],
      ["tasks/update", { inputResponses: {} }],
      ["tasks/cancel", {}],
    ] as const) {
      const stolen = await rpc(served.url, method, { taskId, ...extra }, { token: bob });
      const unknown = await rpc(served.url, method, { taskId: nosuch, ...extra }, { token: bob });
      assert.equal(stolen.error?.code, -32602, `${method} by another caller: ${JSON.stringify(stolen)}`);
      assert.deepEqual(stolen.error, unknown.error, `${method}: another caller's id is answered as an unknown one`);
    }
    assert.equal((await rpc(served.url, "tasks/get", { taskId }, { token: alice })).result.status, "working", "bob's cancel did not cancel it");
    gate.resolve();
    await untilStatus(served.url, taskId, "completed", alice);
    assert.deepEqual(runs, ["long started", "long finished"]);
  });

  it("refuses forged ids of every shape with -32602 (or invalid params), never a 5xx", async () => {
    const served = await file.serve({ extensions: [taskTools(new Promise(() => {}), [])], auth: { toolsetScopes: {} } });
    const alice = await served.token({ sub: "alice" });
    for (const taskId of FORGED)
      for (const method of ["tasks/get", "tasks/update", "tasks/cancel"]) {
        const answer = await rpc(served.url, method, { taskId, inputResponses: {} }, { token: alice });
        assert.ok(answer.status < 500, `${method} ${JSON.stringify(taskId).slice(0, 20)}: HTTP ${answer.status}`);
        assert.ok(
          answer.error?.code === -32602 || answer.status === 400,
          `${method} ${JSON.stringify(taskId).slice(0, 20)}: ${JSON.stringify(answer).slice(0, 300)}`,
        );
      }
  });

  it("stops a flood of task creations at the caller's share, with a clear refusal; other callers go on", async () => {
    const gate = deferred<void>();
    const served = await file.serve({
      extensions: [taskTools(gate.promise, [])],
      auth: { toolsetScopes: {} },
      host: { tasks: { limits: { maxPerCaller: 3 } } },
    });
    const alice = await served.token({ sub: "alice" });
    const bob = await served.token({ sub: "bob" });
    const made = [];
    for (let i = 0; i < 3; i++) made.push(await startTask(served.url, "long", {}, alice));
    const refused: string[] = [];
    for (let i = 0; i < 20; i++) {
      const answer = await rpc(served.url, "tools/call", { name: "long", arguments: {} }, { token: alice });
      assert.equal(answer.result?.isError, true, JSON.stringify(answer));
      refused.push(answer.result.content[0].text);
    }
    assert.match(refused[0]!, /3 unfinished tasks already \(tasks\.maxPerCaller\)/);
    const optional = await rpc(served.url, "tools/call", { name: "maybe_long", arguments: {} }, { token: alice });
    assert.deepEqual(optional.result.content, [{ type: "text", text: "on the request" }], "an optional tool runs on the request instead");
    assert.equal(typeof (await startTask(served.url, "long", {}, bob)), "string", "another caller has its own share");
    gate.resolve();
    for (const taskId of made) await untilStatus(served.url, taskId, "completed", alice);
    assert.equal(typeof (await startTask(served.url, "long", {}, alice)), "string", "finished tasks free the share");
  });

  it("completes a task whose result is over the limit with an isError naming it, and keeps nothing large", async () => {
    const served = await file.serve({
      extensions: [taskTools(new Promise(() => {}), [])],
      auth: { toolsetScopes: {} },
      host: { toolLimits: { maxResultBytes: 4096 } },
    });
    const alice = await served.token({ sub: "alice" });
    const taskId = await startTask(served.url, "big", {}, alice);
    const done = await untilStatus(served.url, taskId, "completed", alice);
    assert.equal(done.result.isError, true);
    assert.match(done.result.content[0].text, /4096 bytes|tools\.maxResultBytes/);
    assert.ok(JSON.stringify(done).length < 4096, "the stored task holds no large result");
  });

  it("bounds TTLs: a tool's is clamped to tasks.maxTtlMs, a client's hint is ignored, an expired task is gone", async () => {
    const served = await file.serve({
      extensions: [taskTools(new Promise(() => {}), [])],
      auth: { toolsetScopes: {} },
      host: { tasks: { limits: { ttlMs: 60_000, maxTtlMs: 120_000 } } },
    });
    const alice = await served.token({ sub: "alice" });
    const kept = await rpc(served.url, "tools/call", { name: "long_ttl", arguments: {}, task: { ttl: 1e15, pollInterval: 1 } }, { token: alice });
    assert.equal(kept.result.ttlMs, 120_000, "the tool's day is cut to the deployment's bound; the client's hint changes nothing");
    assert.equal(kept.result.pollIntervalMs, 1_000);
  });

  it("lets an expired task go for everyone, and refuses malformed TTL settings at load", async () => {
    const clock = createManualClock(1_000_000);
    const host = buildHost([taskTools(new Promise(() => {}), [])], { name: "ttl", clock, tasks: { limits: { ttlMs: 5_000 } } });
    await host.start();
    file.cleanup.add(() => host.stop());
    const running = await host.tasks.open({ owner: "o", tool: "t", toolset: "s", extension: "e", nextRound: async () => ({ kind: "cancelled" }) });
    await running.settle({ kind: "result", result: text("done") as Record<string, unknown> });
    assert.equal((await host.tasks.get(running.taskId, "o")).status, "completed");
    clock.advance(5_000);
    await assert.rejects(host.tasks.get(running.taskId, "o"), /Task not found/);
    // A task still running when its TTL runs out is failed, and its handler's signal aborts.
    const stuck = await host.tasks.open({ owner: "o", tool: "t", toolset: "s", extension: "e", nextRound: async () => ({ kind: "cancelled" }) });
    clock.advance(60_000);
    // The beat that fails it runs on the manual clock; its writes settle within the turn.
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(stuck.controller.signal.aborted, true, "the handler of a task past its TTL is stopped");
    assert.equal(stuck.task.status, "failed");
    assert.equal(host.tasks.size, 0, "nothing is held for it");
    for (const taskTtlMs of [0, -1, 1.5, 1e12, "60000"]) {
      const bad = buildHost([{ name: "bad", tools: [{ name: "t", taskSupport: "optional", taskTtlMs, handler: () => text("") } as never] }], { name: "x" });
      const status = bad.extensionStatuses().find((e) => e.name === "bad");
      assert.equal(status?.status, "failed", `taskTtlMs ${taskTtlMs}`);
      assert.match(status?.error ?? "", /taskTtlMs must be a whole number of milliseconds/);
    }
  });
});
