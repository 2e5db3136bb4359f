/**
 * Parsing what callers write: ISO 8601 dates, clock times, date-times with or without an offset, and ISO 8601
 * durations. Every failure is a message that quotes the input and shows the accepted forms, because the reader
 * of that message is usually a model that will try again.
 */
import { daysInMonth, resolveWall, type CivilDate, type Resolved, type WallTime } from "./clock.js";

export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const CLOCK = /^(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?$/;
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?))?(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/** "2024-02-29" → a real calendar date (2023-02-29 is refused). */
export function parseDate(input: string): Parsed<CivilDate> {
  const match = DATE.exec(input.trim());
  if (match === null) return { ok: false, message: `date "${input}" is not in the form YYYY-MM-DD (for example "2025-03-14")` };
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) {
    return { ok: false, message: `date "${input}" does not exist` };
  }
  return { ok: true, value: { year, month, day } };
}

/** "09:30", "09:30:15", "09:30:15.250" (24-hour clock). */
export function parseClock(input: string): Parsed<Omit<WallTime, keyof CivilDate>> {
  const match = CLOCK.exec(input.trim());
  if (match === null) {
    return { ok: false, message: `time "${input}" is not a 24-hour clock time; write it as HH:MM or HH:MM:SS (for example "09:30" or "17:45:00")` };
  }
  const hour = Number(match[1]);
  const minute = Number(match[2]);
  const second = Number(match[3] ?? 0);
  const millisecond = Number((match[4] ?? "0").padEnd(3, "0"));
  if (hour > 23 || minute > 59 || second > 59) return { ok: false, message: `time "${input}" is out of range (00:00 to 23:59:59)` };
  return { ok: true, value: { hour, minute, second, millisecond } };
}

/** A point in time as a caller wrote it, resolved: an offset in the text wins over the zone. */
export interface ParsedInstant extends Resolved {
  /** True when the text carried its own offset ("Z", "+02:00"), so the zone played no part. */
  hadOffset: boolean;
}

/**
 * "2025-03-14", "2025-03-14T09:30", "2025-03-14 09:30:00", "2025-03-14T09:30:00Z", "2025-03-14T09:30+05:30".
 * Without an offset the wall time is read in `zone` (a date alone means its midnight). "now" is the current instant.
 */
export function parseInstant(input: string, zone: string): Parsed<ParsedInstant> {
  if (input.trim().toLowerCase() === "now") return { ok: true, value: { epochMs: Date.now(), hadOffset: true } };
  const match = DATE_TIME.exec(input.trim());
  const forms = `write it as YYYY-MM-DD, YYYY-MM-DDTHH:MM[:SS], optionally followed by Z or an offset such as +02:00`;
  if (match === null) return { ok: false, message: `"${input}" is not an ISO 8601 date or date-time; ${forms}` };
  const date = parseDate(match[1]);
  if (!date.ok) return date;
  const clock = match[2] === undefined ? { ok: true as const, value: { hour: 0, minute: 0, second: 0, millisecond: 0 } } : parseClock(match[2]);
  if (!clock.ok) return clock;
  const wall: WallTime = { ...date.value, ...clock.value };
  if (match[3] === undefined) return { ok: true, value: { ...resolveWall(zone, wall), hadOffset: false } };
  const offset = parseOffset(match[3]);
  if (offset === undefined) return { ok: false, message: `offset "${match[3]}" in "${input}" is out of range (-23:59 to +23:59)` };
  const asUtc = resolveWall("UTC", wall).epochMs;
  return { ok: true, value: { epochMs: asUtc - offset * 60_000, hadOffset: true } };
}

function parseOffset(text: string): number | undefined {
  if (text.toUpperCase() === "Z") return 0;
  const digits = text.slice(1).replace(":", "");
  const hours = Number(digits.slice(0, 2));
  const minutes = Number(digits.slice(2) || "0");
  if (hours > 23 || minutes > 59) return undefined;
  return (text[0] === "-" ? -1 : 1) * (hours * 60 + minutes);
}

/** An ISO 8601 duration split into calendar parts (applied to the wall clock) and exact time (milliseconds). */
export interface Duration {
  sign: 1 | -1;
  years: number;
  months: number;
  weeks: number;
  days: number;
  /** Hours, minutes and seconds, in milliseconds: elapsed time, unaffected by DST. */
  exactMs: number;
  /** The duration as written, normalised to upper case. */
  text: string;
}

const DURATION = /^([+-])?P(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?$/;

/** "P1Y2M", "P2W", "PT90M", "P1DT2H30M", "-P3D", "PT1.5H". */
export function parseDuration(input: string): Parsed<Duration> {
  const text = input.trim().toUpperCase();
  const match = DURATION.exec(text);
  const hasPart = match?.slice(2).some((part) => part !== undefined);
  if (match === null || !hasPart || text.endsWith("T")) {
    return {
      ok: false,
      message: `duration "${input}" is not an ISO 8601 duration; write it like "P1D" (1 day), "PT90M" (90 minutes), "P1Y2M" (1 year 2 months), "P2W" (2 weeks) or "-P1DT12H" (minus 1.5 days)`,
    };
  }
  const number = (index: number) => Number(match[index] ?? 0);
  return {
    ok: true,
    value: {
      sign: match[1] === "-" ? -1 : 1,
      years: number(2),
      months: number(3),
      weeks: number(4),
      days: number(5),
      exactMs: Math.round((number(6) * 3600 + number(7) * 60 + number(8)) * 1000),
      text,
    },
  };
}
