// Names inside one build (docs/design.md §7): a tool offered by two active toolsets is listed only as
// `<toolset>__<tool>`, the dotted form resolves too, a bare ambiguous name is unknown; names are cleaned to
// ^[a-zA-Z0-9_-]{1,64}$ with a stable hash on overflow and re-checked for clashes; prompts follow the same
// rule; resource URIs are qualified `<toolset>:<uri>` only on a clash; a same-toolset clash keeps the first.
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { ProtocolError } from "@modelcontextprotocol/client";
import type { McpExtension, PromptSpec, ResourceSpec } from "../../../src/extension/types.js";
import type { McpHost } from "../../../src/host/host.js";
import type { LogRecord } from "../../../src/logger.js";
import { cleanName } from "../../../src/names.js";
import { connectInProcess } from "../../helpers/in-process.js";
import { build, callOk, logsWithCode, startedHost, textTool, toolNames } from "../../helpers/kit.js";
import { compiledOf } from "../../../src/host/built-server.js";

const NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

function prompt(name: string, text: string): PromptSpec {
  return { name, get: () => ({ messages: [{ role: "user", content: { type: "text", text } }] }) };
}

function resource(uri: string, text: string): ResourceSpec {
  return { uri, name: uri, read: () => ({ contents: [{ uri, text }] }) };
}

/** Two toolsets, both offering `search`, the prompt `summarise` and the resource `mem://notes`. */
function twins(): McpExtension[] {
  return [
    {
      name: "alpha",
      toolsets: [{ name: "alpha", default: false }],
      tools: [textTool("search", {}, "alpha searched"), textTool("alpha_only")],
      prompts: [prompt("summarise", "alpha summary"), prompt("sum up", "alpha sums up")],
      resources: [resource("mem://notes", "alpha notes"), resource("mem://alpha", "alpha's own")],
    },
    {
      name: "beta",
      toolsets: [{ name: "beta", default: false }],
      tools: [textTool("search", {}, "beta searched")],
      prompts: [prompt("summarise", "beta summary")],
      resources: [resource("mem://notes", "beta notes")],
    },
  ];
}

let host: McpHost | undefined;
let records: LogRecord[] = [];
afterEach(async () => {
  await host?.stop();
  host = undefined;
});

function promptText(result: { messages: Array<{ content: unknown }> }): string {
  return (result.messages[0]!.content as { text: string }).text;
}

for (const era of ["legacy", "modern"] as const) {
  describe(`names inside one build (${era} era)`, () => {
    it("lists a tool offered by two active toolsets only as <toolset>__<tool> and keeps a unique name bare", async () => {
      ({ host } = await startedHost(twins()));
      const { client, close } = await connectInProcess(host, "alpha&beta", { era });
      try {
        assert.deepEqual(await toolNames(client), ["alpha__search", "alpha_only", "beta__search", "list_server_toolsets"]);
        assert.equal(await callOk(client, "alpha__search"), "alpha searched");
        assert.equal(await callOk(client, "beta__search"), "beta searched");
        assert.equal(await callOk(client, "alpha.search"), "alpha searched");
        assert.equal(await callOk(client, "beta.search"), "beta searched");
        assert.equal(await callOk(client, "alpha_only"), "alpha_only ok");
        await assert.rejects(client.callTool({ name: "search", arguments: {} }), (error: unknown) => {
          assert.ok(error instanceof ProtocolError);
          assert.equal(error.code, -32602);
          assert.equal(
            error.message,
            'Unknown tool "search". Available: alpha__search, alpha_only, beta__search, list_server_toolsets. A tool outside this URL\'s toolsets is not callable here.',
          );
          return true;
        });
      } finally {
        await close();
      }
    });

    it("keeps the name bare when only one of the two toolsets is active", async () => {
      ({ host } = await startedHost(twins()));
      const { client, close } = await connectInProcess(host, "only=beta", { era });
      try {
        assert.deepEqual(await toolNames(client), ["list_server_toolsets", "search"]);
        assert.equal(await callOk(client, "search"), "beta searched");
        assert.equal(await callOk(client, "beta__search"), "beta searched");
        assert.equal(await callOk(client, "beta.search"), "beta searched");
        await assert.rejects(client.callTool({ name: "alpha__search", arguments: {} }), ProtocolError);
      } finally {
        await close();
      }
    });

    it("names prompts by the same rule", async () => {
      ({ host } = await startedHost(twins()));
      const { client, close } = await connectInProcess(host, "alpha&beta", { era });
      try {
        assert.deepEqual(
          (await client.listPrompts()).prompts.map((p) => p.name),
          ["alpha__summarise", "beta__summarise", "sum_up"],
        );
        assert.equal(promptText(await client.getPrompt({ name: "alpha__summarise" })), "alpha summary");
        assert.equal(promptText(await client.getPrompt({ name: "beta__summarise" })), "beta summary");
        assert.equal(promptText(await client.getPrompt({ name: "beta.summarise" })), "beta summary");
        assert.equal(promptText(await client.getPrompt({ name: "sum_up" })), "alpha sums up");
        await assert.rejects(client.getPrompt({ name: "summarise" }), (error: unknown) => {
          assert.ok(error instanceof ProtocolError);
          assert.equal(error.code, -32602);
          assert.equal(error.message, 'Unknown prompt "summarise". Available: alpha__summarise, beta__summarise, sum_up');
          return true;
        });
      } finally {
        await close();
      }
    });

    it("qualifies a resource URI as <toolset>:<uri> only when two active toolsets list it, and reads each", async () => {
      ({ host } = await startedHost(twins()));
      const both = await connectInProcess(host, "alpha&beta", { era });
      const one = await connectInProcess(host, "only=alpha", { era });
      try {
        assert.deepEqual(
          (await both.client.listResources()).resources.map((r) => r.uri),
          ["alpha:mem://notes", "beta:mem://notes", "mem://alpha"],
        );
        const read = async (uri: string) => ((await both.client.readResource({ uri })).contents[0] as { text: string }).text;
        assert.equal(await read("alpha:mem://notes"), "alpha notes");
        assert.equal(await read("beta:mem://notes"), "beta notes");
        assert.equal(await read("mem://alpha"), "alpha's own");
        assert.deepEqual(
          (await one.client.listResources()).resources.map((r) => r.uri),
          ["mem://alpha", "mem://notes"],
        );
        assert.equal(((await one.client.readResource({ uri: "mem://notes" })).contents[0] as { text: string }).text, "alpha notes");
      } finally {
        await Promise.all([both.close(), one.close()]);
      }
    });
  });
}

