/**
 * The readable form of a log line, for a terminal: `12:00:01.234 info  [http] message {"status":200}` — time,
 * level, the component (an extension's name for its own lines), the message, then the other fields as JSON.
 * Colours only when the stream is a terminal.
 */

const COLOURS: Record<string, string> = { debug: "\x1b[90m", info: "\x1b[36m", warn: "\x1b[33m", error: "\x1b[31m" };
const RESET = "\x1b[0m";
const SHOWN_APART = new Set(["level", "time", "msg", "component"]);

/**
 * @example
 * prettyLine({ level: "info", time: "2026-01-01T12:00:01.234Z", component: "http", msg: "GET /mcp 200" }, false)
 * // "12:00:01.234 info  [http] GET /mcp 200"
 */
export function prettyLine(record: Record<string, unknown>, colour: boolean): string {
  const level = String(record.level ?? "info");
  const time = typeof record.time === "string" ? record.time.slice(11, 23) : "";
  const component = record.component === "extension" && typeof record.extension === "string" ? record.extension : record.component;
  const rest: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) if (!SHOWN_APART.has(key)) rest[key] = value;
  const shownLevel = colour ? `${COLOURS[level] ?? ""}${level.padEnd(5)}${RESET}` : level.padEnd(5);
  const tag = typeof component === "string" && component !== "" ? ` [${component}]` : "";
  const data = Object.keys(rest).length === 0 ? "" : ` ${JSON.stringify(rest)}`;
  return `${time} ${shownLevel}${tag} ${String(record.msg ?? "")}${data}`;
}
