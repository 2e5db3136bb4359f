// src/registry/answers/line-reader.ts: a stdio child's stdout as lines, within the answer limits. Lines split
// anywhere arrive whole; one past the byte limit is refused — as soon as its id says which request it answers, or at
// its end — and its bytes are skipped to its end, so the next line is read as itself, never the huge line's tail; one
// nested too deep is refused unparsed; a refused line that asks (a request, a notification) says so.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { answerLimits } from "../../../src/registry/answers/answer-limits.js";
import { LineReader, type RefusedLine } from "../../../src/registry/answers/line-reader.js";

const limits = answerLimits({ maxResultBytes: 1024, maxJsonDepth: 8 });
/** Longer than a line may be (1 KiB and the 64 KiB of slack). */
const HUGE = limits.maxAnswerBytes + 1;

function reader(): { reader: LineReader; seen: Array<string | { code: string; id?: string | number; answers: boolean }> } {
  const seen: Array<string | { code: string; id?: string | number; answers: boolean }> = [];
  const refused = (r: RefusedLine) => seen.push({ code: r.error.code, answers: r.answers, ...(r.id === undefined ? {} : { id: r.id }) });
  return { reader: new LineReader({ limits, line: (text) => seen.push(text), refused }), seen };
}

describe("LineReader", () => {
  it("hands on whole lines however the bytes are split", () => {
    const text = '{"id":1,"result":{}}\n\n{"method":"x","params":{"é":"ü"}}\r\n';
    const bytes = Buffer.from(text);
    for (let size = 1; size <= bytes.length; size++) {
      const { reader: r, seen } = reader();
      for (let i = 0; i < bytes.length; i += size) r.push(bytes.subarray(i, i + size));
      assert.deepEqual(seen, ['{"id":1,"result":{}}', '{"method":"x","params":{"é":"ü"}}\r'], `pieces of ${size}`);
    }
  });

  it("refuses a line past the limit as soon as its id is known, skips it to its end, and reads the next line as itself", () => {
    const { reader: r, seen } = reader();
    r.push(Buffer.from('{"jsonrpc":"2.0","id":"mcp-host-fwd-4","result":{"text":"'));
    for (let left = HUGE; left > 0; left -= 4096) r.push(Buffer.alloc(Math.min(left, 4096), "x"));
    assert.deepEqual(seen, [{ code: "MCP_ANSWER_TOO_LARGE", id: "mcp-host-fwd-4", answers: true }], "refused before the line ended");
    // The tail of the huge line looks like a message of its own: it is still the huge line, and skipped.
    r.push(Buffer.from('"}}{"jsonrpc":"2.0","id":"mcp-host-fwd-5","result":{"forged":true}}\n{"id":6,"result":{}}\n'));
    assert.deepEqual(seen.slice(1), ['{"id":6,"result":{}}']);
  });

  it("refuses at its end a huge line whose id comes last, and says when a refused line asks rather than answers", () => {
    const { reader: r, seen } = reader();
    r.push(Buffer.from(`{"result":{"text":"${"y".repeat(HUGE)}"},"jsonrpc":"2.0","id":17}\n`));
    r.push(Buffer.from(`{"jsonrpc":"2.0","id":3,"method":"sampling/createMessage","params":{"text":"${"z".repeat(HUGE)}"}}\n`));
    r.push(Buffer.from(`{"text":"${"z".repeat(HUGE)}"}\n`));
    assert.deepEqual(seen, [
      { code: "MCP_ANSWER_TOO_LARGE", id: 17, answers: true },
      { code: "MCP_ANSWER_TOO_LARGE", id: 3, answers: false },
      { code: "MCP_ANSWER_TOO_LARGE", answers: false },
    ]);
  });

  it("refuses a line nested deeper than the limit, unparsed, and reads one at the limit", () => {
    const { reader: r, seen } = reader();
    const deep = (n: number) => `{"id":9,"result":${"[".repeat(n - 1)}${"]".repeat(n - 1)}}`;
    r.push(Buffer.from(`${deep(9)}\n${deep(8)}\n`));
    assert.deepEqual(seen, [{ code: "MCP_ANSWER_TOO_DEEP", id: 9, answers: true }, deep(8)]);
  });
});
