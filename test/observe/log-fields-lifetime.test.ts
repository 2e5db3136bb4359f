// A log line's fields belong to the request it was written in (issue 17 class 9, docs/design.md §18): work an
// extension starts during a request and that outlives it — a timer, a lazily opened shared connection, a cache
// refresh — must not stamp its later lines with that request's id and tool, or with those of the calls that
// happened to start it. The family: a timer, an interval, a shared resource created on first use and used by later
// calls, and a promise chain that settles after the answer; over HTTP (a request id) and in-process (tool fields).
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { EventEmitter } from "node:events";
import type { McpExtension } from "../../src/extension/types.js";
import { Cleanup, connectV2 } from "../helpers/http-host.js";
import { serveObserved } from "../helpers/observed-host.js";

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

/** An extension whose first call starts things that log later, outside any request. */
function lingering() {
  const shared = new EventEmitter();
  let started = false;
  const extension: McpExtension = {
    name: "lingering",
    toolsets: [{ name: "lingering" }],
    tools: [
      {
        name: "start",
        handler: (_args, ctx) => {
          if (!started) {
            started = true;
            // Each created inside the first call's context; each logs after it has ended.
            shared.on("tick", (n: number) => ctx.logger.info(`shared tick ${n}`));
            const interval = setInterval(() => shared.emit("tick", 0), 5);
            setTimeout(() => clearInterval(interval), 60);
            setTimeout(() => ctx.logger.info("timer fired"), 30);
            void new Promise((resolve) => setTimeout(resolve, 40)).then(() => ctx.logger.info("chain settled"));
          }
          return { content: [{ type: "text", text: "started" }] };
        },
      },
      { name: "nudge", handler: () => (shared.emit("tick", 1), { content: [{ type: "text", text: "nudged" }] }) },
    ],
  };
  return extension;
}

describe("log fields end with their request", { timeout: 30_000 }, () => {
  it("stamps no later line with the request, tool or extension that started the work", async () => {
    const served = await serveObserved(cleanup, [lingering()]);
    const { client } = await connectV2(cleanup, served.at("only=lingering"), "modern");
    await client.callTool({ name: "start", arguments: {} });
    const first = await served.waitFor((l) => l.component === "audit" && l.tool === "start");
    await served.waitFor((l) => l.msg === "chain settled");
    await served.waitFor((l) => l.msg === "timer fired");
    await client.callTool({ name: "nudge", arguments: {} });
    const nudge = await served.waitFor((l) => l.component === "audit" && l.tool === "nudge");
    const later = served.lines.filter((l) => ["timer fired", "chain settled", "shared tick 0"].includes(String(l.msg)));
    assert.ok(later.length >= 3, "the lingering work logged");
    const carried = later.filter((l) => l.requestId === first.requestId || l.tool === "start").map((l) => `${l.msg}: ${l.requestId} ${l.tool}`);
    assert.deepEqual(carried, [], "nothing after the first request's end carries its fields");
    // The nudge's own line (a shared listener from the first call, run inside the nudge) is the nudge's.
    const tick = served.lines.find((l) => l.msg === "shared tick 1");
    assert.ok(tick);
    assert.notEqual(tick.requestId, first.requestId);
    assert.equal(tick.requestId === undefined || tick.requestId === nudge.requestId, true, `tick 1 carries ${String(tick.requestId)}`);
  });
});
