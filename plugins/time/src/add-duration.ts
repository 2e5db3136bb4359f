/**
 * `add_duration`: a date or date-time plus (or minus) an ISO 8601 duration, the way a calendar does it: years,
 * months, weeks and days move the wall clock (Jan 31 + 1 month = the last day of February; 1 day across a DST
 * change keeps the clock reading), hours, minutes and seconds are elapsed time. JSON Schema input and output.
 */
import { defineTool, errorResult, jsonResult } from "mcp-host";
import { z } from "zod";
import { addDays, addMonths, resolveWall, wallAt } from "./clock.js";
import { adjustmentNote, momentIn, momentSchema } from "./moment.js";
import { parseDuration, parseInstant } from "./parse.js";
import type { TimeSettings } from "./settings.js";
import { resolveZone } from "./zones.js";
import { pureAnnotations } from "./annotations.js";

export const addDurationInput = {
  type: "object",
  properties: {
    start: { type: "string", description: 'ISO 8601 date or date-time ("2025-01-31", "2025-03-14T09:30", "2025-03-14T09:30:00Z") or "now"' },
    duration: { type: "string", description: 'ISO 8601 duration: "P1D", "PT90M", "P1Y2M", "P2W", "P1DT12H"; a leading "-" subtracts' },
    timezone: { type: "string", description: "IANA zone the calendar is counted in and the result shown in; default: the server's zone" },
  },
  required: ["start", "duration"],
  additionalProperties: false,
} as const;

const { $schema: _draft, ...momentJsonSchema } = z.toJSONSchema(momentSchema, { target: "draft-2020-12" });

export const addDurationOutput = {
  type: "object",
  properties: {
    start: { type: "string", description: "the start as read, ISO 8601 with offset" },
    duration: { type: "string", description: "the duration as read" },
    result: momentJsonSchema,
    notes: { type: "array", items: { type: "string" }, description: "month-end clamping and DST adjustments, if any" },
  },
  required: ["start", "duration", "result", "notes"],
  additionalProperties: false,
} as const;

interface AddArgs {
  start: string;
  duration: string;
  timezone?: string;
}

export function addDurationTool(settings: TimeSettings) {
  return defineTool({
    name: "add_duration",
    title: "Add a duration to a date",
    description:
      "Adds (or with a leading '-', subtracts) an ISO 8601 duration to a date or date-time, calendar-aware: months clamp to the month's last day, " +
      "days keep the wall-clock time across daylight-saving changes, hours/minutes/seconds are elapsed time. " +
      'Use it for "what date is 90 days after 2025-01-15?" or "the deadline 2 weeks from now".',
    inputSchema: addDurationInput,
    outputSchema: addDurationOutput,
    annotations: { ...pureAnnotations, title: "Add a duration to a date" },
    handler: (raw) => {
      const args = raw as unknown as AddArgs;
      const zone = resolveZone(args.timezone ?? settings.defaultZone);
      if (!zone.ok) return errorResult(zone.message);
      const start = parseInstant(args.start, zone.zone);
      if (!start.ok) return errorResult(`start: ${start.message}`);
      const duration = parseDuration(args.duration);
      if (!duration.ok) return errorResult(duration.message);
      const { sign, years, months, weeks, days, exactMs } = duration.value;
      const notes: string[] = [];
      let at = start.value.epochMs;
      if (years !== 0 || months !== 0 || weeks !== 0 || days !== 0) {
        const wall = wallAt(zone.zone, at);
        const monthsMoved = addMonths(wall, sign * (years * 12 + months));
        if (monthsMoved.day !== wall.day) {
          notes.push(
            `day ${wall.day} does not exist in ${monthsMoved.year}-${String(monthsMoved.month).padStart(2, "0")}; used the month's last day, ${monthsMoved.day}`,
          );
        }
        const date = addDays(monthsMoved, sign * (weeks * 7 + days));
        const resolved = resolveWall(zone.zone, { ...wall, ...date });
        const note = adjustmentNote(zone.zone, `the result's wall time`, resolved.adjustment, resolved.epochMs);
        if (note !== undefined) notes.push(note);
        at = resolved.epochMs;
      }
      at += sign * exactMs;
      return jsonResult({
        start: momentIn(zone.zone, start.value.epochMs).iso,
        duration: duration.value.text,
        result: momentIn(zone.zone, at),
        notes,
      });
    },
  });
}
