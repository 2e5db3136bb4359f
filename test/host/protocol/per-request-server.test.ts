// The per-request SDK server over a build's tables (docs/design.md §3, §15), exercised by a real SDK v2 client in
// both protocol eras: tools (valid, invalid and unknown calls, structured output, non-object structured output
// projected for 2025 clients), resources, templates and completion, prompts with arguments and completion,
// handler errors, progress notifications, and log messages for a legacy client that set a level.
import { afterEach, beforeEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { ProtocolError } from "@modelcontextprotocol/client";
import { defineTool } from "../../../src/extension/define.js";
import type { McpExtension } from "../../../src/extension/types.js";
import type { McpHost } from "../../../src/host/host.js";
import { connectInProcess, type InProcessConnection } from "../../helpers/in-process.js";
import { callError, callOk, deferred, startedHost, textOf, textTool } from "../../helpers/kit.js";

const NOTES: Record<string, string> = { alpha: "first note", beta: "second note", apple: "fruit note" };

const workbench: McpExtension = {
  name: "workbench",
  toolsets: [{ name: "bench" }],
  tools: [
    defineTool({
      name: "add",
      description: "Adds two numbers.",
      inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
      handler: (args) => ({ content: [{ type: "text", text: String((args.a as number) + (args.b as number)) }] }),
    }),
    defineTool({
      name: "count_words",
      inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
      outputSchema: { type: "object", properties: { count: { type: "number" } }, required: ["count"] },
      handler: (args) => {
        const count = String(args.text).split(/\s+/).filter(Boolean).length;
        return { content: [{ type: "text", text: String(count) }], structuredContent: { count } };
      },
    }),
    {
      name: "liar",
      outputSchema: { type: "object", properties: { count: { type: "number" } }, required: ["count"] },
      handler: () => ({ content: [{ type: "text", text: "three" }], structuredContent: { count: "three" } }),
    },
    {
      name: "forgetful",
      outputSchema: { type: "object", properties: { count: { type: "number" } } },
      handler: () => ({ content: [{ type: "text", text: "no structure" }] }),
    },
    {
      name: "primes",
      outputSchema: { type: "array", items: { type: "number" } },
      handler: () => ({ content: [{ type: "text", text: "2, 3, 5" }], structuredContent: [2, 3, 5] }),
    },
    textTool("explode", {
      handler: () => {
        throw new Error("kaboom");
      },
    }),
    {
      name: "long_job",
      handler: async (_args, ctx) => {
        await ctx.progress(1, 2, "halfway");
        await ctx.progress(2, 2, "done");
        return { content: [{ type: "text", text: "job finished" }] };
      },
    },
    {
      name: "chatty",
      handler: async (_args, ctx) => {
        await ctx.log("info", { note: "below the client's level" });
        await ctx.log("error", { note: "above the client's level" });
        return { content: [{ type: "text", text: "logged" }] };
      },
    },
  ],
  resources: [
    {
      uri: "bench://readme",
      name: "readme",
      mimeType: "text/plain",
      description: "How to use the bench.",
      read: (ctx) => ({ contents: [{ uri: "bench://readme", mimeType: "text/plain", text: `read by ${ctx.extension} in ${ctx.toolset}` }] }),
    },
  ],
  resourceTemplates: [
    {
      uriTemplate: "notes://{id}",
      name: "note",
      mimeType: "text/plain",
      list: () => [{ uri: "notes://alpha", name: "alpha" }],
      complete: {
        id: (value) =>
          Object.keys(NOTES)
            .filter((id) => id.startsWith(value))
            .sort(),
      },
      read: (uri, variables) => {
        const text = NOTES[String(variables.id)];
        if (text === undefined) throw new Error(`no note ${String(variables.id)}`);
        return { contents: [{ uri, text }] };
      },
    },
  ],
  prompts: [
    {
      name: "greet",
      description: "Greets someone.",
      arguments: [
        { name: "who", description: "Whom to greet.", required: true },
        { name: "tone", required: false },
      ],
      complete: { who: (value) => ["wally", "wanda", "zed"].filter((n) => n.startsWith(value)) },
      get: (args) => ({
        messages: [{ role: "user", content: { type: "text", text: `Say hello to ${args.who}${args.tone ? ` (${args.tone})` : ""}.` } }],
      }),
    },
  ],
};

let host: McpHost;
let connection: InProcessConnection | undefined;
beforeEach(async () => {
  ({ host } = await startedHost([workbench]));
});
afterEach(async () => {
  await connection?.close();
  connection = undefined;
  await host.stop();
});

function isProtocolError(code: number, message: string | RegExp) {
  return (error: unknown) => {
    assert.ok(error instanceof ProtocolError, `expected a ProtocolError, got ${String(error)}`);
    assert.equal(error.code, code);
    if (typeof message === "string") assert.equal(error.message, message);
    else assert.match(error.message, message);
    return true;
  };
}

for (const era of ["legacy", "modern"] as const) {
  describe(`a per-request server (${era} era)`, () => {
    const connect = async () => (connection = await connectInProcess(host, "", { era })).client;

    it("lists the build's tools in wire form", async () => {
      const client = await connect();
      const tools = (await client.listTools()).tools;
      assert.deepEqual(
        tools.map((t) => t.name),
        ["add", "chatty", "count_words", "explode", "forgetful", "liar", "list_server_toolsets", "long_job", "primes"],
      );
      const add = tools.find((t) => t.name === "add")!;
      assert.deepEqual(
        { description: add.description, inputSchema: add.inputSchema },
        {
          description: "Adds two numbers.",
          inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
        },
      );
    });

    it("calls a tool with valid arguments, and answers isError naming the tool for invalid ones", async () => {
      const client = await connect();
      assert.equal(await callOk(client, "add", { a: 2, b: 40 }), "42");
      assert.equal(await callError(client, "add", { a: 2, b: "forty" }), 'Invalid arguments for tool "add": "/b" must be number (keyword "type")');
      assert.equal(await callError(client, "add", {}), `Invalid arguments for tool "add": the arguments must have required property 'a' (keyword "required")`);
    });

    it("rejects an unknown tool with a protocol error that lists the available tools", async () => {
      const client = await connect();
      await assert.rejects(
        client.callTool({ name: "subtract", arguments: {} }),
        isProtocolError(
          -32602,
          'Unknown tool "subtract". Available: add, chatty, count_words, explode, forgetful, liar, list_server_toolsets, long_job, primes. A tool outside this URL\'s toolsets is not callable here.',
        ),
      );
    });

    it("returns structured output that matches the output schema, and isError for output that breaks it", async () => {
      const client = await connect();
      await client.listTools();
      const ok = await client.callTool({ name: "count_words", arguments: { text: "one two three" } });
      assert.equal(ok.isError, undefined);
      assert.deepEqual(ok.structuredContent, { count: 3 });
      assert.equal(textOf(ok), "3");
      assert.equal(
        await callError(client, "liar"),
        'tool "liar" returned structured content that does not match its output schema: "/count" must be number (keyword "type")',
      );
      assert.equal(await callError(client, "forgetful"), 'tool "forgetful" declares an output schema but returned no structured content');
    });

    it(
      era === "legacy"
        ? "projects non-object structured output to { result } for a 2025 client"
        : "sends non-object structured output as it is to a 2026 client",
      async () => {
        const client = await connect();
        const listed = (await client.listTools()).tools.find((t) => t.name === "primes")!;
        const result = await client.callTool({ name: "primes", arguments: {} });
        assert.equal(result.isError, undefined);
        assert.equal(textOf(result), "2, 3, 5");
        if (era === "legacy") {
          assert.deepEqual(listed.outputSchema, { type: "object", properties: { result: { type: "array", items: { type: "number" } } }, required: ["result"] });
          assert.deepEqual(result.structuredContent, { result: [2, 3, 5] });
        } else {
          assert.deepEqual(listed.outputSchema, { type: "array", items: { type: "number" } });
          assert.deepEqual(result.structuredContent, [2, 3, 5]);
        }
      },
    );

    it("turns a handler's throw into an isError result carrying the message", async () => {
      const client = await connect();
      assert.equal(await callError(client, "explode"), "kaboom");
      assert.equal(await callOk(client, "add", { a: 1, b: 1 }), "2");
    });

    it("lists and reads resources, including the ones a template lists", async () => {
      const client = await connect();
      assert.deepEqual((await client.listResources()).resources, [
        { uri: "bench://readme", name: "readme", mimeType: "text/plain", description: "How to use the bench." },
        { uri: "notes://alpha", name: "alpha" },
      ]);
      const read = await client.readResource({ uri: "bench://readme" });
      assert.deepEqual(read.contents, [{ uri: "bench://readme", mimeType: "text/plain", text: "read by workbench in bench" }]);
      await assert.rejects(client.readResource({ uri: "bench://nothing" }), isProtocolError(-32602, "Resource not found: bench://nothing"));
    });

    it("lists resource templates, reads through one, and completes its variable", async () => {
      const client = await connect();
      assert.deepEqual((await client.listResourceTemplates()).resourceTemplates, [{ uriTemplate: "notes://{id}", name: "note", mimeType: "text/plain" }]);
      assert.deepEqual((await client.readResource({ uri: "notes://beta" })).contents, [{ uri: "notes://beta", text: "second note" }]);
      const completion = await client.complete({ ref: { type: "ref/resource", uri: "notes://{id}" }, argument: { name: "id", value: "a" } });
      assert.deepEqual(completion.completion, { values: ["alpha", "apple"], total: 2, hasMore: false });
      const none = await client.complete({ ref: { type: "ref/resource", uri: "notes://{id}" }, argument: { name: "other", value: "a" } });
      assert.deepEqual(none.completion, { values: [], hasMore: false });
    });

    it("lists prompts and gets one with arguments, refusing a missing required argument", async () => {
      const client = await connect();
      assert.deepEqual((await client.listPrompts()).prompts, [
        {
          name: "greet",
          description: "Greets someone.",
          arguments: [
            { name: "who", description: "Whom to greet.", required: true },
            { name: "tone", required: false },
          ],
        },
      ]);
      const got = await client.getPrompt({ name: "greet", arguments: { who: "Ada", tone: "warmly" } });
      assert.deepEqual(got.messages, [{ role: "user", content: { type: "text", text: "Say hello to Ada (warmly)." } }]);
      await assert.rejects(
        client.getPrompt({ name: "greet", arguments: { tone: "coldly" } }),
        isProtocolError(-32602, 'Prompt "greet" needs the argument(s) "who"'),
      );
      await assert.rejects(client.getPrompt({ name: "farewell" }), isProtocolError(-32602, 'Unknown prompt "farewell". Available: greet'));
    });

    it("completes a prompt argument", async () => {
      const client = await connect();
      const completion = await client.complete({ ref: { type: "ref/prompt", name: "greet" }, argument: { name: "who", value: "wa" } });
      assert.deepEqual(completion.completion, { values: ["wally", "wanda"], total: 2, hasMore: false });
    });

    it("delivers a handler's progress notifications to the client that asked for them", async () => {
      const client = await connect();
      const progress: unknown[] = [];
      const last = deferred();
      const result = await client.callTool(
        { name: "long_job", arguments: {} },
        {
          onprogress: (p) => {
            progress.push(p);
            if (p.progress === 2) last.resolve();
          },
        },
      );
      await last.promise;
      assert.equal(textOf(result), "job finished");
      assert.deepEqual(progress, [
        { progress: 1, total: 2, message: "halfway" },
        { progress: 2, total: 2, message: "done" },
      ]);
    });
  });
}

describe("log messages for a legacy client", () => {
  it("reach a client that set a level, filtered by that level and tagged with the extension", async () => {
    connection = await connectInProcess(host, "", { era: "legacy" });
    const { client } = connection;
    const messages: unknown[] = [];
    const arrived = deferred();
    client.setNotificationHandler("notifications/message", (notification) => {
      messages.push(notification.params);
      if (notification.params.level === "error") arrived.resolve();
    });
    await client.setLoggingLevel("warning");
    assert.equal(await callOk(client, "chatty"), "logged");
    await arrived.promise;
    // "info" was sent first; had it got through it would have arrived before "error".
    assert.deepEqual(messages, [{ level: "error", logger: "workbench", data: { note: "above the client's level" } }]);
  });
});
