// The text plugin's tool extension on the time plugin's convert_time: with both installed, convert_time reads
// "2:30 pm", "noon" or "21h30" and says so in its description — on every selection that serves convert_time, since
// a tool extension changes the tool wherever it is offered. Without the text plugin the time tool stays strict;
// without the time plugin the extension does nothing and costs nothing.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { createTimeExtension } from "../../../plugins/time/src/index.js";
import textExtension, { normaliseClock } from "../../../plugins/text/src/index.js";
import { callError } from "../../helpers/kit.js";
import { callStructured, listedNames, pluginHost, withClient } from "../../helpers/plugin-kit.js";

const convert = (time: string) => ({ time, source_timezone: "Europe/London", target_timezones: ["Asia/Tokyo"], date: "2025-01-10" });

describe("normaliseClock", () => {
  const cases: Array<[string, string]> = [
    ["9am", "09:00"],
    ["9:30 pm", "21:30"],
    ["9.30 p.m.", "21:30"],
    ["12am", "00:00"],
    ["12 PM", "12:00"],
    ["2:30:15 pm", "14:30:15"],
    ["noon", "12:00"],
    ["Midnight", "00:00"],
    ["21h30", "21:30"],
    ["9h", "09:00"],
    ["0930", "09:30"],
    ["9:05", "09:05"],
    ["14:30", "14:30"],
    ["13pm", "13pm"],
    ["25:00", "25:00"],
    ["teatime", "teatime"],
  ];
  for (const [written, normalised] of cases) {
    it(`reads ${JSON.stringify(written)} as ${JSON.stringify(normalised)}`, () => {
      assert.equal(normaliseClock(written), normalised);
    });
  }
});

for (const era of ["legacy", "modern"] as const) {
  describe(`convert_time extended by the text plugin (${era} era)`, () => {
    it("accepts 12-hour and spoken times, in a selection of both toolsets and of time alone", async () => {
      const { host, records } = await pluginHost([createTimeExtension(), textExtension]);
      for (const query of ["time,text", "only=time"]) {
        await withClient(host, query, era, async (client) => {
          const afternoon = await callStructured(client, "convert_time", convert("2:30 pm"));
          assert.deepEqual([(afternoon.source as { time: string }).time, (afternoon.targets as Array<{ time: string }>)[0]!.time], ["14:30:00", "23:30:00"]);
          const noon = await callStructured(client, "convert_time", convert("noon"));
          assert.equal((noon.source as { time: string }).time, "12:00:00");
          assert.equal(
            await callError(client, "convert_time", convert("teatime")),
            'time "teatime" is not a 24-hour clock time; write it as HH:MM or HH:MM:SS (for example "09:30" or "17:45:00")',
          );
        });
      }
      assert.deepEqual(
        records.filter((r) => r.level === "warn" || r.level === "error"),
        [],
      );
    });

    it("describes the wider input in convert_time's description, keeping its schema and annotations", async () => {
      const { host } = await pluginHost([createTimeExtension(), textExtension]);
      const { host: plain } = await pluginHost([createTimeExtension()]);
      const toolOf = (h: typeof host) =>
        withClient(h, "only=time", era, async (client) => (await client.listTools()).tools.find((tool) => tool.name === "convert_time")!);
      const extended = await toolOf(host);
      const original = await toolOf(plain);
      assert.match(extended.description ?? "", /`time` may be 24-hour \("14:30"\) or written as people do: "2:30 pm", "9am", "noon", "midnight", "21h30"\.$/);
      assert.doesNotMatch(original.description ?? "", /2:30 pm/);
      assert.deepEqual(
        [extended.inputSchema, extended.outputSchema, extended.annotations],
        [original.inputSchema, original.outputSchema, original.annotations],
      );
    });
  });
}

describe("each plugin alone", () => {
  it("time without text keeps convert_time strict", async () => {
    const { host } = await pluginHost([createTimeExtension()]);
    await withClient(host, "only=time", "legacy", async (client) => {
      assert.match(await callError(client, "convert_time", convert("2:30 pm")), /^time "2:30 pm" is not a 24-hour clock time/);
    });
  });

  it("text without time serves its own tools and nothing else, with no warning about the missing tool", async () => {
    const { host, records } = await pluginHost([textExtension]);
    await withClient(host, "", "legacy", async (client) => {
      assert.deepEqual((await listedNames(client)).tools, ["change_case", "diff_lines", "list_server_toolsets", "regex_test", "slugify", "text_stats"]);
    });
    assert.deepEqual(
      records.filter((r) => r.level === "warn" || r.level === "error"),
      [],
    );
  });
});
