// MCP tasks over real HTTP (issue 29, docs/tasks.md): a task-supporting tool called by a client that declares the
// extension is answered with a task once it runs on (ctx.task.start() or taskAfterMs), the handler goes on, and
// tasks/get shows its status, its questions and finally its result; tasks/update answers its questions (in parts, with
// keys unique for the task's life), tasks/cancel stops its handler through its signal; a client without the extension
// gets the plain result, and -32021 for the task methods and for a tool that runs only as a task; listen streams get
// notifications/tasks for the caller's own tasks.
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { acceptedContent, inputRequired, type McpExtension } from "../../src/index.js";
import { Cleanup, deferred, LEGACY_POST_HEADERS, legacyBody, raw, serveHost } from "../helpers/http-host.js";
import { metaOf, rpc, startTask, TASKS, untilStatus } from "./tasks-kit.js";
const SKILLS = "io.modelcontextprotocol/skills";

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

const text = (t: string) => ({ content: [{ type: "text" as const, text: t }] });

/** Tools whose progress the test steps through by hand: each waits on a gate the test opens. */
function jobs(gates: { release: () => void; wait: Promise<void> }, seen: string[]): McpExtension {
  const confirm = (message: string) =>
    inputRequired.elicit({ mode: "form", message, requestedSchema: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] } as never });
  return {
    name: "jobs",
    tools: [
      {
        name: "export",
        taskSupport: "optional",
        handler: async (_args, ctx) => {
          await ctx.task?.start("queued");
          await ctx.progress(1, 3, "exporting");
          await gates.wait;
          return text(`exported (${ctx.task?.running ? `as task ${ctx.task.taskId?.length} chars` : "on the request"})`);
        },
      },
      {
        name: "only_as_task",
        taskSupport: "required",
        handler: async (_args, ctx) => {
          await ctx.task?.start();
          return text("done");
        },
      },
      {
        name: "wait_for_cancel",
        taskSupport: "optional",
        handler: async (_args, ctx) => {
          await ctx.task?.start("waiting");
          await new Promise<void>((_, reject) => ctx.signal.addEventListener("abort", () => reject(ctx.signal.reason), { once: true }));
          return text("never");
        },
      },
      {
        name: "ask_twice",
        taskSupport: "optional",
        handler: async (_args, ctx) => {
          const round = Number(ctx.requestState<string>() ?? "0") + 1;
          const answer = acceptedContent<{ ok?: unknown }>(ctx.inputResponses, "confirm");
          if (answer !== undefined) seen.push(`round ${round}: ${JSON.stringify(answer)}`);
          if (round <= 2) {
            await ctx.task?.start();
            return inputRequired({ inputRequests: { confirm: confirm(`round ${round}?`), also: confirm("and this?") }, requestState: String(round) });
          }
          return text(`asked twice: ${seen.join("; ")}`);
        },
      },
    ],
  };
}

function gate() {
  const opened = deferred<void>();
  return { release: () => opened.resolve(), wait: opened.promise };
}

