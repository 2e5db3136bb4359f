// The fast path's differential suite, beyond a corpus of single requests (docs/design.md §8; the corpus itself runs
// in sdk-adapter-parity.test.ts): the same build served by a host with the fast path on and by one with it forced
// off (every request through the SDK's entry). Concurrent clients that reuse one JSON-RPC id get their own answers,
// more of them than the pool has servers (the rest go to the entry); a tool answered with a task, and the task's
// methods, answer alike; a large result; a client that leaves mid-call aborts the handler's signal on both paths
// (with the reason each gives, docs/serving.md); repeated standard headers are read as the entry reads them; a build
// replaced by an offer change is served by a new pool; the SDK version the lock file pins is one the fast path was
// proven on.
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import * as z from "zod";
import { defineExtension, inputRequired, type McpExtension } from "../../src/index.js";
import { FastPath } from "../../src/http/mcp/fast-path.js";
import { FAST_PATH_SDK_VERSIONS, fastPathSdkProven, installedSdkVersion } from "../../src/http/mcp/fast-path-sdk.js";
import { MAX_POOLED_SERVERS } from "../../src/http/mcp/server-pool.js";
import { Cleanup, deferred, lastRpcMessage, modernHeaders, serveHost, type ServedHost } from "../helpers/http-host.js";

const TASKS = "io.modelcontextprotocol/tasks";

function metaOf(tasks: boolean): Record<string, unknown> {
  return {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": tasks ? { extensions: { [TASKS]: {} }, elicitation: { form: {} } } : { elicitation: { form: {} } },
    "io.modelcontextprotocol/clientInfo": { name: "fast-path-parity", version: "1" },
  };
}

/** The requests the fast path served in this process, counted by wrapping its class. */
const fastServed = { count: 0 };
const fastServe = FastPath.prototype.serve;
FastPath.prototype.serve = async function (this: FastPath, ...args: Parameters<FastPath["serve"]>) {
  const served = await fastServe.apply(this, args);
  if (served) fastServed.count += 1;
  return served;
};

interface Answer {
  status: number;
  contentType: string | null;
  message: any;
}

async function rpc(url: URL, id: number | string, method: string, params: Record<string, unknown>, tasks = false): Promise<Answer> {
  const name = method === "tools/call" ? String(params.name) : typeof params.taskId === "string" ? params.taskId : undefined;
  const response = await fetch(url, {
    method: "POST",
    headers: modernHeaders(method, name),
    body: JSON.stringify({ jsonrpc: "2.0", id, method, params: { ...params, _meta: metaOf(tasks) } }),
  });
  const text = await response.text();
  return { status: response.status, contentType: response.headers.get("content-type"), message: text === "" ? undefined : lastRpcMessage(text) };
}

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

/** The same extensions served twice: the fast path on (the default), and forced off. */
async function serveBoth(extensions: McpExtension[]): Promise<{ fast: ServedHost; entry: ServedHost }> {
  const fast = await serveHost(cleanup, extensions);
  const entry = await serveHost(cleanup, extensions, { http: { fastPath: false } });
  return { fast, entry };
}

