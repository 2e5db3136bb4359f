// Tools that cannot take the host down (docs/design.md §16): an isolated tool that spins for ever or allocates without
// end is ended at its CPU budget or heap limit with an isError result naming the tool and the limit; while it runs,
// another client's calls on another tool are answered, the event loop is never blocked, and afterwards the host
// still serves everything — the spinning tool's own extension included. The tool timeout, and a client that
// cancels, now stop synchronous code too.
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { Client } from "@modelcontextprotocol/client";
import { blockingExtension, isolatedExtension, singleWorkerExtension } from "../../fixtures/extensions/isolated.js";
import { deferred, logsWithCode, textOf } from "../../helpers/kit.js";
import { Cleanup, callText, connectV2, serveHost, type ServedHost } from "../../helpers/http-host.js";

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

async function twoClients(): Promise<{ served: ServedHost; runaway: Client; other: Client }> {
  const served = await serveHost(cleanup, [isolatedExtension, blockingExtension], { host: { eventLoopWarnMs: 250 } });
  const runaway = (await connectV2(cleanup, served.url, "modern", { name: "runaway" })).client;
  const other = (await connectV2(cleanup, served.url, "legacy", { name: "other" })).client;
  // Both workers of the extension started (a cold start imports the module), so a call begins at once.
  await Promise.all([whereRuns(runaway), whereRuns(other)]);
  return { served, runaway, other };
}

/** Starts a call; `started` resolves at its first progress notification (the handler runs then), or fails if it ended first. */
function startCall(client: Client, name: string, signal?: AbortSignal) {
  const progressed = deferred();
  let settled = false;
  const result = client.callTool({ name, arguments: {} }, { onprogress: () => progressed.resolve(), ...(signal ? { signal } : {}) }).finally(() => {
    settled = true;
  });
  const endedFirst = result.then(
    (value) => assert.fail(`"${name}" ended before it started: ${JSON.stringify(value)}`),
    (error: unknown) => assert.fail(`"${name}" failed before it started: ${String(error)}`),
  );
  return { started: Promise.race([progressed.promise, endedFirst]), result, isSettled: () => settled };
}

/** The worker-side facts a successful `where` call reports. */
async function whereRuns(client: Client): Promise<{ isMainThread: boolean; threadId: number }> {
  return JSON.parse(await callText(client, "where")) as { isMainThread: boolean; threadId: number };
}

