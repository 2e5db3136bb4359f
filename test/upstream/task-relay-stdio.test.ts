// The gateway's task relay over stdio (docs/gateway.md "Tasks"): the upstream is the built `mcp-host stdio` serving a
// project folder whose extension has task tools, spoken to in 2026-07-28. Its task is followed under the gateway's own
// and completes with its result; a downstream cancel reaches the upstream's handler (its signal aborts), which a
// second tool of the same upstream process reports.
import { afterEach, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { assertBuilt, CLI_MAIN } from "../helpers/cli-process.js";
import { Cleanup } from "../helpers/http-host.js";
import { rpc, untilStatus } from "../tasks/tasks-kit.js";
import { serveGateway } from "./gateway-kit.js";

const cleanup = new Cleanup();
afterEach(() => cleanup.run());
before(() => assertBuilt());

const EXTENSION = `
let aborted;
const abortedOnce = new Promise((resolve) => (aborted = resolve));
const text = (t) => ({ content: [{ type: "text", text: t }] });
export default {
  name: "jobs",
  tools: [
    {
      name: "job",
      taskSupport: "optional",
      handler: async (_args, ctx) => {
        await ctx.task?.start("started");
        return text(ctx.task?.running ? "done as a task " + ctx.task.taskId : "done on the request");
      },
    },
    {
      name: "hang",
      taskSupport: "optional",
      handler: async (_args, ctx) => {
        await ctx.task?.start("hanging");
        await new Promise((resolve) => ctx.signal.addEventListener("abort", resolve, { once: true }));
        aborted("cancelled");
        throw ctx.signal.reason;
      },
    },
    {
      name: "hang_was_cancelled",
      handler: async () => text(String(await abortedOnce)),
    },
  ],
};
`;

/** A project folder for \`mcp-host stdio\` whose extension has task tools (polled every 100 ms, the least allowed). */
function projectFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), "mcp-host-task-upstream-"));
  cleanup.add(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, "package.json"), JSON.stringify({ private: true, type: "module", mcpExtensions: { jobs: "./jobs.js" } }));
  writeFileSync(join(dir, "jobs.js"), EXTENSION);
  writeFileSync(join(dir, "mcp-host.config.yaml"), "tasks:\n  pollIntervalMs: 100\n");
  return dir;
}

describe("the gateway relays upstream MCP tasks over stdio", { timeout: 90_000 }, () => {
  it("follows a stdio upstream's task to its result, and sends a downstream cancel on to it", async () => {
    const dir = projectFolder();
    const served = await serveGateway(cleanup, {
      servers: { jobs: { command: process.execPath, args: [CLI_MAIN, "stdio", "--cwd", dir], era: "modern" } },
    });
    const url = served.at("only=jobs");

    const created = await rpc(url, "tools/call", { name: "job", arguments: {} });
    assert.equal(created.result?.resultType, "task", JSON.stringify(created));
    const done = await untilStatus(url, created.result.taskId, "completed");
    const [block] = done.result.content as Array<{ text: string }>;
    assert.equal(block?.text, "done as a task <upstream task>", "the upstream ran it as its own task, whose id is not shown");

    const hanging = await rpc(url, "tools/call", { name: "hang", arguments: {} });
    const taskId = hanging.result.taskId as string;
    await untilStatus(url, taskId, "working");
    await rpc(url, "tasks/cancel", { taskId });
    await untilStatus(url, taskId, "cancelled");
    const report = await rpc(url, "tools/call", { name: "hang_was_cancelled", arguments: {} }, { tasks: false });
    assert.deepEqual(report.result?.content, [{ type: "text", text: "cancelled" }], "the upstream's handler saw the cancel");
  });
});