describe("the fast path answers as the SDK's entry does", { timeout: 120_000 }, () => {
  it("concurrent clients reusing one id get their own answers, more of them than the pool holds", async () => {
    const clients = MAX_POOLED_SERVERS + 8;
    let started = 0;
    const allStarted = deferred();
    const release = deferred();
    const held = defineExtension({
      name: "held",
      tools: [
        {
          name: "hold",
          handler: async (args) => {
            started += 1;
            if (started === clients) allStarted.resolve();
            await release.promise;
            return { content: [{ type: "text", text: String((args as { who?: unknown }).who) }] };
          },
        },
      ],
    });
    const { fast, entry } = await serveBoth([held]);
    for (const host of [fast, entry]) {
      started = 0;
      const before = fastServed.count;
      const answers = Array.from({ length: clients }, (_, who) => rpc(host.url, 1, "tools/call", { name: "hold", arguments: { who } }));
      await allStarted.promise;
      const took = fastServed.count - before;
      release.resolve();
      const texts = (await Promise.all(answers)).map((a) => {
        assert.equal(a.status, 200);
        assert.equal(a.message.id, 1);
        return a.message.result.content[0].text;
      });
      assert.deepEqual(
        texts,
        Array.from({ length: clients }, (_, who) => String(who)),
        "each client got its own answer",
      );
      if (host === fast) {
        // One request per server per id: at most the pool's bound on the fast path, the rest through the entry.
        assert.ok(took >= 1 && took <= MAX_POOLED_SERVERS, `the fast path took ${took} of ${clients}`);
      } else assert.equal(took, 0);
      // The next round starts with nothing held.
      Object.assign(allStarted, deferred());
    }
  });

  it("a tool answered with a task, tasks/get and tasks/cancel answer alike, on the fast path", async () => {
    const gate = deferred();
    const work = defineExtension({
      name: "work",
      tools: [
        {
          name: "job",
          taskSupport: "required",
          handler: async (_args, ctx) => {
            await ctx.task?.start();
            await gate.promise;
            return { content: [{ type: "text", text: "job done" }] };
          },
        },
        {
          name: "cancelled_job",
          taskSupport: "required",
          handler: async (_args, ctx) => {
            await ctx.task?.start();
            await new Promise((resolve) => ctx.signal.addEventListener("abort", resolve, { once: true }));
            return { content: [{ type: "text", text: "stopped" }] };
          },
        },
      ],
    });
    const { fast, entry } = await serveBoth([work]);
    /** A task's answer without what differs between two hosts by nature (its id, its times). */
    const normal = (answer: Answer) =>
      JSON.parse(JSON.stringify(answer, (key, value) => (["taskId", "createdAt", "lastUpdatedAt", "ttl", "ttlMs"].includes(key) ? "(varies)" : value)));
    const run = async (url: URL) => {
      const steps: Answer[] = [];
      const before = fastServed.count;
      const started = await rpc(url, 1, "tools/call", { name: "job", arguments: {} }, true);
      steps.push(started);
      const taskId = started.message.result.taskId as string;
      steps.push(await rpc(url, 2, "tasks/get", { taskId }, true));
      const other = await rpc(url, 3, "tools/call", { name: "cancelled_job", arguments: {} }, true);
      steps.push(other);
      steps.push(await rpc(url, 4, "tasks/cancel", { taskId: other.message.result.taskId }, true));
      steps.push(await rpc(url, 5, "tasks/get", { taskId: "no-such-task" }, true));
      steps.push(await rpc(url, 7, "tasks/update", { taskId: "no-such-task", inputResponses: {} }, true));
      steps.push(await rpc(url, 6, "tools/call", { name: "job", arguments: {} }, false));
      return { steps: steps.map(normal), took: fastServed.count - before };
    };
    const viaFast = await run(fast.url);
    const viaEntry = await run(entry.url);
    gate.resolve();
    assert.equal(viaFast.steps[0].message.result.resultType, "task", JSON.stringify(viaFast.steps[0]));
    assert.deepEqual(viaFast.steps, viaEntry.steps);
    assert.equal(viaFast.took, 7, "the fast path took the calls, tasks/get, tasks/cancel, tasks/update and the refusals");
    assert.equal(viaEntry.took, 0);
  });

  it("a retry with the client's answers and the sealed requestState completes alike, both rounds on the fast path", async () => {
    const asking = defineExtension({
      name: "asking",
      tools: [
        {
          name: "asks",
          handler: (_args, ctx) =>
            ctx.inputResponses === undefined
              ? inputRequired({
                  inputRequests: { who: inputRequired.elicit({ message: "Who?", requestedSchema: z.object({ who: z.string() }) }) },
                  requestState: "asks-1",
                })
              : { content: [{ type: "text", text: `answered by ${JSON.stringify(ctx.inputResponses)}` }] },
        },
      ],
    });
    const { fast, entry } = await serveBoth([asking]);
    const rounds = async (url: URL) => {
      const before = fastServed.count;
      const first = await rpc(url, 1, "tools/call", { name: "asks", arguments: {} });
      const requestState = first.message.result.requestState as string;
      const answers = { who: { action: "accept", content: { who: "me" } } };
      const second = await rpc(url, 1, "tools/call", { name: "asks", arguments: {}, inputResponses: answers, requestState });
      // The sealed state differs between two hosts (their keys): compared as present.
      first.message.result.requestState = typeof requestState === "string" && requestState.length > 0 ? "(sealed)" : requestState;
      return { rounds: [first, second], took: fastServed.count - before };
    };
    const viaFast = await rounds(fast.url);
    const viaEntry = await rounds(entry.url);
    assert.equal(viaFast.rounds[1]!.message.result.content[0].text, 'answered by {"who":{"action":"accept","content":{"who":"me"}}}');
    assert.deepEqual(viaFast.rounds, viaEntry.rounds);
    assert.equal(viaFast.took, 2);
    assert.equal(viaEntry.took, 0);
  });

  it("a large result, an unknown tool and a thrown error answer alike, on the fast path", async () => {
    const big = defineExtension({
      name: "big",
      tools: [
        { name: "large", handler: () => ({ content: [{ type: "text", text: "é".repeat(1_500_000) }] }) },
        {
          name: "throws",
          handler: () => {
            throw new Error("it broke");
          },
        },
      ],
    });
    const { fast, entry } = await serveBoth([big]);
    for (const [id, name] of [
      [1, "large"],
      [2, "nope"],
      [3, "throws"],
    ] as const) {
      const before = fastServed.count;
      const viaFast = await rpc(fast.url, id, "tools/call", { name, arguments: {} });
      assert.equal(fastServed.count, before + 1, `${name} went through the fast path`);
      const viaEntry = await rpc(entry.url, id, "tools/call", { name, arguments: {} });
      assert.deepEqual(viaFast, viaEntry, name);
    }
  });

  it("repeated standard headers are read as the entry reads them: answered alike, the fast path taking only what the entry would", async () => {
    const echo = defineExtension({ name: "echo", tools: [{ name: "echo", handler: () => ({ content: [{ type: "text", text: "echoed" }] }) }] });
    const { fast, entry } = await serveBoth([echo]);
    // Sent with node's own client, which writes a header once per value of an array.
    const send = (url: URL, repeated: Record<string, string[]>) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const outgoing = httpRequest(url, { method: "POST", headers: { ...modernHeaders("tools/call", "echo"), ...repeated } }, (answer) => {
          let body = "";
          answer.setEncoding("utf8");
          answer.on("data", (chunk: string) => (body += chunk));
          answer.on("end", () => resolve({ status: answer.statusCode ?? 0, body }));
        });
        outgoing.on("error", reject);
        outgoing.end(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo", arguments: {}, _meta: metaOf(false) } }));
      });
    const cases: Array<[string, Record<string, string[]>]> = [
      ["Mcp-Name twice", { "mcp-name": ["echo", "echo"] }],
      ["Mcp-Method twice", { "mcp-method": ["tools/call", "tools/call"] }],
      ["MCP-Protocol-Version twice", { "mcp-protocol-version": ["2026-07-28", "2026-07-28"] }],
    ];
    for (const [label, repeated] of cases) {
      const before = fastServed.count;
      const viaFast = await send(fast.url, repeated);
      // Joined by ", " (as the web Headers the entry reads join them), none of them is the body's value.
      assert.equal(fastServed.count, before, `${label}: not taken by the fast path`);
      const viaEntry = await send(entry.url, repeated);
      assert.deepEqual(viaFast, viaEntry, label);
      assert.equal(viaFast.status, 400, `${label}: ${viaFast.body}`);
    }
  });

  it("a client that leaves mid-call aborts the handler's signal on both paths; the next call is served", async () => {
    const reasons: string[] = [];
    const requestSignals: Array<boolean | undefined> = [];
    let started = deferred();
    let aborted = deferred();
    const waiting = defineExtension({
      name: "waiting",
      tools: [
        {
          name: "wait",
          handler: (_args, ctx) =>
            new Promise((resolve) => {
              ctx.signal.addEventListener("abort", () => {
                const reason = ctx.signal.reason as { name?: string; message?: string } | string | undefined;
                reasons.push(typeof reason === "object" ? `${reason.name}: ${reason.message}` : String(reason));
                // Read only now: the fast path makes the web Request when it is first read, after the client left.
                requestSignals.push(ctx.mcp.http?.req?.signal.aborted);
                aborted.resolve();
                resolve({ content: [{ type: "text", text: "too late" }] });
              });
              started.resolve();
            }),
        },
        { name: "echo", handler: () => ({ content: [{ type: "text", text: "next" }] }) },
      ],
    });
    const { fast, entry } = await serveBoth([waiting]);
    for (const host of [fast, entry]) {
      started = deferred();
      aborted = deferred();
      const outgoing = httpRequest(host.url, { method: "POST", headers: modernHeaders("tools/call", "wait"), agent: false });
      const gone = deferred();
      outgoing.on("error", () => gone.resolve());
      outgoing.on("close", () => gone.resolve());
      outgoing.end(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "wait", arguments: {}, _meta: metaOf(false) } }));
      await started.promise;
      outgoing.destroy();
      await gone.promise;
      await aborted.promise;
      // The same id again, at once: the server the first one ran on has released it.
      const next = await rpc(host.url, 1, "tools/call", { name: "echo", arguments: {} });
      assert.equal(next.message.result.content[0].text, "next");
    }
    // The same reason on both: the entry's per-request transport closed (SdkError ConnectionClosed).
    assert.deepEqual(reasons, ["SdkError: Connection closed", "SdkError: Connection closed"]);
    // And the request's own signal says the client left, on both.
    assert.deepEqual(requestSignals, [true, true]);
  });

  it("a build replaced by an offer change is served by a new pool", async () => {
    const first = defineExtension({ name: "first", tools: [{ name: "one", handler: () => ({ content: [{ type: "text", text: "1" }] }) }] });
    const second = defineExtension({ name: "second", tools: [{ name: "two", handler: () => ({ content: [{ type: "text", text: "2" }] }) }] });
    const { fast } = await serveBoth([first]);
    const listed = async () => ((await rpc(fast.url, 1, "tools/list", {})).message.result.tools as Array<{ name: string }>).map((t) => t.name);
    assert.ok((await listed()).includes("one"));
    assert.ok(!(await listed()).includes("two"));
    await fast.host.add(second);
    assert.ok((await listed()).includes("two"), "the new build is served, not the retired pool's");
    const before = fastServed.count;
    const called = await rpc(fast.url, 2, "tools/call", { name: "two", arguments: {} });
    assert.equal(called.message.result.content[0].text, "2");
    assert.equal(fastServed.count, before + 1);
  });
});

