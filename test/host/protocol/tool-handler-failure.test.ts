// A tool handler that fails (docs/design.md §4 rule 6): one that throws gives an isError result carrying its message;
// one that runs past its timeout (the host's, or the tool's own) gives an isError naming the tool and the budget
// and sees its signal aborted; one that returns something that is not a tool result gives an isError. The
// failure is logged under the extension's name and every other tool goes on serving. Timeouts run on the host's
// clock: the tests move it, so a budget of minutes takes no real time and is seen not to end a millisecond early.
import type { Client } from "@modelcontextprotocol/client";
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { McpExtension, ToolContext } from "../../../src/extension/types.js";
import type { McpHost } from "../../../src/host/host.js";
import type { LogRecord } from "../../../src/logger.js";
import { connectInProcess } from "../../helpers/in-process.js";
import { callError, callOk, deferred, logsWithCode, startedHost, textTool } from "../../helpers/kit.js";
import { ManualClock } from "../../helpers/manual-clock.js";

const bystander: McpExtension = { name: "bystander", tools: [textTool("bystander_tool")] };

let host: McpHost | undefined;
let records: LogRecord[] = [];
afterEach(async () => {
  await host?.stop();
  host = undefined;
});

/** A handler that waits until its signal is aborted, and reports when it started and the abort. */
function waitsForAbort() {
  const aborted = deferred<{ reason: string }>();
  const started = deferred();
  const handler = (_args: unknown, ctx: ToolContext) =>
    new Promise<never>((_, reject) => {
      started.resolve();
      ctx.signal.addEventListener("abort", () => {
        const reason = ctx.signal.reason instanceof Error ? ctx.signal.reason.message : String(ctx.signal.reason);
        aborted.resolve({ reason });
        reject(new Error("gave up"));
      });
    });
  return { handler, aborted: aborted.promise, started: started.promise };
}

/**
 * Calls `name` and moves `clock` to a millisecond before `budgetMs` (the call must still run), then past it: the
 * call's error text. A budget on the wrong clock never ends (the test times out); one that ends early is caught.
 */
async function timedOutAt(client: Client, clock: ManualClock, slow: { started: Promise<void> }, name: string, budgetMs: number): Promise<string> {
  let settled = false;
  const call = callError(client, name).finally(() => (settled = true));
  await slow.started;
  await clock.advance(budgetMs - 1);
  await new Promise<void>((resolve) => setImmediate(resolve));
  assert.equal(settled, false, "the call still runs a millisecond before its budget");
  await clock.advance(1);
  return call;
}

