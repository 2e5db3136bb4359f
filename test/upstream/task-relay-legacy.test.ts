// The gateway's relay of a 2025-11-25 upstream's experimental tasks (docs/gateway.md "Tasks"), against real v1-SDK
// servers over stdio: @modelcontextprotocol/server-everything's `simulate-research-query` (a task-required tool that
// asks its client to clarify through `tasks/result`) and a fixture whose task tools complete, fail, hang and count
// the cancels that reached them. Without the relay a task-required tool failed on every call ("requires task
// augmentation"), and the upstream's tasks were never asked for.
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { Cleanup } from "../helpers/http-host.js";
import { FIXTURES } from "../helpers/registry/harness.js";
import { rpc, type RpcAnswer, untilStatus } from "../tasks/tasks-kit.js";
import { everythingServer, serveGateway } from "./gateway-kit.js";

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

/** A v1-SDK task store's id: 32 hex digits (the host's own ids are UUIDs, with dashes). */
const UPSTREAM_ID = /[0-9a-f]{32}/;

/** Everything the client was answered, kept to check no upstream task id is in it. */
function transcript() {
  const answers: unknown[] = [];
  return {
    keep: (answer: RpcAnswer) => (answers.push(answer), answer),
    text: () => JSON.stringify(answers),
  };
}

async function legacyTasks() {
  const served = await serveGateway(cleanup, {
    servers: { jobs: { command: process.execPath, args: [join(FIXTURES, "legacy-task-stdio.mjs")] } },
  });
  return served.at("only=jobs");
}

/** What the fixture's `cancelled_tasks` reports, once it reports one cancel (or after 200 looks, whatever it says). */
async function upstreamCancels(url: URL): Promise<string> {
  let report = "";
  for (let poll = 0; poll < 200 && report !== "cancelled: 1"; poll++) {
    report = (await rpc(url, "tools/call", { name: "cancelled_tasks", arguments: {} }, { tasks: false })).result?.content?.[0]?.text;
    if (report !== "cancelled: 1") await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return report;
}

describe("the gateway relays a 2025-11-25 upstream's experimental tasks", { timeout: 120_000 }, () => {
  it("asks server-everything for its task, mirrors its status and asks its clarifying question as the gateway task's own", async () => {
    const served = await serveGateway(cleanup, { servers: { everything: everythingServer() } });
    const url = served.at("only=everything");
    const seen = transcript();
    const listed = seen.keep(await rpc(url, "tools/list", {}));
    assert.ok(listed.result.tools.some((t: { name: string }) => t.name === "simulate-research-query"));

    const created = seen.keep(await rpc(url, "tools/call", { name: "simulate-research-query", arguments: { topic: "python", ambiguous: true } }));
    assert.equal(created.result?.resultType, "task", JSON.stringify(created));
    const taskId = created.result.taskId as string;
    const statuses = new Set<string>();
    let waiting: any;
    for (let poll = 0; poll < 400 && waiting === undefined; poll++) {
      const got = seen.keep(await rpc(url, "tasks/get", { taskId }));
      if (typeof got.result.statusMessage === "string") statuses.add(got.result.statusMessage);
      if (got.result.status === "input_required") waiting = got.result;
      else await new Promise((resolve) => setTimeout(resolve, 25));
    }
    assert.ok(statuses.has("Gathering sources..."), `the upstream's status messages are shown: ${[...statuses].join(" | ")}`);
    const [key, question] = Object.entries(waiting.inputRequests as Record<string, { method: string; params: any }>)[0]!;
    assert.equal(question.method, "elicitation/create");
    assert.match(question.params.message, /could have multiple interpretations/);
    assert.equal(question.params._meta?.["io.modelcontextprotocol/related-task"], undefined, "the related-task tag (the upstream's id) is dropped");

    const ack = await rpc(url, "tasks/update", { taskId, inputResponses: { [key]: { action: "accept", content: { interpretation: "snake" } } } });
    assert.equal(ack.error, undefined, JSON.stringify(ack));
    const done = seen.keep({ status: 200, result: await untilStatus(url, taskId, "completed", undefined, 20_000) });
    assert.match(done.result.result.content[0].text, /# Research Report: python \(snake\)/, "the client's answer reached the upstream's task");
    assert.equal(done.result.result._meta?.["io.modelcontextprotocol/related-task"], undefined);
    assert.doesNotMatch(seen.text(), UPSTREAM_ID, "the upstream's task id never reaches the client");
  });

  it("runs a task-required tool for a client without tasks: the upstream's task is followed to its result on the request", async () => {
    const served = await serveGateway(cleanup, { servers: { everything: everythingServer() } });
    const answer = await rpc(served.at("only=everything"), "tools/call", { name: "simulate-research-query", arguments: { topic: "tides" } }, { tasks: false });
    assert.equal(answer.result?.isError, undefined, JSON.stringify(answer));
    assert.match(answer.result.content[0].text, /# Research Report: tides/);
  });

  it("takes the upstream's task id out of its status and result", async () => {
    const url = await legacyTasks();
    const seen = transcript();
    const created = seen.keep(await rpc(url, "tools/call", { name: "job", arguments: {} }));
    const taskId = created.result.taskId as string;
    let halfway: string | undefined;
    for (let poll = 0; poll < 400 && halfway === undefined; poll++) {
      const got = seen.keep(await rpc(url, "tasks/get", { taskId }));
      if (typeof got.result.statusMessage === "string") halfway = got.result.statusMessage;
      else await new Promise((resolve) => setTimeout(resolve, 10));
    }
    assert.equal(halfway, "job <upstream task> is halfway");
    const done = seen.keep({ status: 200, result: await untilStatus(url, taskId, "completed") });
    assert.deepEqual(done.result.result.content, [{ type: "text", text: "job <upstream task> is done" }]);
    assert.doesNotMatch(seen.text(), UPSTREAM_ID);
  });

  it("ends with the upstream's failed result, and sends a downstream cancel on to the upstream's task", async () => {
    const url = await legacyTasks();
    const broken = await rpc(url, "tools/call", { name: "broken", arguments: {} });
    const ended = await untilStatus(url, broken.result.taskId, "completed");
    assert.deepEqual(ended.result, { content: [{ type: "text", text: "the job broke: disk full" }], isError: true, resultType: "complete" });

    const hanging = await rpc(url, "tools/call", { name: "hang", arguments: {} });
    const taskId = hanging.result.taskId as string;
    await untilStatus(url, taskId, "working");
    await new Promise((resolve) => setTimeout(resolve, 200)); // the upstream's task exists and is being followed
    await rpc(url, "tasks/cancel", { taskId });
    await untilStatus(url, taskId, "cancelled");
    assert.equal(await upstreamCancels(url), "cancelled: 1", "the upstream's tasks/cancel was sent");
  });

  it("cancels the upstream's task when the client cancels while its question waits for the answer", async () => {
    const url = await legacyTasks();
    const asked = await rpc(url, "tools/call", { name: "ask", arguments: {} });
    const taskId = asked.result.taskId as string;
    const waiting = await untilStatus(url, taskId, "input_required");
    assert.equal(Object.values(waiting.inputRequests as Record<string, { params: { message: string } }>)[0]?.params.message, "Go on?");
    await rpc(url, "tasks/cancel", { taskId });
    await untilStatus(url, taskId, "cancelled");
    assert.equal(await upstreamCancels(url), "cancelled: 1", "no round ran, yet the upstream's tasks/cancel was sent (onAbandon)");
  });
});