describe("the SDK versions the fast path runs on", () => {
  it("the lock file's @modelcontextprotocol/server is on the list the differential suite passed on", () => {
    const lock = JSON.parse(readFileSync(new URL("../../package-lock.json", import.meta.url), "utf8")) as {
      packages: Record<string, { version?: string }>;
    };
    const locked = lock.packages["node_modules/@modelcontextprotocol/server"]?.version;
    assert.ok(locked !== undefined, "package-lock.json pins @modelcontextprotocol/server");
    assert.ok(
      FAST_PATH_SDK_VERSIONS.includes(locked),
      `@modelcontextprotocol/server ${locked} is not on FAST_PATH_SDK_VERSIONS (${FAST_PATH_SDK_VERSIONS.join(", ")}): run the differential suite ` +
        "(test/http/sdk-adapter-parity.test.ts, test/http/fast-path-parity.test.ts) on it, then add it to src/http/mcp/fast-path-sdk.ts",
    );
    assert.equal(installedSdkVersion(), locked, "the installed SDK is the locked one");
  });

  it("any other version, or none read, is not proven", () => {
    assert.equal(fastPathSdkProven("2.4.0"), FAST_PATH_SDK_VERSIONS.includes("2.4.0"));
    assert.equal(fastPathSdkProven("2.5.0"), false);
    assert.equal(fastPathSdkProven(undefined), false);
  });
});
