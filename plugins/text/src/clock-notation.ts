/**
 * A tool extension on the time plugin's `convert_time`: that tool accepts only 24-hour "HH:MM", but people
 * (and models quoting them) write "9am", "9:30 p.m.", "noon" or "21h30". Reading such notations is a text
 * job, so this plugin normalises the `time` argument before the tool sees it, and says so in the description.
 * Without the time plugin installed it does nothing (extending a tool nobody offers is a no-op).
 */
import type { ToolExtension, ToolHandler } from "mcp-host";

const pad = (n: number) => String(n).padStart(2, "0");

/**
 * Rewrites common clock notations to 24-hour "HH:MM" (or "HH:MM:SS"); anything it does not recognise is
 * returned unchanged, so the tool's own error message still explains the accepted forms.
 * @example
 * normaliseClock("9:30 pm") // "21:30"
 * normaliseClock("noon")    // "12:00"
 */
export function normaliseClock(input: string): string {
  const text = input.trim().toLowerCase().replace(/\s+/g, " ");
  if (text === "noon" || text === "midday") return "12:00";
  if (text === "midnight") return "00:00";
  const twelve = /^(\d{1,2})(?:[:.](\d{2}))?(?::(\d{2}))? ?([ap])\.? ?m\.?$/.exec(text);
  if (twelve !== null) {
    const hour = Number(twelve[1]);
    if (hour < 1 || hour > 12) return input;
    const hour24 = (hour % 12) + (twelve[4] === "p" ? 12 : 0);
    return clock(hour24, twelve[2], twelve[3]) ?? input;
  }
  const french = /^(\d{1,2})h(\d{2})?$/.exec(text);
  if (french !== null) return clock(Number(french[1]), french[2], undefined) ?? input;
  const loose = /^(\d{1,2})[:.](\d{2})(?::(\d{2}))?$/.exec(text);
  if (loose !== null) return clock(Number(loose[1]), loose[2], loose[3]) ?? input;
  const military = /^(\d{2})(\d{2})$/.exec(text);
  if (military !== null) return clock(Number(military[1]), military[2], undefined) ?? input;
  return input;
}

function clock(hour: number, minute: string | undefined, second: string | undefined): string | undefined {
  const m = Number(minute ?? 0);
  const s = second === undefined ? undefined : Number(second);
  if (hour > 23 || m > 59 || (s !== undefined && s > 59)) return undefined;
  return `${pad(hour)}:${pad(m)}${s === undefined ? "" : `:${pad(s)}`}`;
}

export const clockNotationExtension: ToolExtension = {
  tool: "convert_time",
  description:
    "Converts a wall-clock time on a given date from one IANA time zone to one or more others, with each zone's date, weekday, UTC offset " +
    'and how far ahead of the source it is. `time` may be 24-hour ("14:30") or written as people do: "2:30 pm", "9am", "noon", "midnight", "21h30".',
  wrap:
    (next: ToolHandler): ToolHandler =>
    (args, ctx) =>
      next(typeof args.time === "string" ? { ...args, time: normaliseClock(args.time) } : args, ctx),
};
