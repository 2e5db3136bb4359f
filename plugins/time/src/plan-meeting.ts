/**
 * The `plan_meeting` prompt: given the participants' zones and a date, it works out where everyone's working
 * hours overlap (in 15-minute steps across the organiser's day) and hands the model that table, so the model
 * proposes times from facts instead of guessing offsets.
 */
import { invalidParams, type PromptSpec } from "mcp-host";
import { addDays, formatDate, pad, resolveWall, wallAt, weekdayOf, type CivilDate } from "./clock.js";
import { parseDate } from "./parse.js";
import { completeZone, resolveZone } from "./zones.js";

const STEP = 15 * 60_000;

interface Window {
  from: number;
  to: number;
  present: string[];
}

/** Splits "Europe/Paris, America/New_York" into names; completion works on the last one. */
function splitZones(text: string): string[] {
  return text
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part !== "");
}

function parseHours(text: string): { start: number; end: number } {
  const match = /^(\d{1,2}):?(\d{2})?\s*-\s*(\d{1,2}):?(\d{2})?$/.exec(text.trim());
  if (match === null) throw invalidParams(`working_hours "${text}" is not a range like "09:00-17:00"`);
  const start = Number(match[1]) * 60 + Number(match[2] ?? 0);
  const end = Number(match[3]) * 60 + Number(match[4] ?? 0);
  if (start >= end || end > 24 * 60) throw invalidParams(`working_hours "${text}" must start before it ends, within one day`);
  return { start, end };
}

/** The 15-minute slots of the organiser's day, each with the zones whose local time is within working hours on a weekday. */
function slots(zones: string[], date: CivilDate, hours: { start: number; end: number }): Window[] {
  const midnight = { hour: 0, minute: 0, second: 0, millisecond: 0 };
  const from = resolveWall(zones[0], { ...date, ...midnight }).epochMs;
  const to = resolveWall(zones[0], { ...addDays(date, 1), ...midnight }).epochMs;
  const result: Window[] = [];
  for (let at = from; at < to; at += STEP) {
    const present = zones.filter((zone) => {
      const wall = wallAt(zone, at);
      const minute = wall.hour * 60 + wall.minute;
      const weekday = weekdayOf(wall);
      return weekday !== "Saturday" && weekday !== "Sunday" && minute >= hours.start && minute + 15 <= hours.end;
    });
    result.push({ from: at, to: at + STEP, present });
  }
  return result;
}

/** Runs of consecutive slots with the same people present, keeping those with the most people. */
function bestWindows(all: Window[]): Window[] {
  const most = Math.max(...all.map((slot) => slot.present.length));
  if (most === 0) return [];
  const windows: Window[] = [];
  for (const slot of all) {
    if (slot.present.length !== most) continue;
    const last = windows.at(-1);
    if (last !== undefined && last.to === slot.from && last.present.join() === slot.present.join()) last.to = slot.to;
    else windows.push({ ...slot });
  }
  return windows;
}

function localRange(zone: string, window: Window): string {
  const start = wallAt(zone, window.from);
  const end = wallAt(zone, window.to);
  return `${zone} ${pad(start.hour)}:${pad(start.minute)}–${pad(end.hour)}:${pad(end.minute)} (${weekdayOf(start).slice(0, 3)} ${formatDate(start)})`;
}

function overlapText(zones: string[], windows: Window[], durationMinutes: number, hoursText: string): string {
  if (windows.length === 0) return `Nobody is inside working hours (${hoursText} local, Monday–Friday) on that day.`;
  const everyone = windows[0].present.length === zones.length;
  const lines = windows.map((window) => {
    const fits = window.to - window.from >= durationMinutes * 60_000 ? "" : " (shorter than the meeting)";
    const utc = `${new Date(window.from).toISOString().slice(11, 16)}–${new Date(window.to).toISOString().slice(11, 16)} UTC`;
    const absent = zones.filter((zone) => !window.present.includes(zone));
    const who = everyone ? "" : `; outside working hours: ${absent.join(", ")}`;
    return `- ${utc}${fits}: ${zones.map((zone) => localRange(zone, window)).join("; ")}${who}`;
  });
  const heading = everyone
    ? `Times when everyone is inside working hours (${hoursText} local, Monday–Friday):`
    : `No time suits everyone (${hoursText} local, Monday–Friday). Best windows, with ${windows[0].present.length} of ${zones.length} participants inside working hours:`;
  return [heading, ...lines].join("\n");
}

export function planMeetingPrompt(): PromptSpec {
  return {
    name: "plan_meeting",
    title: "Plan a meeting across time zones",
    description: "Finds where the participants' working hours overlap on a date and asks for concrete meeting times shown in every zone.",
    arguments: [
      { name: "zones", description: 'Participants\' IANA zones, comma-separated, organiser first: "Europe/Paris, America/New_York"', required: true },
      { name: "date", description: "YYYY-MM-DD in the organiser's zone; default: today there" },
      { name: "duration_minutes", description: "Meeting length in minutes; default 60" },
      { name: "working_hours", description: 'Local working hours in every zone; default "09:00-17:00"' },
    ],
    complete: {
      zones: (value) => {
        const parts = value.split(",");
        const last = parts.pop() ?? "";
        const before = parts.map((part) => part.trim()).filter((part) => part !== "");
        const head = before.length === 0 ? "" : `${before.join(", ")}, `;
        return completeZone(last)
          .filter((zone) => !before.includes(zone))
          .map((zone) => head + zone);
      },
      duration_minutes: (value) => ["15", "30", "45", "60", "90", "120"].filter((option) => option.startsWith(value.trim())),
    },
    get: (args) => {
      const zones = splitZones(args.zones ?? "").map((name) => {
        const resolved = resolveZone(name);
        if (!resolved.ok) throw invalidParams(resolved.message);
        return resolved.zone;
      });
      if (zones.length === 0) throw invalidParams(`zones is empty; give the participants' IANA zones, comma-separated`);
      const organiser = zones[0];
      const date = args.date === undefined || args.date === "" ? wallAt(organiser, Date.now()) : unwrap(parseDate(args.date));
      const duration = args.duration_minutes === undefined || args.duration_minutes === "" ? 60 : Number(args.duration_minutes);
      if (!Number.isInteger(duration) || duration < 5 || duration > 720)
        throw invalidParams(`duration_minutes "${args.duration_minutes}" must be a whole number of minutes from 5 to 720`);
      const hoursText = args.working_hours === undefined || args.working_hours === "" ? "09:00-17:00" : args.working_hours;
      const windows = bestWindows(slots(zones, date, parseHours(hoursText)));
      const text = [
        `Help me schedule a ${duration}-minute meeting on ${weekdayOf(date)} ${formatDate(date)} (date in ${organiser}, the organiser's zone) for participants in: ${zones.join(", ")}.`,
        "",
        overlapText(zones, windows, duration, hoursText),
        "",
        "Propose two or three concrete start times. Show each one in every participant's local time with the weekday, and point out anyone outside working hours or on a different date. " +
          "Use the convert_time tool to check any time you propose.",
      ].join("\n");
      return { description: `Meeting across ${zones.join(", ")}`, messages: [{ role: "user", content: { type: "text", text } }] };
    },
  };
}

function unwrap<T>(parsed: { ok: true; value: T } | { ok: false; message: string }): T {
  if (!parsed.ok) throw invalidParams(parsed.message);
  return parsed.value;
}
