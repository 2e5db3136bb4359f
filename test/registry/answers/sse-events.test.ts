// src/registry/answers/sse-events.ts: a text/event-stream read as its bytes arrive. Events come whole however the
// bytes are split (a character split in two included); an event that grows past the limit — one long line, or many
// lines with comments between them — stops the reader before it ends, and nothing after it is handed on; a last event
// the stream did not close with a blank line still counts.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { sseEvents, type EventSourceMessage } from "../../../src/registry/answers/sse-events.js";

function read(chunks: readonly Uint8Array[], maxEventBytes = 1 << 20): { events: EventSourceMessage[]; tooLarge: number } {
  const events: EventSourceMessage[] = [];
  let tooLarge = 0;
  const sse = sseEvents({ maxEventBytes, event: (e) => events.push(e), tooLarge: () => tooLarge++ });
  for (const chunk of chunks) sse.push(chunk);
  sse.end();
  return { events, tooLarge };
}

describe("sseEvents", () => {
  it("hands on whole events however the bytes are split, and a last one left open", () => {
    const bytes = Buffer.from(': hi\n\nid: 1\nevent: message\ndata: {"a":"é€"}\n\nretry: 10\ndata: a\r\ndata: b\r\n\r\ndata: last');
    const expected = [
      { id: "1", event: "message", data: '{"a":"é€"}' },
      { id: undefined, event: undefined, data: "a\nb" },
      { id: undefined, event: undefined, data: "last" },
    ];
    for (let size = 1; size <= bytes.length; size++) {
      const chunks = [];
      for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size));
      assert.deepEqual(read(chunks), { events: expected, tooLarge: 0 }, `pieces of ${size}`);
    }
  });

  it("stops at an event growing past the limit: one long line, or many lines with comments between", () => {
    const longLine = [Buffer.from("data: ok\n\ndata: "), ...Array.from({ length: 40 }, () => Buffer.alloc(1024, "x")), Buffer.from("\n\ndata: after\n\n")];
    assert.deepEqual(read(longLine, 32 * 1024), { events: [{ id: undefined, event: undefined, data: "ok" }], tooLarge: 1 });
    const manyLines = Array.from({ length: 4000 }, () => Buffer.from("data: xxxxxxxx\n: keep-alive\n"));
    assert.deepEqual(read([...manyLines, Buffer.from("\ndata: after\n\n")], 32 * 1024), { events: [], tooLarge: 1 });
  });
});
