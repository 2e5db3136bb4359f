// The time plugin's tools through a real host and a real SDK client, in both protocol eras: what is listed
// (names, input schemas in both forms, output schemas, annotations), exact results for fixed dates — DST gaps and
// overlaps, month-end clamping, calendar vs elapsed time — and the isError answers that tell a model what to fix.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { convertTimeInput } from "../../../plugins/time/src/convert-time.js";
import { addDurationInput } from "../../../plugins/time/src/add-duration.js";
import { createTimeExtension } from "../../../plugins/time/src/index.js";
import { callError } from "../../helpers/kit.js";
import { callStructured, listedNames, pluginHost, withClient } from "../../helpers/plugin-kit.js";

const TIME_TOOLS = ["add_duration", "convert_time", "current_time", "list_server_toolsets", "time_between"];

for (const era of ["legacy", "modern"] as const) {
  describe(`time tools (${era} era)`, () => {
    const session = async <T>(body: Parameters<typeof withClient<T>>[3], options = {}) => {
      const { host } = await pluginHost([createTimeExtension(options)]);
      return withClient(host, "only=time", era, body);
    };

    it("lists its four tools with zod-derived and JSON Schema inputs, output schemas and read-only annotations", async () => {
      await session(async (client) => {
        assert.deepEqual((await listedNames(client)).tools, TIME_TOOLS);
        const tools = new Map((await client.listTools()).tools.map((tool) => [tool.name, tool]));
        assert.deepEqual(tools.get("convert_time")!.inputSchema, convertTimeInput);
        assert.deepEqual(tools.get("add_duration")!.inputSchema, addDurationInput);
        const current = tools.get("current_time")!.inputSchema as { type: string; properties: Record<string, { type: string }>; required?: string[] };
        assert.equal(current.type, "object");
        assert.deepEqual(Object.keys(current.properties), ["timezone"]);
        assert.equal(current.properties.timezone!.type, "string");
        assert.equal(current.required, undefined);
        const between = tools.get("time_between")!.inputSchema as { required: string[] };
        assert.deepEqual(between.required, ["start", "end"]);
        for (const name of ["add_duration", "convert_time", "current_time", "time_between"]) {
          const tool = tools.get(name)!;
          assert.equal((tool.outputSchema as { type?: string } | undefined)?.type, "object", `${name} output schema`);
          assert.deepEqual(
            { readOnlyHint: tool.annotations?.readOnlyHint, idempotentHint: tool.annotations?.idempotentHint, openWorldHint: tool.annotations?.openWorldHint },
            { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
            `${name} annotations`,
          );
          assert.ok((tool.description ?? "").length > 40, `${name} has a real description`);
        }
      });
    });

    it("convert_time shows one wall time in several zones, with day shifts and offsets from the source", async () => {
      await session(async (client) => {
        const result = await callStructured(client, "convert_time", {
          time: "18:30",
          source_timezone: "America/Los_Angeles",
          target_timezones: ["Asia/Tokyo", "Europe/London", "Asia/Kolkata"],
          date: "2025-03-14",
        });
        assert.deepEqual(result, {
          utc: "2025-03-15T01:30:00.000Z",
          source: {
            timezone: "America/Los_Angeles",
            iso: "2025-03-14T18:30:00-07:00",
            date: "2025-03-14",
            time: "18:30:00",
            weekday: "Friday",
            utc_offset: "-07:00",
            abbreviation: "PDT",
            is_dst: true,
          },
          targets: [
            {
              timezone: "Asia/Tokyo",
              iso: "2025-03-15T10:30:00+09:00",
              date: "2025-03-15",
              time: "10:30:00",
              weekday: "Saturday",
              utc_offset: "+09:00",
              abbreviation: "GMT+9",
              is_dst: false,
              day_shift: 1,
              offset_from_source: "+16:00",
            },
            {
              timezone: "Europe/London",
              iso: "2025-03-15T01:30:00+00:00",
              date: "2025-03-15",
              time: "01:30:00",
              weekday: "Saturday",
              utc_offset: "+00:00",
              abbreviation: "GMT",
              is_dst: false,
              day_shift: 1,
              offset_from_source: "+07:00",
            },
            {
              timezone: "Asia/Kolkata",
              iso: "2025-03-15T07:00:00+05:30",
              date: "2025-03-15",
              time: "07:00:00",
              weekday: "Saturday",
              utc_offset: "+05:30",
              abbreviation: "IST",
              is_dst: false,
              day_shift: 1,
              offset_from_source: "+12:30",
            },
          ],
          notes: [],
        });
      });
    });

    it("convert_time moves a time skipped by the spring-forward jump and says so; a repeated time takes the first", async () => {
      await session(async (client) => {
        const skipped = await callStructured(client, "convert_time", {
          time: "02:30",
          source_timezone: "America/New_York",
          target_timezones: ["UTC"],
          date: "2024-03-10",
        });
        assert.equal((skipped.source as { iso: string }).iso, "2024-03-10T03:30:00-04:00");
        assert.deepEqual(skipped.notes, [
          "2024-03-10 02:30 does not exist in America/New_York (clocks jump forward there); read as 2024-03-10 03:30:00 (UTC-04:00)",
        ]);
        const repeated = await callStructured(client, "convert_time", {
          time: "01:30",
          source_timezone: "America/New_York",
          target_timezones: ["UTC"],
          date: "2024-11-03",
        });
        assert.equal(repeated.utc, "2024-11-03T05:30:00.000Z");
        assert.deepEqual(repeated.notes, ["2024-11-03 01:30 happens twice in America/New_York (clocks go back there); used the first, UTC-04:00"]);
      });
    });

    it("accepts zone names in any case, retired names and bare cities, and answers with current IANA names", async () => {
      await session(async (client) => {
        const result = await callStructured(client, "convert_time", {
          time: "12:00",
          source_timezone: "utc",
          target_timezones: ["asia/calcutta", "Kiev", "Tokyo"],
          date: "2025-06-01",
        });
        assert.deepEqual(
          (result.targets as Array<{ timezone: string }>).map((target) => target.timezone),
          ["Asia/Kolkata", "Europe/Kyiv", "Asia/Tokyo"],
        );
      });
    });

    it("refuses an unknown zone, naming it, suggesting the close one and the resource that lists zones", async () => {
      await session(async (client) => {
        assert.equal(
          await callError(client, "convert_time", { time: "09:00", source_timezone: "UTC", target_timezones: ["Europe/Pariss"] }),
          'target_timezones: unknown time zone "Europe/Pariss"; did you mean "Europe/Paris"? Use an IANA name such as "America/New_York"; the resource time://zones lists every zone.',
        );
        assert.equal(
          await callError(client, "current_time", { timezone: "Mars/Olympus_Mons" }),
          'unknown time zone "Mars/Olympus_Mons". Use an IANA name such as "America/New_York"; the resource time://zones lists every zone.',
        );
      });
    });

    it("refuses a 12-hour time and an impossible date with the accepted forms", async () => {
      await session(async (client) => {
        assert.equal(
          await callError(client, "convert_time", { time: "9am", source_timezone: "UTC", target_timezones: ["Asia/Tokyo"], date: "2025-01-01" }),
          'time "9am" is not a 24-hour clock time; write it as HH:MM or HH:MM:SS (for example "09:30" or "17:45:00")',
        );
        assert.equal(
          await callError(client, "convert_time", { time: "09:00", source_timezone: "UTC", target_timezones: ["Asia/Tokyo"], date: "2025-02-29" }),
          'date "2025-02-29" does not exist',
        );
        assert.match(
          await callError(client, "convert_time", { time: "09:00", source_timezone: "UTC", target_timezones: [] }),
          /Invalid arguments for tool "convert_time"/,
        );
      });
    });

    it("time_between gives the calendar difference, elapsed totals and weekdays", async () => {
      await session(async (client) => {
        assert.deepEqual(await callStructured(client, "time_between", { start: "2024-01-31", end: "2025-03-01T12:30", timezone: "Europe/Paris" }), {
          start: "2024-01-31T00:00:00+01:00",
          end: "2025-03-01T12:30:00+01:00",
          timezone: "Europe/Paris",
          negative: false,
          calendar: { years: 1, months: 1, days: 1, hours: 12, minutes: 30, seconds: 0 },
          total_days: 395.5208,
          total_hours: 9492.5,
          total_minutes: 569550,
          total_seconds: 34173000,
          weekdays: 283,
          human: "1 year, 1 month, 1 day, 12 hours, 30 minutes",
        });
      });
    });

    it("time_between counts a calendar day across a DST change as one day of 23 hours, and reports a reversed range as negative", async () => {
      await session(async (client) => {
        const dst = await callStructured(client, "time_between", { start: "2024-03-09T12:00", end: "2024-03-10T12:00", timezone: "America/New_York" });
        assert.deepEqual([dst.calendar, dst.total_hours, dst.human], [{ years: 0, months: 0, days: 1, hours: 0, minutes: 0, seconds: 0 }, 23, "1 day"]);
        const reversed = await callStructured(client, "time_between", { start: "2025-03-14", end: "2025-03-03T00:00:00Z", timezone: "UTC" });
        assert.deepEqual([reversed.negative, reversed.total_days, reversed.weekdays, reversed.human], [true, -11, -9, "minus 11 days"]);
      });
    });

    it("add_duration clamps to the month's end, keeps the wall clock for days and counts hours as elapsed time", async () => {
      await session(async (client) => {
        const monthEnd = await callStructured(client, "add_duration", { start: "2024-01-31", duration: "P1M", timezone: "UTC" });
        assert.deepEqual(monthEnd, {
          start: "2024-01-31T00:00:00+00:00",
          duration: "P1M",
          result: {
            timezone: "UTC",
            iso: "2024-02-29T00:00:00+00:00",
            date: "2024-02-29",
            time: "00:00:00",
            weekday: "Thursday",
            utc_offset: "+00:00",
            abbreviation: "UTC",
            is_dst: false,
          },
          notes: ["day 31 does not exist in 2024-02; used the month's last day, 29"],
        });
        const day = await callStructured(client, "add_duration", { start: "2024-03-09T12:00", duration: "P1D", timezone: "America/New_York" });
        const hours = await callStructured(client, "add_duration", { start: "2024-03-09T12:00", duration: "PT24H", timezone: "America/New_York" });
        assert.deepEqual(
          [(day.result as { iso: string }).iso, (hours.result as { iso: string }).iso],
          ["2024-03-10T12:00:00-04:00", "2024-03-10T13:00:00-04:00"],
        );
        const back = await callStructured(client, "add_duration", { start: "2025-01-15T10:00:00Z", duration: "-P2W", timezone: "Asia/Tokyo" });
        assert.deepEqual([back.start, (back.result as { iso: string }).iso], ["2025-01-15T19:00:00+09:00", "2025-01-01T19:00:00+09:00"]);
      });
    });

    it("add_duration refuses a duration that is not ISO 8601, with examples", async () => {
      await session(async (client) => {
        assert.equal(
          await callError(client, "add_duration", { start: "2025-01-15", duration: "3 days", timezone: "UTC" }),
          'duration "3 days" is not an ISO 8601 duration; write it like "P1D" (1 day), "PT90M" (90 minutes), "P1Y2M" (1 year 2 months), "P2W" (2 weeks) or "-P1DT12H" (minus 1.5 days)',
        );
        assert.equal(
          await callError(client, "add_duration", { start: "15/01/2025", duration: "P1D", timezone: "UTC" }),
          'start: "15/01/2025" is not an ISO 8601 date or date-time; write it as YYYY-MM-DD, YYYY-MM-DDTHH:MM[:SS], optionally followed by Z or an offset such as +02:00',
        );
      });
    });

    it("current_time reads the clock in the zone asked for, or in the configured default zone", async () => {
      await session(
        async (client) => {
          const before = Math.floor(Date.now() / 1000) * 1000;
          const kolkata = await callStructured(client, "current_time", { timezone: "Asia/Kolkata" });
          const fallback = await callStructured(client, "current_time", {});
          const after = Date.now();
          assert.deepEqual([kolkata.timezone, kolkata.utc_offset, kolkata.abbreviation, kolkata.is_dst], ["Asia/Kolkata", "+05:30", "IST", false]);
          const at = kolkata.unix_ms as number;
          assert.ok(at >= before && at <= after, `unix_ms ${at} is between ${before} and ${after}`);
          assert.equal(Date.parse(kolkata.iso as string), at);
          assert.deepEqual([fallback.timezone, fallback.utc_offset], ["Asia/Tokyo", "+09:00"]);
        },
        { defaultZone: "Asia/Tokyo" },
      );
    });
  });
}
