/**
 * `convert_time`: a wall-clock time in one zone, shown in others (JSON Schema input). The source time is strict
 * 24-hour HH:MM[:SS]; other extensions may widen that with a tool extension (the text plugin accepts "9am").
 */
import { defineTool, errorResult, jsonResult } from "mcp-host";
import { z } from "zod";
import { dayIndex, formatOffset, offsetMinutes, resolveWall, wallAt, type CivilDate } from "./clock.js";
import { adjustmentNote, momentIn, momentSchema } from "./moment.js";
import { parseClock, parseDate } from "./parse.js";
import { resolveZone } from "./zones.js";
import { pureAnnotations } from "./annotations.js";

export const convertTimeInput = {
  type: "object",
  properties: {
    time: { type: "string", description: 'Clock time in the source zone, 24-hour "HH:MM" or "HH:MM:SS", e.g. "14:30"' },
    source_timezone: { type: "string", description: 'IANA zone the time is in, e.g. "Europe/London"' },
    target_timezones: {
      type: "array",
      items: { type: "string" },
      minItems: 1,
      maxItems: 24,
      description: 'IANA zones to show the time in, e.g. ["America/New_York", "Asia/Tokyo"]',
    },
    date: { type: "string", description: "YYYY-MM-DD in the source zone; default: today there. It matters around DST changes." },
  },
  required: ["time", "source_timezone", "target_timezones"],
  additionalProperties: false,
} as const;

export const convertTimeOutput = z.object({
  utc: z.string().describe("the instant in UTC, ISO 8601"),
  source: momentSchema,
  targets: z.array(
    momentSchema.extend({
      day_shift: z.number().int().describe("calendar days after (+) or before (-) the source date"),
      offset_from_source: z.string().describe('how far ahead of the source zone, e.g. "+05:30"'),
    }),
  ),
  notes: z.array(z.string()).describe("DST adjustments made to the source time, if any"),
});

interface ConvertArgs {
  time: string;
  source_timezone: string;
  target_timezones: string[];
  date?: string;
}

export function convertTimeTool() {
  return defineTool({
    name: "convert_time",
    title: "Convert time between zones",
    description:
      "Converts a wall-clock time on a given date from one IANA time zone to one or more others, with each zone's date, weekday, UTC offset " +
      'and how far ahead of the source it is. Use it for "what time is 14:30 in London in Tokyo?".',
    inputSchema: convertTimeInput,
    outputSchema: convertTimeOutput,
    annotations: { ...pureAnnotations, title: "Convert time between zones" },
    handler: (raw) => {
      const args = raw as unknown as ConvertArgs;
      const source = resolveZone(args.source_timezone);
      if (!source.ok) return errorResult(`source_timezone: ${source.message}`);
      const targets: string[] = [];
      for (const name of args.target_timezones) {
        const target = resolveZone(name);
        if (!target.ok) return errorResult(`target_timezones: ${target.message}`);
        targets.push(target.zone);
      }
      const clock = parseClock(args.time);
      if (!clock.ok) return errorResult(clock.message);
      const date = args.date === undefined ? { ok: true as const, value: todayIn(source.zone) } : parseDate(args.date);
      if (!date.ok) return errorResult(date.message);
      const resolved = resolveWall(source.zone, { ...date.value, ...clock.value });
      const at = resolved.epochMs;
      const from = momentIn(source.zone, at);
      const note = adjustmentNote(source.zone, `${args.date ?? from.date} ${args.time}`, resolved.adjustment, at);
      return jsonResult({
        utc: new Date(at).toISOString(),
        source: from,
        targets: targets.map((zone) => {
          const moment = momentIn(zone, at);
          return {
            ...moment,
            day_shift: dayIndex(wallAt(zone, at)) - dayIndex(wallAt(source.zone, at)),
            offset_from_source: formatOffset(offsetMinutes(zone, at) - offsetMinutes(source.zone, at)),
          };
        }),
        notes: note === undefined ? [] : [note],
      });
    },
  });
}

function todayIn(zone: string): CivilDate {
  const { year, month, day } = wallAt(zone, Date.now());
  return { year, month, day };
}
