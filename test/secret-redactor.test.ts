// src/secret-redactor.ts: the one redactor every output goes through. Every form a secret takes in output (as it is,
// inside a JSON string, URL-encoded) is replaced; the longest of overlapping secrets wins; a secret too short to
// redact is ignored; credentials learned at run time are bounded; values are copied only where something changed;
// a value nested deeper than the walk goes is redacted all the same (issue 30 §3: it used to pass as it was).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createSecretRedactor, MIN_SECRET_LENGTH, REDACTED } from "../src/secret-redactor.js";

describe("SecretRedactor", () => {
  it("replaces a secret as it is, JSON-escaped and URL-encoded, wherever it stands", () => {
    const secret = 'p@ss "word"/\\ é+1';
    const redactor = createSecretRedactor([secret]);
    for (const form of [secret, JSON.stringify(secret).slice(1, -1), encodeURIComponent(secret), encodeURIComponent(secret).replace(/%20/g, "+")]) {
      assert.equal(redactor.redact(`before ${form} after ${form}`), `before ${REDACTED} after ${REDACTED}`, form);
    }
    assert.equal(redactor.redact(JSON.stringify({ msg: `bad ${secret}` })), JSON.stringify({ msg: `bad ${REDACTED}` }));
  });

  it("prefers the longest of overlapping secrets and ignores ones too short to redact", () => {
    const redactor = createSecretRedactor(["abcd", "abcdefgh", "xyz", ""]);
    assert.equal(redactor.redact("abcdefgh abcd xyz"), `${REDACTED} ${REDACTED} xyz`);
    assert.equal(MIN_SECRET_LENGTH, 4);
  });

  it("learns credentials at run time, keeps the 256 most recent of them, and never forgets the ones it was made with", () => {
    const redactor = createSecretRedactor(["config-secret"]);
    assert.equal(redactor.redact("token-0001"), "token-0001");
    for (let i = 1; i <= 300; i++) redactor.learn(`token-${String(i).padStart(4, "0")}`);
    assert.equal(redactor.redact("token-0001 token-0044"), "token-0001 token-0044", "the oldest learned are forgotten");
    assert.equal(redactor.redact("token-0045 token-0300 config-secret"), `${REDACTED} ${REDACTED} ${REDACTED}`);
    redactor.learn("ab");
    assert.equal(redactor.redact("ab"), "ab");
  });

  it("redacts every string of a value, keys too, copying only what changed", () => {
    const redactor = createSecretRedactor(["sk-123456"]);
    const untouched = { content: [{ type: "text", text: "fine" }], meta: { n: 1 } };
    const value = { content: [{ type: "text", text: "key sk-123456" }], untouched, "sk-123456": true, when: new Date(0) };
    const out = redactor.redactValue(value);
    assert.deepEqual(out, { content: [{ type: "text", text: `key ${REDACTED}` }], untouched, [REDACTED]: true, when: new Date(0) });
    assert.equal(out.untouched, untouched, "a part with no secret is the same object");
    assert.equal(value.content[0]!.text, "key sk-123456", "the input is not changed");
    assert.equal(redactor.redactValue(untouched), untouched);
  });

  it("fails closed past the walk's depth: a deep secret is redacted, a subtree that cannot be written is replaced", () => {
    const secret = "sk-deep-123456";
    const redactor = createSecretRedactor([secret]);
    const nest = (depth: number, bottom: unknown): unknown => {
      let value = bottom;
      for (let i = 0; i < depth; i++) value = { a: value };
      return value;
    };
    for (const depth of [63, 64, 65, 100, 1_000]) {
      const out = redactor.redactValue({ structuredContent: nest(depth, { key: secret, [secret]: [secret] }) });
      const text = JSON.stringify(out);
      assert.ok(!text.includes(secret), `the secret, ${depth} deep, was left in`);
      assert.deepEqual(out, { structuredContent: nest(depth, { key: REDACTED, [REDACTED]: [REDACTED] }) }, `${depth} deep`);
    }
    // A deep part with no secret is the same object; one too deep to write as JSON (or a cycle) is replaced whole.
    const clean = nest(100, { key: "fine" });
    assert.equal(redactor.redactValue(clean), clean);
    const cycle: Record<string, unknown> = { key: secret };
    cycle.self = cycle;
    assert.deepEqual(redactor.redactValue(nest(70, cycle)), nest(64, REDACTED));
    const tooDeep = nest(200_000, secret); // JSON.stringify overflows the stack on it
    assert.deepEqual(redactor.redactValue({ top: tooDeep }), { top: nest(63, REDACTED) });
  });

  it("is the identity when it knows nothing", () => {
    const redactor = createSecretRedactor();
    const value = { a: "x" };
    assert.equal(redactor.empty, true);
    assert.equal(redactor.redactValue(value), value);
    assert.equal(redactor.redact("text"), "text");
    redactor.learn("now-a-secret");
    assert.equal(redactor.empty, false);
    assert.equal(redactor.redact("now-a-secret"), REDACTED);
  });
});
