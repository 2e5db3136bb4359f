/**
 * The zone catalogue as resources: `time://zones` lists every zone with its current offset, and the template
 * `time://zones/{+zone}` gives the facts about one zone (offsets, abbreviation, DST, next change), with
 * completion for the zone name. `{+zone}` (reserved expansion) lets the name keep its slashes.
 */
import { resourceNotFound, type ResourceSpec, type ResourceTemplateSpec } from "mcp-host";
import { formatOffset, isoInZone, longNameAt, nextTransition, offsetMinutes, yearOffsets } from "./clock.js";
import { momentIn } from "./moment.js";
import { completeZone, resolveZone, zoneNames } from "./zones.js";

export const ZONES_URI = "time://zones";
export const ZONE_TEMPLATE = "time://zones/{+zone}";

export const zonesResource: ResourceSpec = {
  uri: ZONES_URI,
  name: "time_zones",
  title: "IANA time zones",
  description: "Every IANA time zone this server knows, with its current UTC offset. Read time://zones/{zone} for one zone's details.",
  mimeType: "application/json",
  read: () => {
    const now = Date.now();
    const zones = zoneNames().map((zone) => ({ zone, utc_offset: formatOffset(offsetMinutes(zone, now)) }));
    return { contents: [{ uri: ZONES_URI, mimeType: "application/json", text: JSON.stringify({ count: zones.length, zones }) }] };
  },
};

/** The facts about one zone, as the template's resource body. */
export function zoneFacts(zone: string, now: number) {
  const { standard, daylight } = yearOffsets(zone, now);
  const moment = momentIn(zone, now);
  const transition = nextTransition(zone, now);
  return {
    zone,
    name: longNameAt(zone, now),
    now: moment.iso,
    utc_offset: moment.utc_offset,
    abbreviation: moment.abbreviation,
    is_dst: moment.is_dst,
    observes_dst: standard !== daylight,
    standard_offset: formatOffset(standard),
    daylight_offset: standard === daylight ? null : formatOffset(daylight),
    next_change:
      transition === undefined
        ? null
        : {
            at: isoInZone(zone, transition.epochMs),
            utc_offset_before: formatOffset(transition.offsetBefore),
            utc_offset_after: formatOffset(transition.offsetAfter),
          },
  };
}

export const zoneTemplate: ResourceTemplateSpec = {
  uriTemplate: ZONE_TEMPLATE,
  name: "time_zone",
  title: "One time zone",
  description: "Facts about one IANA zone now: long name, UTC offset, abbreviation, standard and daylight offsets, and the next offset change.",
  mimeType: "application/json",
  complete: { zone: (value) => completeZone(value) },
  read: (uri, variables) => {
    const raw = Array.isArray(variables.zone) ? variables.zone.join(",") : (variables.zone ?? "");
    const resolved = resolveZone(safeDecode(raw));
    if (!resolved.ok) throw resourceNotFound(uri, resolved.message);
    return { contents: [{ uri, mimeType: "application/json", text: JSON.stringify(zoneFacts(resolved.zone, Date.now())) }] };
  },
};

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
