// The event-loop monitor (docs/design.md §16): a tool that blocks the main thread on purpose is named in an
// EVENT_LOOP_BLOCKED warning with how long the loop was blocked.
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { buildHost } from "../../../src/host/build-host.js";
import type { McpHost } from "../../../src/host/host.js";
import { createLogger, type LogRecord } from "../../../src/logger.js";
import { blockingExtension } from "../../fixtures/extensions/isolated.js";
import { callOk, deferred, held } from "../../helpers/kit.js";
import { connectInProcess } from "../../helpers/in-process.js";

const open: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of open.splice(0).reverse()) await close();
});

/** A started host whose log resolves `blocked` at the first EVENT_LOOP_BLOCKED warning that names a tool. */
async function hostWithMonitor(eventLoopWarnMs: number): Promise<{ host: McpHost; records: LogRecord[]; blocked: Promise<LogRecord> }> {
  const records: LogRecord[] = [];
  const first = deferred<LogRecord>();
  const logger = createLogger({
    level: "debug",
    sink: (record) => {
      records.push(record);
      // Loading and the first build may block the loop too (reported as "no tool ran"); the test waits for the tool's.
      if (record.data?.code === "EVENT_LOOP_BLOCKED" && (record.data.tools as string[]).length > 0) first.resolve(record);
    },
  });
  const host = buildHost([blockingExtension], { name: "monitored", logger, eventLoopWarnMs });
  await host.start();
  open.push(() => host.stop());
  return { host, records, blocked: first.promise };
}

describe("event-loop monitor", () => {
  it("names the tool that blocked the loop, and for how long", async () => {
    const { host, blocked } = await hostWithMonitor(100);
    const { client, close } = await connectInProcess(host, "only=blocking");
    open.push(close);
    assert.equal(await callOk(client, "block", { ms: 600 }), "unblocked");
    const warning = await held(blocked);
    assert.equal(warning.level, "warn");
    assert.match(
      warning.message,
      /^the event loop was blocked for \d+ ms \(warning threshold 100 ms\) while tool "block" \(extension "blocking"\) ran on the main thread; an extension whose work grows with its input should ask for isolation \(docs\/extensions\.md, "Isolation"\)$/,
    );
    const { blockedMs, ...rest } = warning.data as { blockedMs: number };
    assert.ok(Number.isInteger(blockedMs) && blockedMs >= 100, `blocked ${blockedMs} ms`);
    assert.deepEqual(rest, { code: "EVENT_LOOP_BLOCKED", thresholdMs: 100, tools: ["block"], extensions: ["blocking"] });
  });
});
