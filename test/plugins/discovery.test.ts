// Discovery finds the first-party plugins the way a deployment would: through the root package's workspaces and
// each plugin's own `mcpExtensions` field (name → built module, so names are known before anything is imported),
// loading their dist/ modules (the time and units factories are called with their options, the text object taken
// as it is). The loaded extensions then serve together: the text plugin's tool
// extension reaches the time plugin's tool across packages, and units wakes when named.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { buildHost } from "../../src/host/build-host.js";
import { loadExtensions } from "../../src/host/loading/load-extensions.js";
import { memoryLogger } from "../../src/logger.js";
import { callStructured, listedNames, withClient } from "../helpers/plugin-kit.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const PLUGINS = [
  ["text", "@mcp-host/plugin-text"],
  ["time", "@mcp-host/plugin-time"],
  ["units", "@mcp-host/plugin-units"],
] as const;

describe("first-party plugins are found by discovery", () => {
  it("each plugin's package.json names its built module in mcpExtensions, and the build produced it", () => {
    for (const [name, packageName] of PLUGINS) {
      const manifest = JSON.parse(readFileSync(`${root}plugins/${name}/package.json`, "utf8")) as Record<string, unknown>;
      assert.deepEqual(
        [manifest.name, manifest.type, manifest.mcpExtensions, manifest.main],
        [packageName, "module", { [name]: "./dist/index.js" }, "./dist/index.js"],
      );
      assert.ok(existsSync(`${root}plugins/${name}/dist/index.js`), `plugins/${name}/dist/index.js is missing: run npm run build`);
    }
  });

  it("loadExtensions({ cwd: <repo root> }) returns them by name, from their packages' dist modules", async () => {
    const { logger } = memoryLogger();
    const result = await loadExtensions({ cwd: root, logger });
    const mine = result.extensions.filter((loaded) => PLUGINS.some(([, packageName]) => packageName === loaded.packageName));
    assert.deepEqual(
      mine.map((loaded) => [loaded.extension.name, loaded.packageName, loaded.packageVersion, loaded.source]),
      PLUGINS.map(([name, packageName]) => [name, packageName, "0.1.0", `package "${packageName}" (${name}: ./dist/index.js)`]),
    );
    assert.deepEqual(
      result.failures.filter((failure) => PLUGINS.some(([name, packageName]) => failure.source.includes(packageName) || failure.name === name)),
      [],
    );
  });

  it("the loaded plugins serve together: cross-package tool extension, onServer note, units woken by name", async () => {
    const { logger, records } = memoryLogger();
    const loaded = await loadExtensions({ cwd: root, names: PLUGINS.map(([name]) => name), options: { time: { defaultZone: "Europe/Berlin" } }, logger });
    assert.deepEqual(
      loaded.extensions.map((e) => e.extension.name),
      ["text", "time", "units"],
    );
    const host = buildHost(loaded, { name: "plugins", logger });
    await host.start();
    try {
      await withClient(host, "time&text&units", "legacy", async (client) => {
        assert.deepEqual((await listedNames(client)).tools, [
          "add_duration",
          "change_case",
          "convert_time",
          "convert_units",
          "current_time",
          "diff_lines",
          "list_server_toolsets",
          "list_units",
          "regex_test",
          "slugify",
          "text_stats",
          "time_between",
        ]);
        const converted = await callStructured(client, "convert_time", {
          time: "9:15 am",
          source_timezone: "America/Chicago",
          target_timezones: ["Europe/Berlin"],
          date: "2025-07-01",
        });
        assert.equal((converted.targets as Array<{ time: string }>)[0]!.time, "16:15:00");
        assert.equal((await callStructured(client, "current_time", {})).timezone, "Europe/Berlin");
        assert.match(client.getInstructions() ?? "", /This server's default time zone is Europe\/Berlin\./);
        assert.equal((await callStructured(client, "convert_units", { value: 2, from: "TiB", to: "TB" })).text, "2 TiB = 2.19902325555 TB");
      });
      assert.equal(records.filter((r) => r.message === "conversion tables built").length, 1);
    } finally {
      await host.stop();
    }
  });
});
