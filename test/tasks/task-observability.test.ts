// Operators see tasks (issue 29 §7, docs/tasks.md, docs/operate.md): /metrics counts them by status, the audit log has
// a line when each starts and when it ends (tool, caller, status, how long — never its arguments or result), and the
// operator page's data lists them by caller without arguments or results.
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { McpExtension } from "../../src/index.js";
import { Cleanup, deferred, raw } from "../helpers/http-host.js";
import { serveObserved } from "../helpers/observed-host.js";
import { rpc, startTask, untilStatus } from "./tasks-kit.js";

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

const SECRET_ARGUMENT = "argument-that-must-not-show";
const SECRET_RESULT = "result-that-must-not-show";

function reportTool(gate: Promise<void>): McpExtension {
  return {
    name: "reports",
    tools: [
      {
        name: "build_report",
        taskSupport: "optional",
        inputSchema: { type: "object", properties: { title: { type: "string" } } },
        handler: async (_args, ctx) => {
          await ctx.task?.start("building");
          await Promise.race([gate, new Promise((_, reject) => ctx.signal.addEventListener("abort", () => reject(ctx.signal.reason), { once: true }))]);
          return { content: [{ type: "text", text: SECRET_RESULT }] };
        },
      },
    ],
  };
}

describe("tasks as operators see them", { timeout: 60_000 }, () => {
  it("counts tasks by status in /metrics, logs each start and end, and lists them by caller on the operator page", async () => {
    const gate = deferred<void>();
    const served = await serveObserved(cleanup, [reportTool(gate.promise)], { observe: { metrics: { defaultMetrics: false } } });
    const running = await startTask(served.url, "build_report", { title: SECRET_ARGUMENT });
    const finished = await startTask(served.url, "build_report", { title: SECRET_ARGUMENT });
    await rpc(served.url, "tasks/cancel", { taskId: finished });
    await untilStatus(served.url, finished, "cancelled");

    const scrape = (await raw({ url: new URL("/metrics", served.baseUrl) })).text;
    assert.match(scrape, /^mcp_host_tasks\{status="working"\} 1$/m);
    assert.match(scrape, /^mcp_host_tasks\{status="cancelled"\} 1$/m);
    assert.match(scrape, /^mcp_host_tasks\{status="completed"\} 0$/m);

    const overview = (await raw({ url: new URL("/_ui/overview", served.baseUrl) })).json;
    assert.deepEqual(overview.tasks.counts, { working: 1, input_required: 0, completed: 0, failed: 0, cancelled: 1 });
    assert.deepEqual(overview.tasks.recent.map((t: { caller: string; tool: string; status: string }) => [t.caller, t.tool, t.status]).sort(), [
      ["anonymous", "build_report", "cancelled"],
      ["anonymous", "build_report", "working"],
    ]);
    gate.resolve();
    await untilStatus(served.url, running, "completed");
    const page = JSON.stringify((await raw({ url: new URL("/_ui/overview", served.baseUrl) })).json);
    assert.equal(page.includes(SECRET_ARGUMENT) || page.includes(SECRET_RESULT), false, "no arguments or results on the page");

    await served.waitFor((line) => line.component === "audit" && String(line.msg).startsWith(`task ${running.slice(0, 8)} of build_report ended completed`));
    const audit = served.lines.filter((line) => line.component === "audit" && String(line.msg).startsWith("task "));
    assert.deepEqual(
      audit.map((line) => `${String(line.msg).replace(/ after \d+ ms/, "")} ${line.caller}`).sort(),
      [
        `task ${finished.slice(0, 8)} of build_report ended cancelled anonymous`,
        `task ${finished.slice(0, 8)} of build_report started anonymous`,
        `task ${running.slice(0, 8)} of build_report ended completed anonymous`,
        `task ${running.slice(0, 8)} of build_report started anonymous`,
      ].sort(),
    );
    const logged = JSON.stringify(audit);
    assert.equal(logged.includes(SECRET_ARGUMENT) || logged.includes(SECRET_RESULT), false, "no arguments or results in the task lines");
  });
});
