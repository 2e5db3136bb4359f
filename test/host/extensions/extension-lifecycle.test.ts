// An extension's lifecycle and its failures (docs/design.md §4 rules 9, 13; §7): setup runs once at start with its
// context; a setup that throws or hangs past setupTimeoutMs quarantines only that extension (toolsets still
// declared, tools absent, reported as failed); every dispose runs in reverse load order even when some throw, and
// stop() rejects with one AggregateError; start() twice and build() outside start..stop are refused.
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { isMcpHostError, type McpHostError } from "../../../src/errors.js";
import type { ExtensionContext, McpExtension } from "../../../src/extension/types.js";
import type { McpHost } from "../../../src/host/host.js";
import type { LogRecord } from "../../../src/logger.js";
import { parseSelection } from "../../../src/host/selection.js";
import { connectInProcess } from "../../helpers/in-process.js";
import { buildHost } from "../../../src/host/build-host.js";
import { memoryLogger } from "../../../src/logger.js";
import { build, callOk, logsWithCode, startedHost, textTool } from "../../helpers/kit.js";
import { ManualClock } from "../../helpers/manual-clock.js";

let host: McpHost | undefined;
let records: LogRecord[] = [];
afterEach(async () => {
  await host?.stop().catch(() => {});
  host = undefined;
});

const bystander: McpExtension = { name: "bystander", tools: [textTool("bystander_tool")] };

async function assertBystanderServes(): Promise<void> {
  const { client, close } = await connectInProcess(host!, "");
  try {
    assert.equal(await callOk(client, "bystander_tool"), "bystander_tool ok");
  } finally {
    await close();
  }
}

describe("setup", () => {
  it("runs once at start with the extension's name, options, a prefixed logger and a live signal", async () => {
    let seen: { name: string; options: unknown; aborted: boolean } | undefined;
    let context: ExtensionContext | undefined;
    let setups = 0;
    ({ host, records } = await startedHost(
      [
        {
          name: "configured",
          tools: [textTool("configured_tool")],
          setup: (ctx) => {
            setups += 1;
            context = ctx;
            seen = { name: ctx.name, options: ctx.options, aborted: ctx.signal.aborted };
            ctx.logger.info("ready to serve");
          },
        },
      ],
      { extensionOptions: { configured: { region: "eu" }, other: { region: "us" } } },
    ));
    await build(host, "");
    await build(host, "only=configured");
    assert.equal(setups, 1);
    assert.deepEqual(seen, { name: "configured", options: { region: "eu" }, aborted: false });
    assert.deepEqual(
      records.filter((r) => r.message === "ready to serve").map((r) => ({ level: r.level, prefix: r.prefix })),
      [{ level: "info", prefix: ["configured"] }],
    );
    await host.stop();
    assert.equal(context!.signal.aborted, true);
  });
});

describe("setup that fails", () => {
  function assertQuarantined(code: string, message: string) {
    return async () => {
      const answer = await host!.describe(parseSelection("fragile"));
      assert.deepEqual(answer.extensions, [
        { name: "bystander", status: "ready" },
        { name: "fragile", status: "failed", error: message, code },
      ]);
      assert.deepEqual(
        answer.toolsets.find((t) => t.name === "fragile"),
        { name: "fragile", title: "Fragile", default: false, always: false, active: true, extensions: ["fragile"] },
      );
      assert.deepEqual(answer.active, ["bystander", "fragile"]);
      assert.deepEqual(answer.tools, ["bystander_tool", "list_server_toolsets"]);
      assert.deepEqual(
        logsWithCode(records, code).map((r) => ({ level: r.level, message: r.message, extension: r.data?.extension })),
        [{ level: "error", message, extension: "fragile" }],
      );
      await assertBystanderServes();
    };
  }

  it("quarantines an extension whose setup throws (EXTENSION_SETUP_FAILED) and serves the others", async () => {
    let afterFailure: ExtensionContext | undefined;
    ({ host, records } = await startedHost([
      {
        name: "fragile",
        toolsets: [{ name: "fragile", title: "Fragile", default: false }],
        tools: [textTool("fragile_tool")],
        setup: (ctx) => {
          afterFailure = ctx;
          throw new Error("cannot reach the database");
        },
      },
      bystander,
    ]));
    await assertQuarantined("EXTENSION_SETUP_FAILED", "[extension fragile] setup threw; the extension is quarantined: cannot reach the database")();
    // A quarantined extension's later offer changes are ignored.
    const revision = host!.revision;
    afterFailure!.addTool(textTool("sneaky"));
    assert.equal(host!.revision, revision);
    assert.deepEqual((await build(host!, "fragile")).toolNames, ["bystander_tool", "list_server_toolsets"]);
  });

  it("quarantines an extension whose setup hangs past setupTimeoutMs (EXTENSION_SETUP_TIMEOUT) and serves the others", async () => {
    // On the host's clock, which setup's ctx.clock is: a minute's budget takes no real time, and does not end early.
    const clock = new ManualClock();
    let context: ExtensionContext | undefined;
    const logged = memoryLogger();
    records = logged.records;
    host = buildHost(
      [
        {
          name: "fragile",
          toolsets: [{ name: "fragile", title: "Fragile", default: false }],
          tools: [textTool("fragile_tool")],
          setup: (ctx) => {
            context = ctx;
            return new Promise<void>((resolve) => ctx.signal.addEventListener("abort", () => resolve()));
          },
        },
        bystander,
      ],
      { name: "test-host", logger: logged.logger, clock, setupTimeoutMs: 60_000 },
    );
    let started = false;
    const starting = host.start().then(() => (started = true));
    await clock.waitForTimers(1); // the setup's budget has started
    await clock.advance(59_999);
    assert.equal(started, false, "setup still has a millisecond");
    assert.equal(context?.clock, clock, "the extension reads the host's clock");
    await clock.advance(1);
    await starting;
    await assertQuarantined(
      "EXTENSION_SETUP_TIMEOUT",
      "[extension fragile] setup did not finish within 60000 ms; the extension is quarantined (raise setupTimeoutMs if it needs longer)",
    )();
  });
});

