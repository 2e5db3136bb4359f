// buildHost takes what loading gives, in either form, or extension objects — and refuses anything else with a
// coded error that says what it got and what it expects (docs/design.md §5), never a raw TypeError or a host that
// quarantines every extension.
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { isMcpHostError } from "../../src/errors.js";
import { buildHost } from "../../src/host/build-host.js";
import type { McpHost } from "../../src/host/host.js";
import { loadExtensions } from "../../src/host/loading/load-extensions.js";
import { memoryLogger } from "../../src/logger.js";
import { systemClock } from "../../src/clock.js";
import { build, textTool } from "../helpers/kit.js";
import { ManualClock } from "../helpers/manual-clock.js";

const PROJECT = realpathSync(fileURLToPath(new URL("../fixtures/packages/root-string/", import.meta.url)));

let host: McpHost | undefined;
afterEach(async () => {
  await host?.stop();
  host = undefined;
});

function refusedWith(input: unknown, ...rest: [options?: unknown]): string {
  const options = rest.length === 0 ? { name: "x" } : rest[0];
  try {
    buildHost(input as never, options as never);
  } catch (error) {
    assert.ok(isMcpHostError(error, "HOST_INPUT_INVALID"), String(error));
    return error.message;
  }
  assert.fail("expected HOST_INPUT_INVALID");
}

describe("buildHost input", () => {
  it("serves the same extensions from loadExtensions' result, its .extensions entries, and the extension objects", async () => {
    const loaded = await loadExtensions({ cwd: PROJECT, logger: memoryLogger().logger });
    assert.deepEqual(
      loaded.extensions.map((e) => e.extension.name),
      ["alpha"],
      "the fixture project declares one extension",
    );
    const names: string[][] = [];
    for (const input of [loaded, loaded.extensions, loaded.extensions.map((e) => e.extension)]) {
      host = buildHost(input, { name: "shapes", logger: memoryLogger().logger });
      await host.start();
      assert.deepEqual(
        host.extensionStatuses().filter((e) => e.status === "failed"),
        [],
      );
      names.push([...(await build(host, "")).toolNames]);
      await host.stop();
      host = undefined;
    }
    assert.deepEqual(names[1], names[0]);
    assert.deepEqual(names[2], names[0]);
  });

  it("keeps each entry's source for its messages", async () => {
    const loaded = await loadExtensions({ cwd: PROJECT, logger: memoryLogger().logger });
    const twin = { ...loaded.extensions[0]!, source: 'package "twin" (./x.js)' };
    host = buildHost([loaded.extensions[0]!, twin], { name: "sources", logger: memoryLogger().logger });
    const failed = host.extensionStatuses().find((e) => e.status === "failed");
    assert.equal(failed?.code, "EXTENSION_NAME_TAKEN");
    assert.equal(failed?.source, 'package "twin" (./x.js)');
  });

  it("refuses undefined, a single extension, a string or an object of the wrong shape, saying what it got", () => {
    const expects =
      'it expects an array of extension objects, the result of loadExtensions(), or that result\'s .extensions entries. Example: buildHost(await loadExtensions({ cwd }), { name: "my-server" }).';
    assert.equal(refusedWith(undefined), `buildHost() was given undefined; ${expects}`);
    assert.equal(refusedWith({ name: "solo", tools: [textTool("t")] }), `buildHost() was given an object; ${expects}`);
    assert.equal(refusedWith("time"), `buildHost() was given the string "time"; ${expects}`);
    assert.equal(refusedWith({ extensions: [] }), `buildHost() was given an object; ${expects}`);
  });

  it("refuses options without a name", () => {
    assert.equal(
      refusedWith([], undefined),
      'buildHost() options must be an object with at least a name, got undefined; e.g. buildHost(extensions, { name: "my-server" }).',
    );
    assert.equal(
      refusedWith([], { name: "" }),
      'buildHost() options.name must be the server name clients see, got an empty string; e.g. { name: "my-server" }.',
    );
  });

  it("refuses a clock that is not one, naming what is missing, and takes a manual one as the host's clock", () => {
    const advice = "leave it out for the system clock, or pass createManualClock() from mcp-host/testing.";
    assert.equal(
      refusedWith([], { name: "x", clock: Date }),
      `buildHost() options.clock must be a clock with now(), setTimeout() and setInterval(), got a function; ${advice}`,
    );
    assert.equal(
      refusedWith([], { name: "x", clock: { now: () => 0 } }),
      `buildHost() options.clock must be a clock with now(), setTimeout() and setInterval(), got an object without setTimeout(), setInterval(); ${advice}`,
    );
    const clock = new ManualClock();
    host = buildHost([], { name: "x", clock });
    assert.equal(host.clock, clock);
    assert.equal(buildHost([], { name: "y" }).clock, systemClock);
  });
});
