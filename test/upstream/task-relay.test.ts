// The gateway relays an upstream's MCP tasks (issue 29 §5, docs/gateway.md "Tasks"): a 2026-07-28 upstream over
// Streamable HTTP that answers a tools/call with a task has it followed under the gateway's own task — polled to its
// end, its status mirrored, its questions asked and answered through the gateway's task, a downstream cancel sent on as
// the upstream's tasks/cancel — every task request to that upstream only, with its credentials; the upstream's task id
// never reaches the downstream client, and the deployment's secrets are redacted from everything relayed. The
// extension is declared upstream only when the downstream caller declared it (§1); an upstream that answers with a
// task anyway is followed to its end on the request. (Another caller: task-relay-owner.test.ts.)
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { createSecretRedactor } from "../../src/secret-redactor.js";
import { Cleanup, LEGACY_POST_HEADERS, legacyBody, raw } from "../helpers/http-host.js";
import { serveTaskUpstream, type TaskUpstream } from "../fixtures/upstream/task-upstream.js";
import { rpc, type RpcAnswer, TASKS, untilStatus } from "../tasks/tasks-kit.js";
import { serveGateway } from "./gateway-kit.js";

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

const HIDDEN = "<upstream task>";

/** A gateway over one task upstream, with the upstream's key as the server's header (and so a secret to redact). */
async function relay(approval: "never" | "always" = "never", maxResultBytes?: number) {
  const secret = `sk-upstream-${randomUUID()}`;
  const upstream = await serveTaskUpstream(cleanup, { secret });
  const served = await serveGateway(cleanup, {
    servers: { builds: { url: upstream.url, era: "modern", headers: { "x-api-key": secret }, approval } },
    redactor: createSecretRedactor([secret]),
    ...(maxResultBytes === undefined ? {} : { maxResultBytes }),
  });
  return { secret, upstream, url: served.at("only=builds") };
}

/** Every downstream answer, kept to check what the client was shown. */
function transcript() {
  const answers: RpcAnswer[] = [];
  return {
    keep<T extends RpcAnswer>(answer: T): T {
      answers.push(answer);
      return answer;
    },
    text: () => JSON.stringify(answers),
  };
}

/** The client capabilities a request declared in its `_meta` envelope. */
function declaredBy(request: { params?: Record<string, unknown> }): { extensions?: object } | undefined {
  const meta = (request.params?._meta ?? {}) as Record<string, { extensions?: object }>;
  return meta["io.modelcontextprotocol/clientCapabilities"];
}

/** The task requests the upstream received. */
function taskRequests(upstream: TaskUpstream, method?: string) {
  return upstream.seen.filter((r) => (method === undefined ? r.method?.startsWith("tasks/") : r.method === method));
}

