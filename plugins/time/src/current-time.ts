/** `current_time`: what time it is now in one zone (zod input, structured output). */
import { defineTool, errorResult, jsonResult } from "mcp-host";
import { z } from "zod";
import { momentIn, momentSchema } from "./moment.js";
import type { TimeSettings } from "./settings.js";
import { resolveZone } from "./zones.js";
import { pureAnnotations } from "./annotations.js";

export const currentTimeOutput = momentSchema.extend({
  unix_ms: z.number().int().describe("milliseconds since 1970-01-01T00:00:00Z (whole seconds)"),
});

export function currentTimeTool(settings: TimeSettings) {
  return defineTool({
    name: "current_time",
    title: "Current time",
    description:
      "The current date and time in an IANA time zone, with its UTC offset, abbreviation, weekday and whether daylight-saving time is in effect. " +
      "Without a time zone, the server's default zone is used.",
    inputSchema: z.object({
      timezone: z.string().optional().describe('IANA time zone, e.g. "Europe/Paris" or "America/New_York"; default: the server\'s zone'),
    }),
    outputSchema: currentTimeOutput,
    annotations: { ...pureAnnotations, title: "Current time" },
    handler: ({ timezone }) => {
      const zone = resolveZone(timezone ?? settings.defaultZone);
      if (!zone.ok) return errorResult(zone.message);
      const now = Math.floor(Date.now() / 1000) * 1000;
      return jsonResult({ ...momentIn(zone.zone, now), unix_ms: now });
    },
  });
}
