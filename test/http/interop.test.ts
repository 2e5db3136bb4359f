// Interop (issue 3 part 9): the same URL and selection give the same tool list and a working call to the SDK v1
// client (2025, sessionful), the SDK v2 client in its default mode and pinned to 2026-07-28, and the official
// inspector CLI (`@modelcontextprotocol/inspector-cli` 1.0.3, run as a process; its JSON stdout is parsed).
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import type { McpExtension } from "../../src/extension/types.js";
import { REPO, runNodeScript } from "../helpers/cli-process.js";
import { Cleanup, connectV1, connectV2, serveHost } from "../helpers/http-host.js";

const notes: McpExtension = {
  name: "notes",
  toolsets: [
    { name: "notes", description: "Notes" },
    { name: "admin", default: false },
  ],
  tools: [
    {
      name: "find_note",
      title: "Find a note",
      description: "Finds notes whose title contains the query",
      inputSchema: {
        type: "object",
        properties: { query: { type: "string", description: "words to look for" }, limit: { type: "integer", minimum: 1 } },
        required: ["query"],
      },
      annotations: { readOnlyHint: true },
      handler: (args) => ({ content: [{ type: "text", text: `found 1 note for "${String(args.query)}"` }] }),
    },
    { name: "purge", toolset: "admin", annotations: { destructiveHint: true }, handler: () => ({ content: [{ type: "text", text: "purged" }] }) },
  ],
};

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

// build/index.js takes the URL directly (`--cli` belongs to build/cli.js, which re-spawns index.js). It must run
// from a directory whose parent has a package.json (conformance-notes.md §5), hence cwd = <repo>/test.
const INSPECTOR = join(REPO, "node_modules", "@modelcontextprotocol", "inspector-cli", "build", "index.js");

async function inspector(cleanupList: Cleanup, args: string[]): Promise<{ code: number | null; json: any; stderr: string }> {
  // inspector-cli 1.0.3 needs a working directory whose parent has a package.json (see conformance-notes §5).
  const run = await runNodeScript(cleanupList, INSPECTOR, args, { cwd: join(REPO, "test"), env: process.env });
  try {
    return { code: run.code, json: JSON.parse(run.stdout), stderr: run.stderr };
  } catch {
    throw new Error(`inspector-cli printed no JSON (exit ${run.code}); stdout: ${run.stdout}\nstderr: ${run.stderr}`);
  }
}

type Tool = { name: string; title?: string; description?: string; inputSchema: unknown; annotations?: unknown };
const shape = (tools: Tool[]) =>
  tools.map((t) => ({ name: t.name, title: t.title, description: t.description, inputSchema: t.inputSchema, annotations: t.annotations }));

describe("interop at one URL", { timeout: 60_000 }, () => {
  for (const [label, query, headers] of [
    ["?only=notes", "only=notes", {}],
    ["?notes&admin", "notes&admin", {}],
    ["X-MCP-Toolsets: only=admin", "", { "X-MCP-Toolsets": "only=admin" }],
  ] as const) {
    it(`gives the v1 client, the v2 client (default and pinned) and inspector-cli the same tools and calls (${label})`, async () => {
      const { at } = await serveHost(cleanup, [notes]);
      const url = at(query);
      const headerArgs = Object.entries(headers).flatMap(([k, v]) => ["--header", `${k}: ${v}`]);
      const expectedNames =
        query === "only=notes"
          ? ["find_note", "list_server_toolsets"]
          : query
            ? ["find_note", "list_server_toolsets", "purge"]
            : ["list_server_toolsets", "purge"];
      const call = expectedNames.includes("find_note")
        ? { name: "find_note", args: { query: "milk" }, text: 'found 1 note for "milk"' }
        : { name: "purge", args: {}, text: "purged" };

      const v1 = await connectV1(cleanup, url, { headers });
      const v2Default = await connectV2(cleanup, url, "legacy", { headers });
      const v2Pinned = await connectV2(cleanup, url, "modern", { headers });
      const lists: Record<string, unknown> = {
        v1: shape((await v1.client.listTools()).tools as Tool[]),
        "v2 default": shape((await v2Default.client.listTools()).tools as Tool[]),
        "v2 pinned": shape((await v2Pinned.client.listTools()).tools as Tool[]),
      };
      const listed = await inspector(cleanup, [url.href, "--transport", "http", "--method", "tools/list", ...headerArgs]);
      assert.equal(listed.code, 0, listed.stderr);
      lists["inspector-cli"] = shape(listed.json.tools as Tool[]);

      const reference = lists.v1 as Tool[];
      assert.deepEqual(
        reference.map((t) => t.name),
        expectedNames,
      );
      assert.deepEqual(lists, { v1: reference, "v2 default": reference, "v2 pinned": reference, "inspector-cli": reference });

      const results: Record<string, unknown> = {
        v1: (await v1.client.callTool({ name: call.name, arguments: call.args })).content,
        "v2 default": (await v2Default.client.callTool({ name: call.name, arguments: call.args })).content,
        "v2 pinned": (await v2Pinned.client.callTool({ name: call.name, arguments: call.args })).content,
      };
      const toolArgs = Object.entries(call.args).flatMap(([k, v]) => ["--tool-arg", `${k}=${String(v)}`]);
      const called = await inspector(cleanup, [
        url.href,
        "--transport",
        "http",
        "--method",
        "tools/call",
        "--tool-name",
        call.name,
        ...toolArgs,
        ...headerArgs,
      ]);
      assert.equal(called.code, 0, called.stderr);
      assert.notEqual(called.json.isError, true, JSON.stringify(called.json));
      results["inspector-cli"] = called.json.content;
      const content = [{ type: "text", text: call.text }];
      assert.deepEqual(results, { v1: content, "v2 default": content, "v2 pinned": content, "inspector-cli": content });
    });
  }
});