describe("dispose", () => {
  it("runs every dispose in reverse load order even when some throw, and rejects with one AggregateError", async () => {
    const order: string[] = [];
    const disposer = (name: string, fails: boolean): McpExtension => ({
      name,
      tools: [textTool(`${name}_tool`)],
      dispose: async () => {
        order.push(name);
        if (fails) throw new Error(`${name} could not close`);
      },
    });
    ({ host, records } = await startedHost([disposer("b", true), disposer("d", true), disposer("a", false), disposer("c", false)]));
    const stopping = host.stop();
    const error = await stopping.then(
      () => assert.fail("stop() should have rejected"),
      (e: unknown) => e,
    );
    assert.deepEqual(order, ["d", "c", "b", "a"]);
    assert.ok(error instanceof AggregateError);
    assert.equal(error.message, "2 extension(s) failed to dispose: d (d could not close), b (b could not close)");
    assert.deepEqual(
      (error.errors as McpHostError[]).map((e) => ({ code: e.code, extension: e.extension, message: e.message, cause: (e.cause as Error).message })),
      [
        { code: "EXTENSION_DISPOSE_FAILED", extension: "d", message: "[extension d] dispose threw: d could not close", cause: "d could not close" },
        { code: "EXTENSION_DISPOSE_FAILED", extension: "b", message: "[extension b] dispose threw: b could not close", cause: "b could not close" },
      ],
    );
    host = undefined;
  });

  it("does not dispose an extension that was never set up", async () => {
    const disposed: string[] = [];
    ({ host } = await startedHost([
      { name: "dormant", activation: "onToolset", toolsets: [{ name: "dormant", default: false }], dispose: () => void disposed.push("dormant") },
      { name: "fine", dispose: () => void disposed.push("fine") },
    ]));
    await host.stop();
    assert.deepEqual(disposed, ["fine"]);
    host = undefined;
  });
});

describe("using the host outside start..stop", () => {
  it("refuses a second start() with ALREADY_STARTED", async () => {
    ({ host } = await startedHost([bystander]));
    await assert.rejects(host.start(), (e: unknown) => {
      assert.ok(isMcpHostError(e, "ALREADY_STARTED"));
      assert.equal(e.message, 'host "test-host" is already started; make a new host with buildHost() to start again');
      return true;
    });
    await assertBystanderServes();
  });

  it("refuses build() before start() and after stop() with HOST_NOT_STARTED", async () => {
    const { buildHost } = await import("../../../src/host/build-host.js");
    const fresh = buildHost([bystander], { name: "test-host" });
    await assert.rejects(fresh.build(parseSelection("")), (e: unknown) => {
      assert.ok(isMcpHostError(e, "HOST_NOT_STARTED"));
      assert.equal(e.message, 'host "test-host" is not started; call start() first');
      return true;
    });
    await fresh.start();
    assert.deepEqual((await fresh.build(parseSelection(""))).toolNames, ["bystander_tool", "list_server_toolsets"]);
    await fresh.stop();
    await assert.rejects(fresh.build(parseSelection("")), (e: unknown) => {
      assert.ok(isMcpHostError(e, "HOST_NOT_STARTED"));
      assert.equal(e.message, 'host "test-host" is stopped; call start() first');
      return true;
    });
  });
});
