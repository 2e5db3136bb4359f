// The isolation contract (docs/design.md §16): what the shape check refuses, and how a worker finds a handler — an
// extension passed in code names its module; a discovered one gets its entry file unless a factory made it; a
// module that does not export the extension gives an isError result that says so. Fixtures: packages/isolation.
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { realpathSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { isMcpHostError } from "../../../src/errors.js";
import { validateExtension } from "../../../src/extension/validate.js";
import { loadExtensions } from "../../../src/host/loading/load-extensions.js";
import { memoryLogger } from "../../../src/logger.js";
import { callError, logsWithCode } from "../../helpers/kit.js";
import { Cleanup, callText, connectV2, serveHost } from "../../helpers/http-host.js";

const PACKAGES = realpathSync(fileURLToPath(new URL("../../fixtures/packages/isolation/", import.meta.url)));
const SOURCE = "buildHost() argument #0";
const handler = () => ({ content: [] });

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

function problems(value: unknown): string {
  try {
    validateExtension(value, SOURCE);
  } catch (error) {
    assert.ok(isMcpHostError(error, "EXTENSION_INVALID"), String(error));
    return error.message;
  }
  assert.fail("validateExtension accepted it");
}

describe("the isolation shape check", () => {
  it("accepts an extension that names its module, with limits, and tools that opt out or refine", () => {
    const extension = {
      name: "ok",
      isolation: { module: import.meta.url, heapMb: 128, cpuMs: 500, poolSize: 3 },
      tools: [
        { name: "a", handler, isolation: "none" },
        { name: "b", handler, isolation: { cpuMs: 5000, heapMb: 512 } },
      ],
    };
    assert.equal(validateExtension(extension, SOURCE), extension);
  });

  it('refuses "worker" from code, which names no module a worker could import', () => {
    assert.equal(
      problems({ name: "x", isolation: "worker", tools: [{ name: "a", handler }] }),
      `${SOURCE}: extension "x" has a problem: isolation is "worker" but names no module; write isolation: { module: import.meta.url } so a worker can import it.`,
    );
  });

  it("names every wrong setting at once: unknown keys, limits out of range, a relative module", () => {
    assert.equal(
      problems({ name: "x", isolation: { module: "./ext.js", heapMB: 64, cpuMs: 0, poolSize: 1.5 } }),
      `${SOURCE}: extension "x" has 4 problems: isolation.heapMB is not an isolation setting (got the number 64); the settings are module, heapMb, cpuMs, poolSize; ` +
        "isolation.cpuMs must be a whole number from 10 to 3600000 (got the number 0); isolation.poolSize must be a whole number from 1 to 64 (got the number 1.5); " +
        'isolation.module must be a file: URL or an absolute path (got the string "./ext.js"); write module: import.meta.url.',
    );
  });

  it("refuses a tool asking for isolation its extension does not have, and a tool setting that is neither", () => {
    assert.equal(
      problems({ name: "x", tools: [{ name: "a", handler, isolation: { cpuMs: 100 } }] }),
      `${SOURCE}: extension "x" has a problem: tools[0] ("a"): asks for isolation, but the extension has none; put isolation on the extension (isolation: { module: import.meta.url }) and isolation: "none" on the tools that stay on the main thread.`,
    );
    assert.equal(
      problems({ name: "x", isolation: { module: import.meta.url }, tools: [{ name: "a", handler, isolation: "worker" }] }),
      `${SOURCE}: extension "x" has a problem: tools[0] ("a"): isolation must be "none" or an object like { cpuMs: 5000 } (got the string "worker").`,
    );
  });
});

describe("how a worker finds an isolated handler", () => {
  async function loaded() {
    const { logger } = memoryLogger();
    return loadExtensions({ cwd: PACKAGES, logger });
  }

  it("a discovered extension that names no module gets its entry file, and its tool runs in a worker", async () => {
    const result = await loaded();
    const entry = result.extensions.find((e) => e.extension.name === "entry-isolated")!;
    assert.deepEqual(entry.extension.isolation, {
      module: pathToFileURL(join(PACKAGES, "node_modules", "fixture-isolated-entry", "ext.js")).href,
    });
    const served = await serveHost(
      cleanup,
      result.extensions.map((e) => e.extension),
    );
    const { client } = await connectV2(cleanup, served.at("only=entry-isolated"), "modern");
    assert.deepEqual(JSON.parse(await callText(client, "where")), { isMainThread: false });
  });

  it("a factory's extension gets no module (a worker could not call the factory again), so the shape check refuses it", async () => {
    const result = await loaded();
    assert.deepEqual(
      result.failures.map((f) => [f.name, f.error.code, f.error.message]),
      [
        [
          "factory-isolated",
          "EXTENSION_INVALID",
          'package "fixture-isolated-factory" (./ext.js), default export (factory result): extension "factory-isolated" has a problem: isolation is "worker" but names no module; write isolation: { module: import.meta.url } so a worker can import it.',
        ],
      ],
    );
  });

  it("a module that does not export the extension gives an isError result saying what to fix", async () => {
    const result = await loaded();
    const misnamed = result.extensions.find((e) => e.extension.name === "misnamed")!;
    const served = await serveHost(cleanup, [misnamed.extension]);
    const { client } = await connectV2(cleanup, served.at("only=misnamed"), "legacy");
    const other = pathToFileURL(join(PACKAGES, "node_modules", "fixture-isolated-misnamed", "other.js")).href;
    const message = `tool "lost" could not run in a worker: ${other} exports no extension named "misnamed"; isolation.module must be the module whose export is this extension`;
    assert.equal(await callError(client, "lost"), message);
    assert.deepEqual(
      logsWithCode(served.records, "TOOL_ISOLATION_FAILED").map((r) => r.message),
      [`[extension misnamed] ${message}`],
    );
  });
});
