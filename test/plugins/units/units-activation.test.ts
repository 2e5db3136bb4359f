// The units plugin is `activation: "onToolset"`: its toolset is declared (and visible) from the start, but its
// setup — which builds the conversion tables and logs through ctx.logger — runs only when a selection names
// `units`, exactly once, and its options (precision) come from the host's extension options at that moment.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import textExtension from "../../../plugins/text/src/index.js";
import { createUnitsExtension } from "../../../plugins/units/src/index.js";
import { parseSelection } from "../../../src/host/selection.js";
import type { LogRecord } from "../../../src/logger.js";
import { build } from "../../helpers/kit.js";
import { callStructured, listedNames, pluginHost, withClient } from "../../helpers/plugin-kit.js";

const setupLines = (records: readonly LogRecord[]) => records.filter((r) => r.message === "conversion tables built");

describe("units: set up only when a selection names its toolset", () => {
  it("declares its toolset up front, off by default, while the extension stays dormant", async () => {
    const { host, records } = await pluginHost([createUnitsExtension(), textExtension]);
    const { instructions, ...declared } = host.declaredToolsets().find((t) => t.name === "units")!;
    assert.match(instructions ?? "", /^Use convert_units for any unit conversion/);
    assert.deepEqual(declared, {
      name: "units",
      title: "Unit conversion",
      description: "Convert between units of length, area, volume, mass, temperature, speed and data size (SI and IEC). Off unless a URL names it.",
      default: false,
      always: false,
      extensions: ["units"],
    });
    assert.equal(host.extensionStatuses().find((e) => e.name === "units")?.status, "dormant");
    for (const query of ["", "only=text", "text", "without=units"]) {
      const built = await build(host, query);
      assert.deepEqual(built.toolsets, ["text"], `?${query}`);
    }
    const offer = await host.describe(parseSelection(""));
    assert.deepEqual(
      offer.toolsets.map((t) => [t.name, t.active]),
      [
        ["text", true],
        ["units", false],
      ],
    );
    assert.deepEqual(setupLines(records), []);
    assert.equal(host.extensionStatuses().find((e) => e.name === "units")?.status, "dormant");
  });

  it("wakes on ?units: setup builds the tables once, logs through its own logger, and the tools are served", async () => {
    const { host, records } = await pluginHost([createUnitsExtension(), textExtension]);
    await withClient(host, "units", "legacy", async (client) => {
      assert.deepEqual((await listedNames(client)).tools, [
        "change_case",
        "convert_units",
        "diff_lines",
        "list_server_toolsets",
        "list_units",
        "regex_test",
        "slugify",
        "text_stats",
      ]);
      assert.deepEqual(await callStructured(client, "convert_units", { value: 5, from: "km", to: "mi" }), {
        category: "length",
        value: 5,
        from: { symbol: "km", name: "kilometre" },
        to: { symbol: "mi", name: "mile" },
        result: 3.10685596119,
        text: "5 km = 3.10685596119 mi",
      });
    });
    await withClient(host, "only=units", "modern", async (client) => {
      assert.deepEqual((await listedNames(client)).tools, ["convert_units", "list_server_toolsets", "list_units"]);
      assert.match(client.getInstructions() ?? "", /^## Unit conversion\n\nUse convert_units for any unit conversion/);
    });
    const lines = setupLines(records);
    assert.equal(lines.length, 1, "setup ran exactly once");
    assert.deepEqual(
      [lines[0]!.level, lines[0]!.prefix.at(-1), lines[0]!.data],
      ["info", "units", { categories: 7, units: 73, spellings: 324, precision: 12 }],
    );
    assert.equal(host.extensionStatuses().find((e) => e.name === "units")?.status, "ready");
  });

  it("takes its precision from the host's extension options when it wakes", async () => {
    const { host } = await pluginHost([createUnitsExtension()], { extensionOptions: { units: { precision: 4 } } });
    await withClient(host, "only=units", "legacy", async (client) => {
      assert.equal((await callStructured(client, "convert_units", { value: 5, from: "km", to: "mi" })).text, "5 km = 3.107 mi");
    });
  });

  it("a bad precision option fails the extension when it wakes, naming the option; other toolsets serve on", async () => {
    const { host } = await pluginHost([createUnitsExtension(), textExtension], { extensionOptions: { units: { precision: 40 } } });
    const offer = await host.describe(parseSelection("units"));
    const units = offer.extensions.find((e) => e.name === "units");
    assert.equal(units?.status, "failed");
    assert.match(units?.error ?? "", /option "precision" must be a whole number from 1 to 17, got 40/);
    assert.deepEqual(offer.tools, ["change_case", "diff_lines", "list_server_toolsets", "regex_test", "slugify", "text_stats"]);
  });
});