describe("names are cleaned for models", () => {
  it("replaces characters outside [a-zA-Z0-9_-] and still routes the call", async () => {
    ({ host } = await startedHost([{ name: "users", tools: [textTool("get.user info", {}, "user found")] }]));
    const { client, close } = await connectInProcess(host, "");
    try {
      assert.deepEqual(await toolNames(client), ["get_user_info", "list_server_toolsets"]);
      assert.equal(await callOk(client, "get_user_info"), "user found");
    } finally {
      await close();
    }
  });

  it("cuts a name over 64 characters and gives it a hash suffix that is the same in every build", async () => {
    const long = `${"x".repeat(60)}_and_then_some`;
    ({ host } = await startedHost([
      {
        name: "verbose",
        toolsets: [{ name: "verbose" }, { name: "more", default: false }],
        tools: [textTool(long, {}, "long answered"), textTool("other", { toolset: "more" })],
      },
    ]));
    const first = await build(host, "");
    host.forgetBuilt();
    const second = await build(host, "");
    const wider = await build(host, "more");
    assert.notEqual(compiledOf(second), compiledOf(first));
    const name = first.toolNames.find((n) => n.startsWith("xxx"))!;
    assert.match(name, /^x{55}_[0-9a-f]{8}$/);
    assert.match(name, NAME_PATTERN);
    assert.equal(name, cleanName(long));
    assert.ok(second.toolNames.includes(name));
    assert.ok(wider.toolNames.includes(name));
    const { client, close } = await connectInProcess(host, "");
    try {
      assert.equal(await callOk(client, name), "long answered");
    } finally {
      await close();
    }
  });

  it("checks clashes again after cleaning: a.b and a_b in two toolsets are both qualified", async () => {
    ({ host } = await startedHost([
      { name: "p", toolsets: [{ name: "p" }], tools: [textTool("a.b", {}, "p's a.b")] },
      { name: "q", toolsets: [{ name: "q" }], tools: [textTool("a_b", {}, "q's a_b")] },
    ]));
    const { client, close } = await connectInProcess(host, "");
    try {
      const names = await toolNames(client);
      assert.deepEqual(names, ["list_server_toolsets", "p__a_b", "q__a_b"]);
      assert.ok(names.every((n) => NAME_PATTERN.test(n)));
      assert.equal(await callOk(client, "p__a_b"), "p's a.b");
      assert.equal(await callOk(client, "q__a_b"), "q's a_b");
      assert.equal(await callOk(client, "p.a.b"), "p's a.b");
      assert.equal(await callOk(client, "q.a_b"), "q's a_b");
    } finally {
      await close();
    }
  });
});

describe("two extensions contributing the same name to the same toolset", () => {
  it("keeps the first in load order and warns naming both", async () => {
    ({ host, records } = await startedHost([
      { name: "second", toolsets: [{ name: "shared" }], tools: [textTool("fetch", {}, "second's fetch")], prompts: [prompt("brief", "second's brief")] },
      { name: "first", toolsets: [{ name: "shared" }], tools: [textTool("fetch", {}, "first's fetch")], prompts: [prompt("brief", "first's brief")] },
    ]));
    const { client, close } = await connectInProcess(host, "");
    try {
      assert.deepEqual(await toolNames(client), ["fetch", "list_server_toolsets"]);
      assert.equal(await callOk(client, "fetch"), "first's fetch");
      assert.deepEqual(
        (await client.listPrompts()).prompts.map((p) => p.name),
        ["brief"],
      );
      assert.equal(promptText(await client.getPrompt({ name: "brief" })), "first's brief");
    } finally {
      await close();
    }
    assert.deepEqual(
      logsWithCode(records, "TOOL_NAME_CLASH").map((r) => ({ level: r.level, message: r.message, extension: r.data?.extension })),
      [
        {
          level: "warn",
          message: 'extensions "first" and "second" both contribute tool "fetch" to toolset "shared"; "first" (first in load order) wins',
          extension: "second",
        },
        {
          level: "warn",
          message: 'extensions "first" and "second" both contribute prompt "brief" to toolset "shared"; "first" (first in load order) wins',
          extension: "second",
        },
      ],
    );
  });
});
