/**
 * Wall-clock arithmetic in IANA time zones on top of Intl (Node 20 has no Temporal). An instant is epoch
 * milliseconds; a wall time is the calendar date and clock reading in one zone. Converting a wall time to an
 * instant follows Temporal's "compatible" rule: a time skipped by a DST jump moves forward by the jump, and a
 * repeated time takes the earlier instant; either case is reported so tools can say so.
 */

export interface CivilDate {
  year: number;
  month: number;
  day: number;
}

export interface WallTime extends CivilDate {
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
}

const MINUTE = 60_000;
const DAY = 86_400_000;

const formatters = new Map<string, Intl.DateTimeFormat>();

function partsFormatter(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    formatters.set(zone, formatter);
  }
  return formatter;
}

/** Epoch milliseconds of a wall time read as UTC (years below 100 are not shifted to the 1900s). */
export function utcMs(wall: WallTime): number {
  const date = new Date(0);
  date.setUTCFullYear(wall.year, wall.month - 1, wall.day);
  date.setUTCHours(wall.hour, wall.minute, wall.second, wall.millisecond);
  return date.getTime();
}

/** The wall time in `zone` at an instant. */
export function wallAt(zone: string, epochMs: number): WallTime {
  const fields: Record<string, number> = {};
  for (const part of partsFormatter(zone).formatToParts(epochMs)) {
    if (part.type !== "literal") fields[part.type] = Number(part.value);
  }
  return {
    year: fields.year,
    month: fields.month,
    day: fields.day,
    hour: fields.hour,
    minute: fields.minute,
    second: fields.second,
    millisecond: ((epochMs % 1000) + 1000) % 1000,
  };
}

/** Minutes east of UTC in `zone` at an instant (Asia/Kolkata: 330). */
export function offsetMinutes(zone: string, epochMs: number): number {
  return Math.round((utcMs(wallAt(zone, epochMs)) - epochMs) / MINUTE);
}

/** What resolving a wall time found: the instant, and whether the wall time was skipped or repeated in the zone. */
export interface Resolved {
  epochMs: number;
  /** `skipped`: the time does not exist (clocks jumped over it); `repeated`: it happens twice (clocks went back). */
  adjustment?: "skipped" | "repeated";
}

/** The instant at which `zone` shows `wall` (Temporal's "compatible" disambiguation). */
export function resolveWall(zone: string, wall: WallTime): Resolved {
  const asUtc = utcMs(wall);
  const before = offsetMinutes(zone, asUtc - DAY);
  const after = offsetMinutes(zone, asUtc + DAY);
  const candidates = [...new Set([before, after])]
    .map((offset) => asUtc - offset * MINUTE)
    .filter((epochMs) => utcMs(wallAt(zone, epochMs)) === asUtc)
    .sort((a, b) => a - b);
  if (candidates.length === 1) return { epochMs: candidates[0] };
  if (candidates.length > 1) return { epochMs: candidates[0], adjustment: "repeated" };
  return { epochMs: asUtc - before * MINUTE, adjustment: "skipped" };
}

