/**
 * `time_between`: how far apart two dates or date-times are, both as elapsed time and as a calendar difference
 * (years, months, days… counted on the wall clock of one zone), plus the number of weekdays in between.
 */
import { defineTool, errorResult, jsonResult } from "mcp-host";
import { z } from "zod";
import { addDays, addMonths, dayIndex, isoInZone, resolveWall, wallAt, type WallTime } from "./clock.js";
import { parseInstant } from "./parse.js";
import type { TimeSettings } from "./settings.js";
import { resolveZone } from "./zones.js";
import { pureAnnotations } from "./annotations.js";

const calendarSchema = z.object({
  years: z.number().int(),
  months: z.number().int(),
  days: z.number().int(),
  hours: z.number().int(),
  minutes: z.number().int(),
  seconds: z.number(),
});

export const timeBetweenOutput = z.object({
  start: z.string().describe("ISO 8601 with offset, in the zone used"),
  end: z.string(),
  timezone: z.string().describe("the zone the calendar difference is counted in"),
  negative: z.boolean().describe("true when end is before start"),
  calendar: calendarSchema.describe("the difference on the wall clock, largest units first (always positive; see negative)"),
  total_days: z.number(),
  total_hours: z.number(),
  total_minutes: z.number(),
  total_seconds: z.number(),
  weekdays: z.number().int().describe("Monday–Friday dates from the start date up to, not including, the end date"),
  human: z.string().describe('e.g. "1 year, 2 months, 3 days"'),
});

type Calendar = z.infer<typeof calendarSchema>;

export function timeBetweenTool(settings: TimeSettings) {
  return defineTool({
    name: "time_between",
    title: "Time between two dates",
    description:
      'The difference between two dates or date-times ("2025-01-31", "2025-03-14T09:30", "2025-03-14T09:30:00Z", or "now"): elapsed days, hours, ' +
      "minutes and seconds, the calendar difference in years, months and days, and how many weekdays lie between. " +
      "Times without an offset are read in the given time zone (default: the server's zone).",
    inputSchema: z.object({
      start: z.string().describe('ISO 8601 date or date-time, or "now"'),
      end: z.string().describe('ISO 8601 date or date-time, or "now"'),
      timezone: z.string().optional().describe("IANA zone for times without an offset and for counting calendar days"),
    }),
    outputSchema: timeBetweenOutput,
    annotations: { ...pureAnnotations, title: "Time between two dates" },
    handler: ({ start, end, timezone }) => {
      const zone = resolveZone(timezone ?? settings.defaultZone);
      if (!zone.ok) return errorResult(zone.message);
      const from = parseInstant(start, zone.zone);
      if (!from.ok) return errorResult(`start: ${from.message}`);
      const to = parseInstant(end, zone.zone);
      if (!to.ok) return errorResult(`end: ${to.message}`);
      const negative = to.value.epochMs < from.value.epochMs;
      const [a, b] = negative ? [to.value.epochMs, from.value.epochMs] : [from.value.epochMs, to.value.epochMs];
      const calendar = calendarDifference(zone.zone, a, b);
      const elapsed = b - a;
      const sign = negative ? -1 : 1;
      return jsonResult({
        start: isoInZone(zone.zone, from.value.epochMs),
        end: isoInZone(zone.zone, to.value.epochMs),
        timezone: zone.zone,
        negative,
        calendar,
        total_days: round(sign * (elapsed / 86_400_000), 4),
        total_hours: round(sign * (elapsed / 3_600_000), 4),
        total_minutes: round(sign * (elapsed / 60_000), 2),
        total_seconds: sign * (elapsed / 1000),
        weekdays: sign * weekdaysBetween(wallAt(zone.zone, a), wallAt(zone.zone, b)),
        human: (negative ? "minus " : "") + humanize(calendar),
      });
    },
  });
}

/** Years, months, days, then exact time, counted from `a` to `b` (a ≤ b) on the wall clock of `zone`. */
export function calendarDifference(zone: string, a: number, b: number): Calendar {
  const start = wallAt(zone, a);
  const end = wallAt(zone, b);
  const at = (months: number, days: number): number => {
    if (months === 0 && days === 0) return a;
    const date = addDays(addMonths(start, months), days);
    return resolveWall(zone, { ...start, ...date } satisfies WallTime).epochMs;
  };
  let months = (end.year - start.year) * 12 + (end.month - start.month);
  while (months > 0 && at(months, 0) > b) months--;
  let days = dayIndex(end) - dayIndex(addMonths(start, months));
  while (days > 0 && at(months, days) > b) days--;
  const rest = b - at(months, days);
  return {
    years: Math.floor(months / 12),
    months: months % 12,
    days,
    hours: Math.floor(rest / 3_600_000),
    minutes: Math.floor((rest % 3_600_000) / 60_000),
    seconds: (rest % 60_000) / 1000,
  };
}

/** Monday–Friday dates d with start ≤ d < end (calendar dates). */
export function weekdaysBetween(start: WallTime, end: WallTime): number {
  const first = dayIndex(start);
  const span = dayIndex(end) - first;
  let count = Math.floor(span / 7) * 5;
  for (let day = first + Math.floor(span / 7) * 7; day < first + span; day++) {
    const weekday = ((day % 7) + 7) % 7;
    if (weekday !== 0 && weekday !== 6) count++;
  }
  return count;
}

function humanize(calendar: Calendar): string {
  const parts = (["years", "months", "days", "hours", "minutes", "seconds"] as const)
    .filter((unit) => calendar[unit] !== 0)
    .map((unit) => `${calendar[unit]} ${calendar[unit] === 1 ? unit.slice(0, -1) : unit}`);
  return parts.length === 0 ? "0 seconds" : parts.join(", ");
}

function round(value: number, places: number): number {
  const factor = 10 ** places;
  return Math.round(value * factor) / factor;
}
