// A real client runs a long tool as an MCP task and comes back for it (issue 29, docs/tasks.md): the SDK v2 Client
// with the ecosystem's requester, @modelcontextprotocol/ext-tasks, over real HTTP, calls a 5-second tool, is answered
// with a task, disconnects, connects again as a new client, resumes the task from its serialized reference and
// settles it with the tool's result.
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { createTaskSessionFromClient, resultFromTaskOutcome, type RawClientDispatch } from "@modelcontextprotocol/ext-tasks/client";
import type { McpExtension } from "../../src/index.js";
import { Cleanup, lastRpcMessage, serveHost } from "../helpers/http-host.js";

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

const MODERN = "2026-07-28";
const CLIENT_INFO = { name: "reconnecting-client", version: "1.0.0" };

/** A tool that takes `seconds` of real time, on its signal. */
const slowTool: McpExtension = {
  name: "slow",
  tools: [
    {
      name: "render",
      taskSupport: "optional",
      inputSchema: { type: "object", properties: { seconds: { type: "number" } }, required: ["seconds"] },
      handler: async (args, ctx) => {
        await ctx.task?.start("rendering");
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(resolve, Number(args.seconds) * 1000);
          ctx.signal.addEventListener("abort", () => (clearTimeout(timer), reject(ctx.signal.reason)), { once: true });
        });
        return { content: [{ type: "text", text: `rendered in ${args.seconds} s` }] };
      },
    },
  ],
};

/** What ext-tasks needs to send 2026-07-28 task requests the SDK Client will not: one JSON-RPC POST each. */
function rawDispatchTo(url: URL): RawClientDispatch {
  return async (request) => {
    const message = request as { method: string; params?: { name?: string; taskId?: string } };
    const name = message.params?.taskId ?? message.params?.name;
    const response = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": MODERN,
        "mcp-method": message.method,
        ...(name === undefined ? {} : { "mcp-name": name }),
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, ...message }),
    });
    const answer = lastRpcMessage(await response.text());
    return answer.error !== undefined ? { kind: "error", error: answer.error } : { kind: "result", result: answer.result };
  };
}

async function taskSession(url: URL) {
  const client = new Client(CLIENT_INFO, { versionNegotiation: { mode: { pin: MODERN } } });
  await client.connect(new StreamableHTTPClientTransport(url));
  const session = createTaskSessionFromClient(client, {
    endpointId: "render-endpoint",
    rawDispatch: rawDispatchTo(url),
    v2RequestFraming: { protocolVersion: MODERN, clientInfo: CLIENT_INFO, clientCapabilities: {} },
  });
  cleanup.add(async () => {
    await session.close().catch(() => {});
    await client.close().catch(() => {});
  });
  return { client, session };
}

describe("a real client and a task", { timeout: 60_000 }, () => {
  it("runs a 5-second tool as a task, disconnects, reconnects and gets the result", async () => {
    const { url } = await serveHost(cleanup, [slowTool]);
    const first = await taskSession(url);
    const execution = await first.session.callTool("render", { seconds: 5 });
    assert.equal(execution.kind, "task", "the long call is answered with a task");
    if (execution.kind !== "task") return;
    // The client keeps the task's reference (as an app would, in its own storage) and lets go of it, uncancelled.
    let reference: Parameters<typeof first.session.resumeTask>[0] | undefined;
    await execution.handoff((kept) => {
      reference = kept;
    });
    assert.equal(reference?.generation, "v2");
    // The connection goes away. (Not session.close(): ext-tasks 0.2.2 cancels a handed-off task on it.)
    await first.client.close();

    const second = await taskSession(url);
    const resumed = await second.session.resumeTask(reference!);
    const settled = await resumed.settle();
    assert.equal(
      settled.outcome.status,
      "completed",
      JSON.stringify(settled.outcome.status === "failed" ? { message: settled.outcome.error.message, code: settled.outcome.error.code } : settled),
    );
    const result = resultFromTaskOutcome(settled.outcome) as { content: Array<{ type: string; text: string }> };
    assert.deepEqual(result.content, [{ type: "text", text: "rendered in 5 s" }]);
  });
});
