/**
 * Reads the JSON-RPC messages of a `text/event-stream` answer as its bytes arrive (no web streams): `data:` lines
 * gathered into one event, dispatched at the blank line that ends it. Comments, `event:`, `id:` and `retry:` lines
 * carry nothing a forwarded request needs.
 */
import { StringDecoder } from "node:string_decoder";

/**
 * @example
 * const sse = sseReader((data) => route(JSON.parse(data)));
 * for (const chunk of chunks) sse.push(chunk); sse.end();
 */
export function sseReader(onData: (data: string) => void): { push(chunk: Buffer): void; end(): void } {
  const decoder = new StringDecoder("utf8"); // a character may be split between two chunks
  let pending = "";
  let data: string[] = [];
  const dispatch = () => {
    if (data.length > 0) onData(data.join("\n"));
    data = [];
  };
  const line = (raw: string) => {
    const text = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (text === "") return dispatch();
    if (text.startsWith("data:")) data.push(text.charCodeAt(5) === 32 ? text.slice(6) : text.slice(5));
  };
  return {
    push(chunk) {
      pending += decoder.write(chunk);
      let newline = pending.indexOf("\n");
      while (newline >= 0) {
        line(pending.slice(0, newline));
        pending = pending.slice(newline + 1);
        newline = pending.indexOf("\n");
      }
    },
    end() {
      pending += decoder.end();
      if (pending !== "") line(pending);
      pending = "";
      dispatch();
    },
  };
}
