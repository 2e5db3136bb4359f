/**
 * Finds where a JSON text stops being JSON. V8's own messages quote the text around the mistake ("… is not valid
 * JSON"), which may be a secret, and often give no position; this scanner gives a line, a column and a reason of
 * its own words. It also reports duplicate keys, which JSON.parse silently lets the last one win.
 */

/** Where and why a JSON text is not valid JSON. Lines and columns count from 1. */
export interface JsonSyntaxError {
  line: number;
  column: number;
  reason: string;
}

class Stop extends Error {
  constructor(
    readonly at: number,
    readonly reason: string,
  ) {
    super(reason);
  }
}

function scan(text: string): void {
  let i = 0;
  const ws = () => {
    while (i < text.length && " \t\n\r".includes(text[i]!)) i++;
  };
  const fail = (reason: string, at = i): never => {
    throw new Stop(at, i >= text.length && at >= text.length ? "the file ends before the JSON value does" : reason);
  };
  const string = (): string => {
    const start = ++i;
    let out = "";
    while (i < text.length && text[i] !== '"') {
      const c = text.charCodeAt(i);
      if (c < 0x20) fail("a string contains a raw control character or line break; write it as an escape such as \\n");
      if (text[i] === "\\") {
        const e = text[i + 1];
        if (e === "u") {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) fail("a \\u escape needs four hex digits");
          i += 6;
          continue;
        }
        if (e === undefined || !'"\\/bfnrt'.includes(e)) fail("a string contains an unknown escape");
        i += 2;
        continue;
      }
      i++;
    }
    if (i >= text.length) fail("a string is not closed");
    out = text.slice(start, i);
    i++;
    return out;
  };
  const value = (depth: number): void => {
    if (depth > 256) fail("the JSON is nested too deeply");
    ws();
    const c = text[i];
    if (c === "{") {
      i++;
      const keys = new Set<string>();
      ws();
      if (text[i] === "}") return void i++;
      for (;;) {
        ws();
        if (text[i] !== '"') fail("expected a key in double quotes (a trailing comma, or an unquoted key?)");
        const keyAt = i;
        const key = string();
        if (keys.has(key)) fail(`the key ${JSON.stringify(key.length > 40 ? `${key.slice(0, 37)}...` : key)} appears twice in one object`, keyAt);
        keys.add(key);
        ws();
        if (text[i] !== ":") fail('expected ":" after a key');
        i++;
        value(depth + 1);
        ws();
        if (text[i] === ",") {
          i++;
          continue;
        }
        if (text[i] === "}") return void i++;
        fail('expected "," or "}" after a value');
      }
    }
    if (c === "[") {
      i++;
      ws();
      if (text[i] === "]") return void i++;
      for (;;) {
        value(depth + 1);
        ws();
        if (text[i] === ",") {
          i++;
          continue;
        }
        if (text[i] === "]") return void i++;
        fail('expected "," or "]" after a value');
      }
    }
    if (c === '"') return void string();
    const literal = /^(true|false|null|-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?)/.exec(text.slice(i, i + 400));
    if (literal) {
      i += literal[0].length;
      return;
    }
    fail("expected a value (a string in double quotes, a number, true, false, null, a list or a map)");
  };
  value(0);
  ws();
  if (i < text.length) fail("there is more text after the JSON value");
}

/**
 * The first syntax error in `text`, or undefined when it is valid JSON with no duplicate keys.
 * @example
 * jsonSyntaxError('{"a": 1,}') // { line: 1, column: 9, reason: "expected a key in double quotes (a trailing comma, or an unquoted key?)" }
 */
export function jsonSyntaxError(text: string): JsonSyntaxError | undefined {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    scan(body);
    return undefined;
  } catch (error) {
    if (!(error instanceof Stop)) throw error;
    const before = body.slice(0, error.at);
    const line = before.split("\n").length;
    return { line, column: error.at - before.lastIndexOf("\n"), reason: error.reason };
  }
}