describe("MCP tasks over HTTP", { timeout: 60_000 }, () => {
  it("answers with a task, shows it working with its status, then completed with the result inlined", async () => {
    const gates = gate();
    const { url } = await serveHost(cleanup, [jobs(gates, [])]);
    const created = await rpc(url, "tools/call", { name: "export", arguments: {} });
    assert.equal(created.result.resultType, "task");
    assert.deepEqual(Object.keys(created.result).sort(), [
      "_meta",
      "content",
      "createdAt",
      "lastUpdatedAt",
      "pollIntervalMs",
      "resultType",
      "status",
      "statusMessage",
      "taskId",
      "ttlMs",
    ]);
    assert.equal(created.result.status, "working");
    assert.equal(created.result.statusMessage, "queued");
    assert.ok(Number.isInteger(created.result.ttlMs) && Number.isInteger(created.result.pollIntervalMs));
    const taskId = created.result.taskId as string;
    assert.match(taskId, /^[0-9a-f-]{36}$/, "an unguessable id");
    const working = await untilStatus(url, taskId, "working");
    assert.equal(working.resultType, "complete");
    assert.equal(working.statusMessage, "exporting", "progress lands in the task's status message");
    assert.equal("result" in working, false);
    gates.release();
    const done = await untilStatus(url, taskId, "completed");
    assert.deepEqual(done.result.content, [{ type: "text", text: "exported (as task 36 chars)" }]);
  });

  it("gives a client without the extension the plain result, -32021 for the task methods and a task-only tool", async () => {
    const gates = gate();
    gates.release();
    const { url } = await serveHost(cleanup, [jobs(gates, [])]);
    const plain = await rpc(url, "tools/call", { name: "export", arguments: {} }, { tasks: false });
    assert.equal(plain.result.resultType, "complete");
    assert.deepEqual(plain.result.content, [{ type: "text", text: "exported (on the request)" }]);
    for (const [method, params] of [
      ["tasks/get", { taskId: "x" }],
      ["tasks/update", { taskId: "x", inputResponses: {} }],
      ["tasks/cancel", { taskId: "x" }],
    ] as const) {
      const refused = await rpc(url, method, params, { tasks: false });
      assert.equal(refused.error?.code, -32021, `${method}: ${JSON.stringify(refused)}`);
      assert.deepEqual(refused.error?.data, { requiredCapabilities: { extensions: { [TASKS]: {} } } });
    }
    const taskOnly = await rpc(url, "tools/call", { name: "only_as_task", arguments: {} }, { tasks: false });
    assert.equal(taskOnly.error?.code, -32021, JSON.stringify(taskOnly));
    const discovered = await rpc(url, "server/discover", {});
    // Beside the skills extension, which every selection declares (docs/skills.md).
    assert.deepEqual(discovered.result.capabilities.extensions, { [TASKS]: {}, [SKILLS]: { directoryRead: true } }, "the server advertises the extension");
  });

  it("parks a task on its questions, takes answers in parts, and keeps keys unique across rounds", async () => {
    const seen: string[] = [];
    const { url } = await serveHost(cleanup, [jobs(gate(), seen)]);
    const taskId = await startTask(url, "ask_twice");
    const first = await untilStatus(url, taskId, "input_required");
    assert.deepEqual(Object.keys(first.inputRequests).sort(), ["also", "confirm"]);
    const yes = { action: "accept", content: { ok: true } };
    const ack = await rpc(url, "tasks/update", { taskId, inputResponses: { confirm: yes, nosuch: yes, also: { bogus: 1 } } });
    assert.equal(ack.result.resultType, "complete");
    assert.deepEqual(Object.keys(ack.result).sort(), ["_meta", "resultType"], "an empty acknowledgement");
    const partial = await untilStatus(url, taskId, "input_required");
    assert.deepEqual(Object.keys(partial.inputRequests), ["also"], "the answered key is gone, a malformed answer leaves its key open");
    await rpc(url, "tasks/update", { taskId, inputResponses: { also: yes } });
    const second = await untilStatus(url, taskId, "input_required");
    assert.deepEqual(Object.keys(second.inputRequests).sort(), ["also#2", "confirm#2"], "a later round's keys are new");
    await rpc(url, "tasks/update", { taskId, inputResponses: { "confirm#2": { action: "accept", content: { ok: false } }, "also#2": yes } });
    const done = await untilStatus(url, taskId, "completed");
    assert.equal(done.result.content[0].text, 'asked twice: round 2: {"ok":true}; round 3: {"ok":false}');
  });

  it("cancels a running task: the handler's signal aborts and the task ends cancelled; a second cancel is acknowledged", async () => {
    const { url } = await serveHost(cleanup, [jobs(gate(), [])]);
    const taskId = await startTask(url, "wait_for_cancel");
    const ack = await rpc(url, "tasks/cancel", { taskId });
    assert.equal(ack.result.resultType, "complete");
    assert.equal("status" in ack.result, false);
    const cancelled = await untilStatus(url, taskId, "cancelled");
    assert.equal(cancelled.taskId, taskId);
    assert.equal((await rpc(url, "tasks/cancel", { taskId })).result.resultType, "complete", "cancel is idempotent");
    assert.equal((await rpc(url, "tasks/get", { taskId: "nosuch" })).error?.code, -32602);
  });

  it("runs what a round left to clean up when its task is cancelled while it waits for answers, and not after answers", async () => {
    const cleaned: string[] = [];
    const hold: McpExtension = {
      name: "hold",
      tools: [
        {
          name: "hold_and_ask",
          taskSupport: "optional",
          handler: async (_args, ctx) => {
            const round = Number(ctx.requestState<string>() ?? "0") + 1;
            await ctx.task?.start();
            if (round > 2) return text("released");
            ctx.task?.onAbandon(() => cleaned.push(`round ${round}`));
            // A cleanup that fails must not keep the task from ending or the other cleanups from running.
            ctx.task?.onAbandon(() => {
              throw new Error("cleanup failed");
            });
            return inputRequired({
              inputRequests: {
                confirm: { method: "elicitation/create", params: { mode: "form", message: "go on?", requestedSchema: { type: "object", properties: {} } } },
              },
              requestState: String(round),
            } as never);
          },
        },
      ],
    };
    const { url } = await serveHost(cleanup, [hold]);
    const taskId = await startTask(url, "hold_and_ask");
    await untilStatus(url, taskId, "input_required");
    // Answered: the next round starts with no cleanup left from the first.
    await rpc(url, "tasks/update", { taskId, inputResponses: { confirm: { action: "accept", content: {} } } });
    const second = await untilStatus(url, taskId, "input_required");
    assert.deepEqual(Object.keys(second.inputRequests), ["confirm#2"]);
    assert.deepEqual(cleaned, []);
    await rpc(url, "tasks/cancel", { taskId });
    assert.equal((await untilStatus(url, taskId, "cancelled")).status, "cancelled");
    assert.deepEqual(cleaned, ["round 2"], "the waiting round's cleanup ran, once");
  });

  it("gives a 2025-era session that declared the extension at initialize tasks too", async () => {
    const gates = gate();
    const { url } = await serveHost(cleanup, [jobs(gates, [])]);
    const init = await raw({
      url,
      method: "POST",
      headers: LEGACY_POST_HEADERS,
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: { extensions: { [TASKS]: {} } }, clientInfo: { name: "legacy", version: "1" } },
      }),
    });
    assert.deepEqual(init.json.result.capabilities.extensions, { [TASKS]: {}, [SKILLS]: { directoryRead: true } });
    const headers = { ...LEGACY_POST_HEADERS, "mcp-session-id": String(init.headers["mcp-session-id"]), "mcp-protocol-version": "2025-11-25" };
    const call = await raw({ url, method: "POST", headers, body: legacyBody("tools/call", { name: "export", arguments: {} }, 2) });
    assert.equal(call.json.result.resultType, "task", JSON.stringify(call.json));
    gates.release();
    for (;;) {
      const got = await raw({ url, method: "POST", headers, body: legacyBody("tasks/get", { taskId: call.json.result.taskId }, 3) });
      if (got.json.result.status === "completed") {
        assert.equal(got.json.result.result.content[0].text, "exported (as task 36 chars)");
        break;
      }
    }
  });

  it("sends notifications/tasks on a listen stream for the caller's own tasks, the current state first", async () => {
    const gates = gate();
    const { url } = await serveHost(cleanup, [jobs(gates, [])]);
    const taskId = await startTask(url, "export");
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "text/event-stream", "mcp-protocol-version": "2026-07-28", "mcp-method": "subscriptions/listen" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 77,
        method: "subscriptions/listen",
        params: { notifications: { taskIds: [taskId, "nosuch"] }, _meta: metaOf() },
      }),
    });
    assert.equal(response.status, 200);
    const events = sseMessages(response.body!);
    const ack = (await events.next()).value;
    assert.equal(ack.method, "notifications/subscriptions/acknowledged");
    assert.deepEqual(ack.params.notifications, { taskIds: [taskId] }, "only the caller's known task is honoured");
    const current = (await events.next()).value;
    assert.equal(current.method, "notifications/tasks");
    assert.equal(current.params.taskId, taskId);
    assert.equal(current.params._meta["io.modelcontextprotocol/subscriptionId"], 77);
    gates.release();
    for (;;) {
      const next = (await events.next()).value;
      assert.equal(next.method, "notifications/tasks");
      if (next.params.status === "completed") {
        assert.deepEqual(next.params.result.content[0].text, "exported (as task 36 chars)");
        break;
      }
    }
    await events.return(undefined);
    const refused = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "text/event-stream", "mcp-protocol-version": "2026-07-28", "mcp-method": "subscriptions/listen" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 78, method: "subscriptions/listen", params: { notifications: { taskIds: [taskId] }, _meta: metaOf(false) } }),
    });
    assert.equal(((await refused.json()) as { error: { code: number } }).error.code, -32021);
  });
});

/** The JSON-RPC messages of an SSE body, one by one. */
async function* sseMessages(body: ReadableStream<Uint8Array>): AsyncGenerator<any, void, undefined> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let pending = "";
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      pending += decoder.decode(value, { stream: true });
      for (let end = pending.indexOf("\n\n"); end >= 0; end = pending.indexOf("\n\n")) {
        const data = pending
          .slice(0, end)
          .split("\n")
          .find((line) => line.startsWith("data: "));
        pending = pending.slice(end + 2);
        if (data !== undefined) yield JSON.parse(data.slice(6));
      }
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}
