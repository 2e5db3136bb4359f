/**
 * @mcp-host/plugin-time: dates, times and time zones for models, which are bad at offset arithmetic and do not
 * know what time it is. The module exports a factory so that each host gets its own settings; discovery calls
 * it with the deployment's options, and `setup` reads them again from its context (config options win there).
 */
import type { McpExtension, ServerDraft } from "mcp-host";
import { addDurationTool } from "./add-duration.js";
import { convertTimeTool } from "./convert-time.js";
import { currentTimeTool } from "./current-time.js";
import { planMeetingPrompt } from "./plan-meeting.js";
import { readSettings, type TimeOptions, type TimeSettings } from "./settings.js";
import { timeBetweenTool } from "./time-between.js";
import { zonesResource, zoneTemplate } from "./zone-resources.js";

export type { TimeOptions } from "./settings.js";

const INSTRUCTIONS = [
  "Use these tools instead of working out dates, times and offsets yourself.",
  "- current_time before saying what time or date it is anywhere; never assume.",
  "- convert_time for a clock time in one zone seen from others (pass the date: offsets change with daylight saving).",
  "- time_between for how long between two dates; add_duration for a date plus or minus a duration (ISO 8601, e.g. P2W, PT90M).",
  "Time zones are IANA names (Europe/Paris, America/New_York, Asia/Kolkata); the resource time://zones lists them and time://zones/{zone} describes one.",
].join("\n");

/** The note `onServer` appends to every build that includes the time toolset. */
export function defaultZoneNote(zone: string): string {
  return `## Default time zone\n\nThis server's default time zone is ${zone}. The time tools use it when a call gives no time zone; when you rely on it, say so.`;
}

/**
 * Makes the time extension. `options.defaultZone` (an IANA name) replaces the server's local zone as the zone
 * used when a call names none.
 * @example
 * const host = buildHost([createTimeExtension({ defaultZone: "Europe/Paris" })], { name: "clock" });
 */
export function createTimeExtension(options: TimeOptions = {}): McpExtension {
  const settings: TimeSettings = readSettings(options as Record<string, unknown>);
  return {
    name: "time",
    version: "0.1.0",
    description: "Current time, time-zone conversion, date differences and durations, zone facts, meeting planning.",
    toolsets: [
      {
        name: "time",
        title: "Time and dates",
        description: "Current time in any zone, conversion between zones, date differences and durations, zone facts, a meeting-planning prompt.",
        instructions: INSTRUCTIONS,
      },
    ],
    tools: [currentTimeTool(settings), convertTimeTool(), timeBetweenTool(settings), addDurationTool(settings)],
    resources: [zonesResource],
    resourceTemplates: [zoneTemplate],
    prompts: [planMeetingPrompt()],
    setup: (ctx) => {
      if (ctx.options.defaultZone !== undefined) settings.defaultZone = readSettings(ctx.options).defaultZone;
      ctx.logger.debug("default time zone", { zone: settings.defaultZone });
    },
    onServer: (draft: ServerDraft) => {
      const note = defaultZoneNote(settings.defaultZone);
      draft.instructions = draft.instructions === undefined ? note : `${draft.instructions}\n\n${note}`;
    },
  };
}

export default createTimeExtension;
