// src/registry/answers/json-scan.ts: one pass over a JSON text, in pieces split anywhere, gives its deepest nesting
// and — for a JSON-RPC message — its top-level id and whether it answers or asks, as JSON.parse would read them;
// strings (escapes, brackets and quotes inside them) never count, and a key or id it cannot read plainly is none.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { JsonScan } from "../../../src/registry/answers/json-scan.js";

/** What a scan of `text` fed in pieces of `size` (as bytes, or as a string) says. */
function scanned(text: string, size: number, asBytes: boolean): { deepest: number; id: unknown; answers: boolean; asks: boolean } {
  const scan = new JsonScan();
  const bytes = Buffer.from(text);
  for (let i = 0; i < bytes.length; i += size) {
    const piece = bytes.subarray(i, i + size);
    scan.feed(asBytes ? piece : piece.toString("latin1"));
  }
  return { deepest: scan.deepest, id: scan.id, answers: scan.answers, asks: scan.asks };
}

const CASES: ReadonlyArray<[string, { deepest: number; id: unknown; answers: boolean; asks: boolean }]> = [
  ['{"jsonrpc":"2.0","id":7,"result":{"a":[1]}}', { deepest: 3, id: 7, answers: true, asks: false }],
  [
    '{"result":{"content":[{"type":"text","text":"a\\"}]{b\\\\"}]},"jsonrpc":"2.0","id":"mcp-host-fwd-3"}',
    { deepest: 4, id: "mcp-host-fwd-3", answers: true, asks: false },
  ],
  ['{"jsonrpc":"2.0","id":12,"method":"sampling/createMessage","params":{"x":[[]]}}', { deepest: 4, id: 12, answers: false, asks: true }],
  ['{ "id" : -3.5e2 , "error" : { "code" : 1 } }', { deepest: 2, id: -350, answers: true, asks: false }],
  ['{"i\\u0064":5,"result":1}', { deepest: 1, id: undefined, answers: true, asks: false }],
  ['{"id":"a\\"b","result":{}}', { deepest: 2, id: undefined, answers: true, asks: false }],
  ['{"params":{"id":3,"result":1},"method":"notifications/x"}', { deepest: 2, id: undefined, answers: false, asks: true }],
  ['[{"id":1,"result":{}}]', { deepest: 3, id: undefined, answers: false, asks: false }],
  ['"{[{[{["', { deepest: 0, id: undefined, answers: false, asks: false }],
  [`${'{"a":'.repeat(100)}1${"}".repeat(100)}`, { deepest: 100, id: undefined, answers: false, asks: false }],
];

describe("JsonScan", () => {
  it("reads depth, id and kind as the parser would, the text split at every point", () => {
    for (const [text, expected] of CASES) {
      if (!text.startsWith('"')) JSON.parse(text); // every case but the lone string is valid JSON
      for (let size = 1; size <= text.length; size++) {
        assert.deepEqual(scanned(text, size, true), expected, `${text} in pieces of ${size} bytes`);
        assert.deepEqual(scanned(text, size, false), expected, `${text} in pieces of ${size} characters`);
      }
    }
  });

  it("skips a long string's contents and escapes, and keeps an id however long the answer before it", () => {
    const scan = new JsonScan();
    scan.feed('{"result":{"content":[{"type":"text","text":"');
    const block = Buffer.alloc(1 << 20, "\\n".charCodeAt(0));
    for (let i = 0; i < 8; i++) scan.feed(Buffer.from('\\\\n\\"[{'.repeat(1 << 16)));
    for (let i = 0; i < 32; i++) scan.feed(block);
    scan.feed('"}]},"jsonrpc":"2.0","id":"mcp-host-fwd-99"}');
    assert.deepEqual({ deepest: scan.deepest, id: scan.id, answers: scan.answers }, { deepest: 4, id: "mcp-host-fwd-99", answers: true });
  });
});