/** "+05:30", "-04:00", "+00:00". */
export function formatOffset(minutes: number): string {
  const sign = minutes < 0 ? "-" : "+";
  const abs = Math.abs(minutes);
  return `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

export function pad(value: number, width = 2): string {
  return String(value).padStart(width, "0");
}

/** "2024-03-10". */
export function formatDate(date: CivilDate): string {
  return `${pad(date.year, 4)}-${pad(date.month)}-${pad(date.day)}`;
}

/** "14:05:00", with ".250" when there are milliseconds. */
export function formatClock(wall: WallTime): string {
  const ms = wall.millisecond === 0 ? "" : `.${pad(wall.millisecond, 3)}`;
  return `${pad(wall.hour)}:${pad(wall.minute)}:${pad(wall.second)}${ms}`;
}

/** ISO 8601 with the zone's offset at that instant: "2024-03-10T03:30:00-04:00". */
export function isoInZone(zone: string, epochMs: number): string {
  const wall = wallAt(zone, epochMs);
  return `${formatDate(wall)}T${formatClock(wall)}${formatOffset(offsetMinutes(zone, epochMs))}`;
}

const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

/** The weekday of a calendar date ("Monday"). */
export function weekdayOf(date: CivilDate): string {
  return WEEKDAYS[((dayIndex(date) % 7) + 7) % 7];
}

/** Days since 1970-01-04 (a Sunday) for a calendar date; differences of it count calendar days. */
export function dayIndex(date: CivilDate): number {
  return Math.round((utcMs({ ...date, hour: 0, minute: 0, second: 0, millisecond: 0 }) - 3 * DAY) / DAY);
}

/** The calendar date `days` after `date`. */
export function addDays(date: CivilDate, days: number): CivilDate {
  const moved = new Date(utcMs({ ...date, hour: 12, minute: 0, second: 0, millisecond: 0 }) + days * DAY);
  return { year: moved.getUTCFullYear(), month: moved.getUTCMonth() + 1, day: moved.getUTCDate() };
}

export function daysInMonth(year: number, month: number): number {
  const lastDay = new Date(0);
  lastDay.setUTCFullYear(year, month, 0);
  return lastDay.getUTCDate();
}

/** The date `months` months after `date`, the day clamped to the target month's length (Jan 31 + 1 month = Feb 28/29). */
export function addMonths(date: CivilDate, months: number): CivilDate {
  const total = date.year * 12 + (date.month - 1) + months;
  const year = Math.floor(total / 12);
  const month = total - year * 12 + 1;
  return { year, month, day: Math.min(date.day, daysInMonth(year, month)) };
}

const abbreviationLocales = ["en-US", "en-GB", "en-AU", "en-IN"];

/**
 * The zone's usual abbreviation at an instant ("EST", "CEST", "IST"), trying English locales in turn;
 * when none has one, the GMT form ("GMT+9").
 */
export function abbreviationAt(zone: string, epochMs: number): string {
  let fallback = "";
  for (const locale of abbreviationLocales) {
    const name = zoneNamePart(zone, epochMs, locale, "short");
    if (fallback === "") fallback = name;
    if (!/^GMT[+-]/.test(name)) return name;
  }
  return fallback;
}

/** The zone's long name at an instant ("Central European Summer Time"). */
export function longNameAt(zone: string, epochMs: number): string {
  return zoneNamePart(zone, epochMs, "en-US", "long");
}

function zoneNamePart(zone: string, epochMs: number, locale: string, style: "short" | "long"): string {
  const parts = new Intl.DateTimeFormat(locale, { timeZone: zone, timeZoneName: style }).formatToParts(epochMs);
  return parts.find((part) => part.type === "timeZoneName")?.value ?? "";
}

/** Standard and daylight offsets of `zone` in the year of an instant (equal when it keeps one offset all year). */
export function yearOffsets(zone: string, epochMs: number): { standard: number; daylight: number } {
  const year = new Date(epochMs).getUTCFullYear();
  const january = offsetMinutes(zone, Date.UTC(year, 0, 1));
  const july = offsetMinutes(zone, Date.UTC(year, 6, 1));
  return { standard: Math.min(january, july), daylight: Math.max(january, july) };
}

/** True when the zone's offset at the instant is its daylight-saving offset for that year. */
export function isDaylightSaving(zone: string, epochMs: number): boolean {
  const { standard, daylight } = yearOffsets(zone, epochMs);
  return standard !== daylight && offsetMinutes(zone, epochMs) === daylight;
}

/** The next instant after `fromMs` (within ~13 months) when the zone's offset changes, to the minute. */
export function nextTransition(zone: string, fromMs: number): { epochMs: number; offsetBefore: number; offsetAfter: number } | undefined {
  const base = Math.floor(fromMs / MINUTE) * MINUTE;
  const start = offsetMinutes(zone, base);
  for (let step = 1; step <= 400; step++) {
    let high = base + step * DAY;
    if (offsetMinutes(zone, high) === start) continue;
    let low = high - DAY;
    while (high - low > MINUTE) {
      const middle = low + Math.floor((high - low) / MINUTE / 2) * MINUTE;
      if (offsetMinutes(zone, middle) === start) low = middle;
      else high = middle;
    }
    return { epochMs: high, offsetBefore: start, offsetAfter: offsetMinutes(zone, high) };
  }
  return undefined;
}