for (const era of ["legacy", "modern"] as const) {
  describe(`a failing tool handler (${era} era)`, () => {
    it("turns a throw into an isError result carrying the message, and logs TOOL_HANDLER_FAILED naming the extension", async () => {
      ({ host, records } = await startedHost([
        {
          name: "flaky",
          tools: [
            textTool("fragile", {
              handler: () => {
                throw new Error("the disk is full");
              },
            }),
            textTool("sturdy"),
          ],
        },
        bystander,
      ]));
      const { client, close } = await connectInProcess(host, "", { era });
      try {
        assert.equal(await callError(client, "fragile"), "the disk is full");
        assert.equal(await callOk(client, "sturdy"), "sturdy ok");
        assert.equal(await callOk(client, "bystander_tool"), "bystander_tool ok");
      } finally {
        await close();
      }
      assert.deepEqual(
        logsWithCode(records, "TOOL_HANDLER_FAILED").map((r) => ({
          level: r.level,
          extension: r.data?.extension,
          message: r.message,
          tool: r.data?.tool,
        })),
        [{ level: "warn", extension: "flaky", message: '[extension flaky] tool "fragile" threw: the disk is full', tool: "fragile" }],
      );
    });

    it("answers isError naming the tool and the host's budget when a handler runs past toolTimeoutMs, and aborts its signal", async () => {
      const slow = waitsForAbort();
      const clock = new ManualClock();
      ({ host, records } = await startedHost([{ name: "sluggish", tools: [textTool("slow", { handler: slow.handler })] }, bystander], {
        toolTimeoutMs: 600_000,
        clock,
      }));
      const { client, close } = await connectInProcess(host, "", { era });
      try {
        assert.equal(await timedOutAt(client, clock, slow, "slow", 600_000), 'tool "slow" timed out after 600000 ms');
        assert.deepEqual(await slow.aborted, { reason: 'tool "slow" timed out after 600000 ms' });
        assert.equal(clock.timers, 0, "the timeout left no timer behind");
        assert.equal(await callOk(client, "bystander_tool"), "bystander_tool ok");
      } finally {
        await close();
      }
      assert.deepEqual(
        logsWithCode(records, "TOOL_TIMEOUT").map((r) => ({ extension: r.data?.extension, message: r.message, tool: r.data?.tool })),
        [{ extension: "sluggish", message: '[extension sluggish] tool "slow" timed out after 600000 ms', tool: "slow" }],
      );
    });

    it("uses the tool's own timeoutMs over the host's", async () => {
      const slow = waitsForAbort();
      const clock = new ManualClock();
      ({ host, records } = await startedHost(
        [{ name: "sluggish", tools: [textTool("slow", { handler: slow.handler, timeoutMs: 400_000 }), textTool("quick")] }, bystander],
        { toolTimeoutMs: 600_000, clock },
      ));
      const { client, close } = await connectInProcess(host, "", { era });
      try {
        assert.equal(await timedOutAt(client, clock, slow, "slow", 400_000), 'tool "slow" timed out after 400000 ms');
        assert.equal((await slow.aborted).reason, 'tool "slow" timed out after 400000 ms');
        assert.equal(await callOk(client, "quick"), "quick ok");
        assert.equal(await callOk(client, "bystander_tool"), "bystander_tool ok");
      } finally {
        await close();
      }
    });

    it("answers isError when a handler returns something that is not a tool result", async () => {
      ({ host, records } = await startedHost([
        { name: "sloppy", tools: [textTool("shapeless", { handler: (() => ({ text: "forgot content" })) as never })] },
        bystander,
      ]));
      const { client, close } = await connectInProcess(host, "", { era });
      try {
        assert.equal(await callError(client, "shapeless"), 'tool "shapeless" returned an invalid result (expected { content: [...] })');
        assert.equal(await callOk(client, "bystander_tool"), "bystander_tool ok");
      } finally {
        await close();
      }
      assert.deepEqual(
        logsWithCode(records, "TOOL_HANDLER_FAILED").map((r) => r.data?.extension),
        ["sloppy"],
      );
    });
  });
}

describe("a tool handler's abort signal", () => {
  for (const era of ["legacy", "modern"] as const) {
    it(`is aborted when the client cancels the call (${era} era)`, async () => {
      const running = deferred();
      const aborted = deferred<boolean>();
      ({ host, records } = await startedHost([
        {
          name: "waiter",
          tools: [
            textTool("wait", {
              handler: (_args: unknown, ctx: ToolContext) =>
                new Promise<never>((_, reject) => {
                  ctx.signal.addEventListener("abort", () => {
                    aborted.resolve(ctx.signal.aborted);
                    reject(new Error("cancelled"));
                  });
                  running.resolve();
                }),
            }),
          ],
        },
        bystander,
      ]));
      const { client, close } = await connectInProcess(host, "", { era });
      try {
        const controller = new AbortController();
        const call = client.callTool({ name: "wait", arguments: {} }, { signal: controller.signal });
        await running.promise;
        controller.abort(new Error("the user gave up"));
        await assert.rejects(call, /the user gave up/);
        assert.equal(await aborted.promise, true);
      } finally {
        await close();
      }
      const { client: again, close: closeAgain } = await connectInProcess(host, "", { era });
      try {
        assert.equal(await callOk(again, "bystander_tool"), "bystander_tool ok");
      } finally {
        await closeAgain();
      }
    });
  }

  it("is not aborted for a handler that finishes in time", async () => {
    let signal: AbortSignal | undefined;
    ({ host, records } = await startedHost(
      [{ name: "prompt-ext", tools: [textTool("fast", { handler: (_a, ctx) => ((signal = ctx.signal), { content: [{ type: "text", text: "done" }] }) })] }],
      { toolTimeoutMs: 60_000 },
    ));
    const { client, close } = await connectInProcess(host, "");
    try {
      assert.equal(await callOk(client, "fast"), "done");
      assert.equal(signal?.aborted, false);
    } finally {
      await close();
    }
  });
});
