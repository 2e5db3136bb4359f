/**
 * A "moment": one instant as seen in one zone, the unit every time tool reports in. Its zod schema is the
 * tools' output schema, so what the tools return and what they advertise cannot drift apart.
 */
import { z } from "zod";
import { abbreviationAt, formatClock, formatDate, formatOffset, isDaylightSaving, isoInZone, offsetMinutes, wallAt, weekdayOf } from "./clock.js";

export const momentSchema = z.object({
  timezone: z.string().describe("IANA time zone name"),
  iso: z.string().describe("ISO 8601 date-time with the zone's UTC offset"),
  date: z.string().describe("YYYY-MM-DD in the zone"),
  time: z.string().describe("HH:MM:SS (24-hour) in the zone"),
  weekday: z.string(),
  utc_offset: z.string().describe('offset from UTC at this instant, e.g. "+05:30"'),
  abbreviation: z.string().describe('e.g. "CEST", "EST", or "GMT+9" where no abbreviation is in common use'),
  is_dst: z.boolean().describe("true when daylight-saving time is in effect"),
});

export type Moment = z.infer<typeof momentSchema>;

/** The instant `epochMs` as seen in `zone`. */
export function momentIn(zone: string, epochMs: number): Moment {
  const wall = wallAt(zone, epochMs);
  return {
    timezone: zone,
    iso: isoInZone(zone, epochMs),
    date: formatDate(wall),
    time: formatClock(wall),
    weekday: weekdayOf(wall),
    utc_offset: formatOffset(offsetMinutes(zone, epochMs)),
    abbreviation: abbreviationAt(zone, epochMs),
    is_dst: isDaylightSaving(zone, epochMs),
  };
}

/**
 * Says what happened when a wall time had to be adjusted, or nothing: "02:30 does not exist in America/New_York
 * on 2024-03-10 (clocks jump forward there); read as 03:30-04:00".
 */
export function adjustmentNote(zone: string, wallText: string, adjustment: "skipped" | "repeated" | undefined, epochMs: number): string | undefined {
  if (adjustment === undefined) return undefined;
  const moment = momentIn(zone, epochMs);
  if (adjustment === "skipped") {
    return `${wallText} does not exist in ${zone} (clocks jump forward there); read as ${moment.date} ${moment.time} (UTC${moment.utc_offset})`;
  }
  return `${wallText} happens twice in ${zone} (clocks go back there); used the first, UTC${moment.utc_offset}`;
}