describe("runaway isolated tools", () => {
  it("ends a call that spins past its CPU budget, serving another client meanwhile and everything after", async () => {
    const { served, runaway, other } = await twoClients();
    const before = served.records.length;
    const call = startCall(runaway, "spin");
    await call.started;
    // The spinning call holds one worker; the main thread answers the other client at once.
    assert.equal(await callText(other, "ping"), "pong");
    assert.equal(await callText(other, "main_thread").then((t) => JSON.parse(t).isMainThread), true);
    assert.equal((await whereRuns(other)).isMainThread, false);
    assert.equal(call.isSettled(), false, "the spinning call should still be running while the other client is served");
    const result = (await call.result) as { isError?: boolean; content: unknown };
    assert.equal(result.isError, true);
    assert.equal(textOf(result), 'tool "spin" used more than its 1500 ms of CPU and was stopped');
    assert.deepEqual(
      logsWithCode(served.records, "TOOL_CPU_LIMIT").map((r) => [r.level, r.message, r.data?.extension, r.data?.tool]),
      [["warn", '[extension isolated] tool "spin" used more than its 1500 ms of CPU and was stopped', "isolated", "spin"]],
    );
    // Afterwards: the same extension's tools (on a replacement worker), and the others, for both clients.
    assert.equal((await whereRuns(runaway)).isMainThread, false);
    assert.equal(await callText(runaway, "ping"), "pong");
    assert.equal(await callText(other, "ping"), "pong");
    // From the spin on, the loop was never blocked by the isolated tool: a warning would name the tool that ran on the
    // main thread. (A loaded machine may still pause the loop past the threshold with no tool running — such a
    // warning says "no tool ran on the main thread" and names none; the other client's answers above show it served.)
    const blockedByTool = logsWithCode(served.records.slice(before), "EVENT_LOOP_BLOCKED").filter(
      (r) => ((r.data?.tools as string[] | undefined) ?? []).length > 0 || ((r.data?.extensions as string[] | undefined) ?? []).length > 0,
    );
    assert.deepEqual(blockedByTool, [], "no tool blocked the main thread");
  });

  it("ends a call that runs out of its heap, and the host serves on", async () => {
    const { served, runaway, other } = await twoClients();
    const call = startCall(runaway, "hog");
    await call.started;
    assert.equal(await callText(other, "ping"), "pong");
    const result = (await call.result) as { isError?: boolean; content: unknown };
    assert.equal(result.isError, true);
    assert.equal(textOf(result), 'tool "hog" ran out of its 64 MB heap and was stopped (its input is probably too large for it)');
    assert.deepEqual(
      logsWithCode(served.records, "TOOL_HEAP_LIMIT").map((r) => r.data?.tool),
      ["hog"],
    );
    assert.equal((await whereRuns(runaway)).isMainThread, false);
    assert.equal(await callText(other, "ping"), "pong");
  });

  it("stops synchronous code at the tool timeout, which a timeout on the main thread cannot", async () => {
    const { runaway, other } = await twoClients();
    const call = startCall(runaway, "spin_past_timeout");
    await call.started;
    assert.equal(await callText(other, "ping"), "pong");
    const result = (await call.result) as { isError?: boolean; content: unknown };
    assert.equal(result.isError, true);
    assert.equal(textOf(result), 'tool "spin_past_timeout" timed out after 400 ms');
    assert.equal((await whereRuns(runaway)).isMainThread, false);
  });

  it("ends the worker of a call the client cancels", async () => {
    const { served, runaway, other } = await twoClients();
    const abort = new AbortController();
    const call = startCall(runaway, "spin", abort.signal);
    await call.started;
    abort.abort(new Error("the user changed their mind"));
    await assert.rejects(call.result);
    // Both workers are free again: two calls in parallel are answered, neither waits for the cancelled one.
    const [a, b] = await Promise.all([whereRuns(runaway), whereRuns(other)]);
    assert.deepEqual([a.isMainThread, b.isMainThread], [false, false]);
    assert.deepEqual(logsWithCode(served.records, "TOOL_CPU_LIMIT"), []);
  });

  it("refuses a call at once when every worker is busy and the queue is full, and serves the queued ones after", async () => {
    const served = await serveHost(cleanup, [singleWorkerExtension]);
    const { client } = await connectV2(cleanup, served.at("only=single-worker"), "modern");
    await whereRuns(client);
    const call = startCall(client, "spin");
    await call.started;
    // One worker, spinning; 16 calls may wait for it (QUEUE_PER_WORKER): of 17 sent at once, one is refused at once.
    const refused = deferred<string>();
    const calls = Array.from({ length: 17 }, () =>
      client.callTool({ name: "where", arguments: {} }).then((result) => {
        if (result.isError) refused.resolve(textOf(result));
        return result;
      }),
    );
    assert.equal(
      await refused.promise,
      'tool "where" was not run: every worker of extension "single-worker" (1) is busy and 16 calls are already waiting; try again shortly',
    );
    assert.equal(call.isSettled(), false, "the refusal came while the spinning call held the worker");
    assert.equal(textOf((await call.result) as { content: unknown }), 'tool "spin" used more than its 1500 ms of CPU and was stopped');
    const answers = await Promise.all(calls);
    assert.deepEqual(
      answers.filter((r) => !r.isError).map((r) => JSON.parse(textOf(r)).isMainThread),
      Array.from({ length: 16 }, () => false),
    );
    assert.deepEqual(
      logsWithCode(served.records, "TOOL_WORKERS_BUSY").map((r) => r.data?.tool),
      ["where"],
    );
  });
});
