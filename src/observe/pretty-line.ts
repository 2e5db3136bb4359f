/**
 * The readable form of a log line, for a terminal: `12:00:01.234 info  [http] message {"status":200}` — time,
 * level, the component (an extension's name for its own lines), the message, then the other fields as JSON.
 * Colours only when the stream is a terminal. What others said (a client's toolset name, an upstream's stderr, an
 * error message) is printed as inert text: every character a terminal acts on — C0 and C1 controls, DEL, line and
 * paragraph separators, bidirectional overrides — is written as an escape (`\x1b`, `\n`, `\u202e`), so no line can
 * clear the screen, retitle the window, overwrite itself or forge another line.
 */

const COLOURS: Record<string, string> = { debug: "\x1b[90m", info: "\x1b[36m", warn: "\x1b[33m", error: "\x1b[31m" };
const RESET = "\x1b[0m";
const SHOWN_APART = new Set(["level", "time", "msg", "component"]);

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const NAMED: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/** `text` with every character a terminal acts on written as an escape. */
function inert(text: string): string {
  return text.replace(
    CONTROL,
    (c) =>
      NAMED[c] ?? (c.charCodeAt(0) <= 0xff ? `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}` : `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`),
  );
}

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
  const tag = typeof component === "string" && component !== "" ? ` [${inert(component)}]` : "";
  // JSON escapes C0 controls itself, but not C1 ones, separators or bidirectional overrides.
  const data = Object.keys(rest).length === 0 ? "" : ` ${inert(JSON.stringify(rest))}`;
  return `${time} ${shownLevel}${tag} ${inert(String(record.msg ?? ""))}${data}`;
}
