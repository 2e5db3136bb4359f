// What an isolated handler can do from its worker thread, in both eras: it gets the request's facts (arguments,
// extension, toolset, tool, era, selection), its progress, client log messages and server log lines reach the
// main thread before its result, an input request round-trips with its state, a throw (or a result that cannot
// cross threads) is an isError result like a throw on the main thread, ctx.mcp says it is not there, and a tool
// that says isolation "none" runs on the main thread.
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { isolatedExtension } from "../../fixtures/extensions/isolated.js";
import { callError, logsWithCode } from "../../helpers/kit.js";
import { Cleanup, callText, connectV2, serveHost } from "../../helpers/http-host.js";

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

for (const era of ["legacy", "modern"] as const) {
  describe(`isolated handlers (${era} era)`, () => {
    async function connected(options: { elicit?: boolean } = {}) {
      const served = await serveHost(cleanup, [isolatedExtension]);
      const { client } = await connectV2(cleanup, served.at("only=isolated"), era, {
        clientOptions: { capabilities: { elicitation: { form: {} } } },
        setup: (c) => {
          if (options.elicit) c.setRequestHandler("elicitation/create", async () => ({ action: "accept", content: { name: "Ada" } }));
        },
      });
      return { served, client };
    }

    it("run in a worker with the request's facts, and what they report reaches the client before the result", async () => {
      const { served, client } = await connected();
      const events: string[] = [];
      client.setNotificationHandler("notifications/message", (notification) => {
        events.push(`log ${JSON.stringify(notification.params.data)}`);
      });
      const result = await client.callTool(
        // A 2026-07-28 request asks for log messages itself; a 2025 session takes them at the default level.
        { name: "context", arguments: { question: "why?" }, ...(era === "modern" ? { _meta: { "io.modelcontextprotocol/logLevel": "info" } } : {}) },
        { onprogress: (progress) => events.push(`progress ${progress.progress}/${progress.total} ${progress.message}`) },
      );
      events.push("result");
      assert.notEqual(result.isError, true, JSON.stringify(result));
      const content = result.content as Array<{ text: string }>;
      assert.deepEqual(JSON.parse(content[0]!.text), {
        args: { question: "why?" },
        extension: "isolated",
        toolset: "isolated",
        tool: "context",
        era,
        selection: { active: ["isolated"], unknown: [] },
        isMainThread: false,
      });
      assert.deepEqual(events, ['log {"from":"worker"}', "progress 1/2 half", "progress 2/2 done", "result"]);
      const line = served.records.find((r) => r.message === "context tool ran");
      assert.deepEqual([line?.level, line?.prefix, line?.data], ["info", ["isolated", "detail"], { answer: 42 }]);
    });

    it("ask the client for input and get their state back on the retry", async () => {
      const { client } = await connected({ elicit: true });
      assert.deepEqual(JSON.parse(await callText(client, "ask")), { answer: { name: "Ada" }, state: "asked-once", isMainThread: false });
    });

    it("that throw give an isError result carrying the message, as on the main thread", async () => {
      const { served, client } = await connected();
      assert.equal(await callError(client, "throws"), "the fixture threw on purpose");
      assert.deepEqual(
        logsWithCode(served.records, "TOOL_HANDLER_FAILED").map((r) => r.message),
        ['[extension isolated] tool "throws" threw: the fixture threw on purpose'],
      );
    });

    it("that return what cannot cross threads get an isError result saying so", async () => {
      const { client } = await connected();
      assert.equal(
        await callError(client, "unclonable"),
        "the tool returned a value that cannot be sent between threads (Symbol(not data) could not be cloned.); return plain data",
      );
      assert.equal(JSON.parse(await callText(client, "where")).isMainThread, false);
    });

    it("are told that ctx.mcp stays on the main thread", async () => {
      const { client } = await connected();
      assert.equal(
        await callError(client, "raw_sdk"),
        'tool "raw_sdk" runs in a worker (isolation), where ctx.mcp (the raw SDK context) is not available; use ctx.progress, ctx.log and ctx.inputResponses, or isolation: "none" for this tool',
      );
    });

    it('leave a tool with isolation "none" on the main thread', async () => {
      const { client } = await connected();
      assert.equal(JSON.parse(await callText(client, "main_thread")).isMainThread, true);
      assert.equal(JSON.parse(await callText(client, "where")).isMainThread, false);
    });
  });
}
