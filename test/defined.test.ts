// defined() (src/defined.ts), the one way the code copies optional fields: an undefined value's key is left out, every
// other value — the falsy ones included — is kept, in the order given, and the copy shares nothing mutable with
// the object it came from.
import assert from "node:assert/strict";
import { it } from "node:test";
import { defined } from "../src/defined.js";

it("leaves out exactly the keys whose value is undefined, keeping null, 0, empty strings and false", () => {
  const copy = defined({ a: undefined, b: null, c: 0, d: "", e: false, f: "x", g: undefined });
  assert.deepEqual(Object.keys(copy), ["b", "c", "d", "e", "f"]);
  assert.deepEqual(copy, { b: null, c: 0, d: "", e: false, f: "x" });
  assert.equal("a" in copy, false);
  assert.equal(JSON.stringify({ ...defined({ cursor: undefined }), limit: 1 }), '{"limit":1}');
});

it("returns a new object each time, so adding to the copy never reaches the source", () => {
  const source = { name: "echo", title: undefined as string | undefined };
  const copy = defined(source) as Record<string, unknown>;
  copy.extra = 1;
  assert.deepEqual(source, { name: "echo", title: undefined });
  assert.notEqual(defined(source), defined(source));
});
