// The selection's modifiers over real HTTP (docs/serving.md): X-MCP-Readonly and X-MCP-Tools, tool-search mode
// through the SDK v2 client in both eras, the SDK v1 client and the inspector CLI, a paused call resumed through
// call_tool, strict mode naming an unknown tool, /toolsets showing the modifiers — and a read-only build staying
// read-only wherever the serving layer meets it again: a legacy session rebound after an offer change, and the
// build's server mounted in another app while the same toolsets are served plainly.
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import express from "express";
import * as z from "zod";
import type { AddressInfo } from "node:net";
import { acceptedContent, defineTool, inputRequired } from "../../src/index.js";
import type { ExtensionContext, McpExtension } from "../../src/extension/types.js";
import { parseSelection } from "../../src/host/selection.js";
import { REPO, runNodeScript } from "../helpers/cli-process.js";
import { Cleanup, connectV1, connectV2, listedTools, raw, serveHost } from "../helpers/http-host.js";
import { deferred, textTool } from "../helpers/kit.js";
import { selectionExtensions } from "../helpers/selection-kit.js";

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

const INSPECTOR = join(REPO, "node_modules", "@modelcontextprotocol", "inspector-cli", "build", "index.js");

async function inspector(args: string[]): Promise<any> {
  const run = await runNodeScript(cleanup, INSPECTOR, args, { cwd: join(REPO, "test"), env: process.env });
  assert.equal(run.code, 0, run.stderr);
  return JSON.parse(run.stdout);
}

type Found = { structuredContent?: { tools: Array<{ name: string; inputSchema: unknown }> } };

describe("X-MCP-Readonly and X-MCP-Tools", { timeout: 30_000 }, () => {
  it("serves only read-only tools with X-MCP-Readonly: true, whatever the URL names", async () => {
    const { at } = await serveHost(cleanup, selectionExtensions());
    for (const era of ["legacy", "modern"] as const) {
      const { client } = await connectV2(cleanup, at("library"), era, { headers: { "X-MCP-Readonly": "true" } });
      assert.deepEqual(await listedTools(client), ["get_book", "list_server_toolsets", "ping", "search_spaces"], era);
    }
    const { client } = await connectV1(cleanup, at("library"), { headers: { "X-MCP-Readonly": "false" } });
    assert.deepEqual(await listedTools(client), ["burn_book", "create_space", "get_book", "lend_book", "list_server_toolsets", "ping", "search_spaces"]);
  });

  it("adds the X-MCP-Tools tools to the X-MCP-Toolsets selection when the URL names nothing", async () => {
    const { url } = await serveHost(cleanup, selectionExtensions());
    const { client } = await connectV2(cleanup, url, "modern", { headers: { "X-MCP-Toolsets": "only=benchmarks", "X-MCP-Tools": "get_book" } });
    assert.deepEqual(await listedTools(client), ["get_book", "get_result", "list_server_toolsets", "ping", "run_benchmark"]);
  });
});

describe("tool-search mode through real clients", { timeout: 60_000 }, () => {
  it("lists find_tools and call_tool, finds and calls, for SDK v2 (both eras), SDK v1 and the inspector CLI", async () => {
    const { at } = await serveHost(cleanup, selectionExtensions());
    const url = at("all&search");
    const clients = {
      "v2 legacy": (await connectV2(cleanup, url, "legacy")).client,
      "v2 modern": (await connectV2(cleanup, url, "modern")).client,
      v1: (await connectV1(cleanup, url)).client,
    };
    for (const [label, client] of Object.entries(clients)) {
      assert.deepEqual(await listedTools(client), ["call_tool", "find_tools"], label);
      const found = (await client.callTool({ name: "find_tools", arguments: { query: "look up a book by its id", limit: 1 } })) as Found;
      assert.deepEqual(
        found.structuredContent?.tools.map((t) => t.name),
        ["get_book"],
        label,
      );
      const called = await client.callTool({ name: "call_tool", arguments: { name: "get_book", arguments: { id: "b2" } } });
      assert.deepEqual(called.content, [{ type: "text", text: 'get_book {"id":"b2"}' }], label);
    }
    const listed = await inspector([url.href, "--transport", "http", "--method", "tools/list"]);
    assert.deepEqual(
      listed.tools.map((t: { name: string }) => t.name),
      ["call_tool", "find_tools"],
    );
    const found = await inspector([
      url.href,
      "--transport",
      "http",
      "--method",
      "tools/call",
      "--tool-name",
      "find_tools",
      "--tool-arg",
      "query=run a benchmark suite",
    ]);
    assert.equal(found.structuredContent.tools[0].name, "run_benchmark");
    const called = await inspector([
      url.href,
      "--transport",
      "http",
      "--method",
      "tools/call",
      "--tool-name",
      "call_tool",
      "--tool-arg",
      "name=get_book",
      "--tool-arg",
      'arguments={"id":"b3"}',
    ]);
    assert.deepEqual(called.content, [{ type: "text", text: 'get_book {"id":"b3"}' }]);
  });

  it("resumes a paused call (input_required) through call_tool, its state bound to the real tool", async () => {
    const Name = z.object({ name: z.string() });
    const greeter: McpExtension = {
      name: "greeter",
      tools: [
        defineTool({
          name: "greet",
          description: "Greets someone after asking their name",
          handler: (_args, ctx) => {
            const answer = acceptedContent(ctx.inputResponses, "who", Name);
            if (!answer)
              return inputRequired({ inputRequests: { who: inputRequired.elicit({ message: "Name?", requestedSchema: Name }) }, requestState: "asked" });
            return { content: [{ type: "text", text: `hello ${answer.name}, state=${ctx.requestState<string>()}` }] };
          },
        }),
      ],
    };
    const { at } = await serveHost(cleanup, [greeter]);
    const { client } = await connectV2(cleanup, at("search"), "modern", {
      clientOptions: { capabilities: { elicitation: { form: {} } } },
      setup: (c) => c.setRequestHandler("elicitation/create", async () => ({ action: "accept", content: { name: "Ada" } })),
    });
    const result = await client.callTool({ name: "call_tool", arguments: { name: "greet" } });
    assert.deepEqual(result.content, [{ type: "text", text: "hello Ada, state=asked" }]);
  });

  it("refuses an unknown tool with 400 under selection.strict, naming it", async () => {
    const { at } = await serveHost(cleanup, selectionExtensions(), { http: { selection: { strict: true } } });
    const answer = await raw({
      url: at("tools=get_bok"),
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "x", version: "1" } },
      }),
    });
    assert.equal(answer.status, 400);
    assert.match(answer.json.error.message, /^unknown tool "get_bok" \(no active or declared toolset offers it\) in the selection/);
  });

  it("shows the modifiers in /toolsets", async () => {
    const { baseUrl } = await serveHost(cleanup, selectionExtensions());
    const answer = await raw({ url: new URL("/toolsets?readonly&tools=get_book&search", baseUrl) });
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.json.modifiers, { readonly: true, tools: ["library.get_book"], search: true, searchable: 3 });
    assert.deepEqual(answer.json.tools, ["call_tool", "find_tools"]);
  });
});

