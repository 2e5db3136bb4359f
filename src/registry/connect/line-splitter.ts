/**
 * Splits a child's stderr into lines for the log, with bounds: a line longer than the cap is cut, and a child that
 * never writes a newline cannot make the registry hold an unbounded buffer.
 */

/** Longest stderr line kept, in characters; the rest of the line is replaced by a marker. */
export const MAX_LINE_CHARS = 2000;

/**
 * Returns a `push(chunk)` that calls `onLine` for every complete line, and a `flush()` for the tail at exit.
 * @example
 * const split = lineSplitter((line) => log.info(line));
 * child.stderr.on("data", split.push); child.on("close", split.flush);
 */
export function lineSplitter(onLine: (line: string) => void, maxChars: number = MAX_LINE_CHARS): { push(chunk: Buffer | string): void; flush(): void } {
  let pending = "";
  let cut = false;
  const emit = (line: string) => {
    const text = line.replace(/\r$/, "");
    if (text.length > 0) onLine(text);
  };
  return {
    push(chunk) {
      const parts = (pending + chunk.toString()).split("\n");
      pending = parts.pop() ?? "";
      for (const part of parts) {
        if (cut) cut = false;
        else emit(part.length > maxChars ? `${part.slice(0, maxChars)}… [line cut]` : part);
      }
      if (pending.length > maxChars) {
        if (!cut) emit(`${pending.slice(0, maxChars)}… [line cut]`);
        cut = true;
        pending = "";
      }
    },
    flush() {
      if (!cut) emit(pending);
      pending = "";
      cut = false;
    },
  };
}