/** Polls the gateway's task until its status message matches (bounded). */
async function untilMessage(url: URL, taskId: string, pattern: RegExp): Promise<RpcAnswer> {
  for (let poll = 0; poll < 2_000; poll++) {
    const answer = await rpc(url, "tasks/get", { taskId });
    if (pattern.test(String(answer.result?.statusMessage))) return answer;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error(`the status message never matched ${pattern}`);
}

describe("the gateway relays upstream MCP tasks", { timeout: 60_000 }, () => {
  it("relays a task under the gateway's own id: polled to completion, status mirrored, secrets and the upstream id out", async () => {
    const { secret, upstream, url } = await relay();
    const seen = transcript();
    const created = seen.keep(await rpc(url, "tools/call", { name: "build", arguments: {} }));
    assert.equal(created.result?.resultType, "task", JSON.stringify(created));
    const taskId = created.result.taskId as string;
    await upstream.eventually(/^build: task$/);
    const upstreamId = upstream.taskIds[0]!;
    assert.notEqual(taskId, upstreamId, "the gateway's task has its own id");

    const working = seen.keep(await untilMessage(url, taskId, /building under/));
    assert.equal(working.result.status, "working");
    assert.equal(working.result.statusMessage, `building under ${HIDDEN}`, "the upstream's status, its task id taken out");

    upstream.finishBuild();
    const done = await untilStatus(url, taskId, "completed");
    seen.keep({ status: 200, result: done });
    assert.deepEqual(done.result.content, [{ type: "text", text: `built with key <redacted> (task ${HIDDEN})` }]);

    assert.ok(!seen.text().includes(upstreamId), "the upstream's task id never reaches the client");
    assert.ok(!seen.text().includes(secret), "the upstream's secret never reaches the client");
    const call = upstream.seen.find((r) => r.method === "tools/call")!;
    const declared = declaredBy(call);
    assert.ok(TASKS in (declared?.extensions ?? {}), "the call declared the tasks extension upstream");
    const gets = taskRequests(upstream, "tasks/get");
    assert.ok(gets.length > 0, "the upstream was polled");
    for (const request of gets) {
      assert.equal(request.params?.taskId, upstreamId, "every poll names the upstream's own task");
      assert.equal(request.headers["x-api-key"], secret, "with the server's credentials");
      assert.equal(request.headers["mcp-name"], upstreamId, "and its Mcp-Name header");
    }
  });

  it("sends a downstream tasks/cancel on to the upstream, which stops its work", async () => {
    const { upstream, url } = await relay();
    const created = await rpc(url, "tools/call", { name: "wait", arguments: {} });
    const taskId = created.result.taskId as string;
    await upstream.eventually(/^wait: started$/);
    const ack = await rpc(url, "tasks/cancel", { taskId });
    assert.equal(ack.error, undefined, JSON.stringify(ack));
    await upstream.eventually(/^wait: aborted$/);
    const cancels = taskRequests(upstream, "tasks/cancel");
    assert.deepEqual(
      cancels.map((r) => r.params?.taskId),
      [upstream.taskIds[0]],
      "one tasks/cancel, for the upstream's task",
    );
    assert.equal((await untilStatus(url, taskId, "cancelled")).status, "cancelled");
  });

  it("relays the upstream task's question as the gateway task's own and sends the answer back with tasks/update", async () => {
    const { upstream, url } = await relay();
    const seen = transcript();
    const created = seen.keep(await rpc(url, "tools/call", { name: "deploy", arguments: {} }));
    const taskId = created.result.taskId as string;
    const waiting = await untilStatus(url, taskId, "input_required");
    seen.keep({ status: 200, result: waiting });
    assert.deepEqual(Object.keys(waiting.inputRequests), ["confirm"]);
    assert.equal(waiting.inputRequests.confirm.method, "elicitation/create");
    assert.equal(waiting.inputRequests.confirm.params.message, `Deploy? (task ${HIDDEN})`);
    const ack = await rpc(url, "tasks/update", { taskId, inputResponses: { confirm: { action: "accept", content: { confirm: true } } } });
    assert.equal(ack.error, undefined, JSON.stringify(ack));
    const done = await untilStatus(url, taskId, "completed");
    seen.keep({ status: 200, result: done });
    assert.deepEqual(done.result.content, [{ type: "text", text: "deployed" }]);
    assert.ok(upstream.events.includes('deploy: answered {"confirm":true}'), upstream.events.join("\n"));
    const updates = taskRequests(upstream, "tasks/update");
    assert.equal(updates.length, 1);
    assert.equal(updates[0]!.params?.taskId, upstream.taskIds[0]);
    assert.ok(!seen.text().includes(upstream.taskIds[0]!), "the upstream's task id never reaches the client");
  });

  it("cancels the upstream's task when the client cancels while the relayed question waits for its answer", async () => {
    const { upstream, url } = await relay();
    const created = await rpc(url, "tools/call", { name: "deploy", arguments: {} });
    const taskId = created.result.taskId as string;
    await untilStatus(url, taskId, "input_required");
    assert.equal(taskRequests(upstream, "tasks/cancel").length, 0);
    const ack = await rpc(url, "tasks/cancel", { taskId });
    assert.equal(ack.error, undefined, JSON.stringify(ack));
    assert.equal((await untilStatus(url, taskId, "cancelled")).status, "cancelled");
    // No round of the gateway's handler runs while the question waits: the cleanup the round left sends the cancel.
    await upstream.received("tasks/cancel");
    assert.deepEqual(
      taskRequests(upstream, "tasks/cancel").map((r) => r.params?.taskId),
      [upstream.taskIds[0]],
      "one tasks/cancel, for the upstream's task",
    );
  });

  it("asks for approval first (approval: always), then relays the upstream's task", async () => {
    const { upstream, url } = await relay("always");
    // The approval is asked on the request, before the call is a task (as the spec advises for such questions).
    const approval = await rpc(url, "tools/call", { name: "deploy", arguments: {} });
    assert.equal(approval.result?.resultType, "input_required", JSON.stringify(approval));
    assert.deepEqual(Object.keys(approval.result.inputRequests), ["mcp-host/approve"]);
    assert.equal(upstream.seen.filter((r) => r.method === "tools/call").length, 0, "nothing ran upstream before the approval");
    const approve = { "mcp-host/approve": { action: "accept", content: { approve: true } } };
    const retried = await rpc(url, "tools/call", { name: "deploy", arguments: {}, inputResponses: approve, requestState: approval.result.requestState });
    assert.equal(retried.result?.resultType, "task", JSON.stringify(retried));
    const taskId = retried.result.taskId as string;
    const question = await untilStatus(url, taskId, "input_required", undefined, 2_000);
    assert.deepEqual(
      Object.keys(question.inputRequests).map((k) => k.replace(/#\d+$/, "")),
      ["confirm"],
      "then the upstream task's own question",
    );
    const key = Object.keys(question.inputRequests)[0]!;
    await rpc(url, "tasks/update", { taskId, inputResponses: { [key]: { action: "accept", content: { confirm: false } } } });
    const done = await untilStatus(url, taskId, "completed");
    assert.deepEqual(done.result.content, [{ type: "text", text: "not deployed" }]);
    assert.deepEqual(taskRequests(upstream, "tasks/update").length, 1);
  });

  it("fails the gateway's task with the upstream task's JSON-RPC error, redacted", async () => {
    const { secret, upstream, url } = await relay();
    const created = await rpc(url, "tools/call", { name: "broken", arguments: {} });
    const failed = await untilStatus(url, created.result.taskId, "failed");
    assert.equal(failed.error.code, -32602);
    assert.equal(failed.error.message, `target refused (task ${HIDDEN}, key <redacted>)`);
    assert.ok(!JSON.stringify(failed).includes(secret) && !JSON.stringify(failed).includes(upstream.taskIds[0]!));
  });

  it("relays for a 2025-era downstream session that declared the extension at initialize, too", async () => {
    const { upstream, url } = await relay();
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
    const headers = { ...LEGACY_POST_HEADERS, "mcp-session-id": String(init.headers["mcp-session-id"]), "mcp-protocol-version": "2025-11-25" };
    const call = await raw({ url, method: "POST", headers, body: legacyBody("tools/call", { name: "build", arguments: {} }, 2) });
    assert.equal(call.json.result.resultType, "task", JSON.stringify(call.json));
    await upstream.eventually(/^build: task$/);
    upstream.finishBuild();
    for (let poll = 0; ; poll++) {
      assert.ok(poll < 2_000, "the task completes");
      const got = await raw({ url, method: "POST", headers, body: legacyBody("tasks/get", { taskId: call.json.result.taskId }, 3 + poll) });
      if (got.json.result.status !== "completed") continue;
      assert.deepEqual(got.json.result.result.content, [{ type: "text", text: `built with key <redacted> (task ${HIDDEN})` }]);
      break;
    }
  });

  it("gives up a tasks/get answer over the answer limit: the task completes with an isError naming it, and is cancelled upstream", async () => {
    const { upstream, url } = await relay("never", 64 * 1024);
    const created = await rpc(url, "tools/call", { name: "big", arguments: { kib: 256 } });
    const done = await untilStatus(url, created.result.taskId, "completed");
    assert.equal(done.result.isError, true, JSON.stringify(done).slice(0, 500));
    assert.equal(done.result._meta?.["mcp-host/error"]?.code, "MCP_ANSWER_TOO_LARGE", JSON.stringify(done).slice(0, 500));
    assert.match(done.result.content[0].text, /^tool "big" on server "builds" ran as a task the gateway lost track of \(tasks\/get failed: .*maxResultBytes/);
    assert.ok(JSON.stringify(done).length < 4096, "nothing large is kept");
    assert.equal(taskRequests(upstream, "tasks/cancel").length, 1, "the upstream is told to stop");
  });

  it("declares no tasks upstream for a caller that declared none, and answers on the request", async () => {
    const { upstream, url } = await relay();
    upstream.finishBuild();
    const answer = await rpc(url, "tools/call", { name: "build", arguments: {} }, { tasks: false });
    assert.notEqual(answer.result?.resultType, "task", JSON.stringify(answer));
    assert.match(answer.result.content[0].text, /^built with key <redacted> \(task none\)$/);
    assert.deepEqual(upstream.events, ["build: no task"]);
    const call = upstream.seen.find((r) => r.method === "tools/call")!;
    const declared = declaredBy(call);
    assert.ok(!(TASKS in (declared?.extensions ?? {})), "no tasks extension declared upstream");
  });

  it("follows a task an upstream answers with unasked to its end, and never hands the client the upstream's id", async () => {
    const { upstream, url } = await relay();
    upstream.forceTasks = true; // the upstream now answers with a task though the gateway did not declare the extension
    upstream.finishBuild();
    const answer = await rpc(url, "tools/call", { name: "build", arguments: {} }, { tasks: false });
    assert.equal(upstream.taskIds.length, 1, "the upstream made a task");
    assert.ok(!JSON.stringify(answer).includes(upstream.taskIds[0]!), `the upstream's task id leaked: ${JSON.stringify(answer)}`);
    assert.notEqual(answer.result?.resultType, "task", JSON.stringify(answer));
    assert.deepEqual(answer.result.content, [{ type: "text", text: `built with key <redacted> (task ${HIDDEN})` }]);
  });
});