describe("a read-only build stays read-only wherever the serving layer meets it", { timeout: 30_000 }, () => {
  function liveExtension() {
    let ctx: ExtensionContext | undefined;
    const extension: McpExtension = {
      name: "live",
      toolsets: [{ name: "live", default: false }],
      tools: [textTool("peek", { annotations: { readOnlyHint: true } })],
      setup: (c) => {
        ctx = c;
      },
    };
    return {
      extension,
      add: (...names: string[]) => ctx!.replaceOffer({ tools: names.map((n) => textTool(n, { annotations: { readOnlyHint: n.startsWith("peek") } })) }),
    };
  }

  it("rebinds a read-only legacy session to the read-only build after an offer change", async () => {
    const live = liveExtension();
    const { at } = await serveHost(cleanup, [live.extension]);
    for (const query of ["only=live&readonly", "only=live,readonly", "only=live&search&readonly"]) {
      const changed = deferred();
      const { client } = await connectV1(cleanup, at(query), { listChanged: { tools: { onChanged: () => changed.resolve() } } });
      const search = query.includes("search");
      const before = search ? await found(client) : await listedTools(client);
      assert.deepEqual(
        before,
        ["list_server_toolsets", "peek"].filter((n) => !search || n === "peek"),
        query,
      );
      live.add("peek", "peek_more", "poke");
      await changed.promise;
      const after = search ? await found(client) : await listedTools(client);
      assert.deepEqual(
        after,
        ["list_server_toolsets", "peek", "peek_more"].filter((n) => !search || n !== "list_server_toolsets"),
        query,
      );
      await assert.rejects(client.callTool({ name: "poke", arguments: {} }), /Unknown tool "poke"/);
      live.add("peek");
    }
  });

  it("serves a read-only build's server mounted in another app as read-only, beside the plain URL", async () => {
    const { host, at } = await serveHost(cleanup, selectionExtensions());
    // The plain build of the same toolsets is served first, so the serving layer already knows these toolsets.
    assert.equal((await listedTools((await connectV2(cleanup, at("only=library"), "modern")).client)).length, 5);
    const readonly = await host.build(parseSelection("only=library&readonly"));
    const app = express().use("/ro", express.json(), (req, res, next) => readonly.server(req, res, next));
    const server = app.listen(0, "127.0.0.1");
    await new Promise<void>((resolve) => server.once("listening", () => resolve()));
    cleanup.add(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/ro`);
    for (const era of ["legacy", "modern"] as const) {
      const { client } = await connectV2(cleanup, url, era);
      assert.deepEqual(await listedTools(client), ["get_book", "list_server_toolsets", "ping"], era);
    }
  });
});

async function found(client: { callTool: (p: { name: string; arguments: Record<string, unknown> }) => Promise<unknown> }): Promise<string[]> {
  const result = (await client.callTool({ name: "find_tools", arguments: { query: "peek poke more", limit: 25 } })) as Found;
  return (result.structuredContent?.tools.map((t) => t.name) ?? []).sort();
}
