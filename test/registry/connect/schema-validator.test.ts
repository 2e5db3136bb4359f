// The JSON Schema validator each upstream connection's SDK client is given (src/registry/connect/schema-validator.ts):
// the SDK's own would run an upstream's patterns on a backtracking engine. This one answers the catastrophic family
// at once, checks formats in linear time, reads each schema's draft, and refuses a pattern it cannot run.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { LinearSchemaValidator } from "../../../src/registry/connect/schema-validator.js";
import { CATASTROPHIC_PATTERNS, FORMAT_CASES, spelled } from "../../helpers/catastrophic-patterns.js";

describe("the SDK client's schema validator", () => {
  const validator = new LinearSchemaValidator();

  it("answers the catastrophic patterns and formats at once", { timeout: 20_000 }, () => {
    for (const p of CATASTROPHIC_PATTERNS) {
      const check = validator.getValidator({ type: "string", pattern: p.pattern });
      assert.equal(check(spelled(p.attack)).valid, false, p.pattern);
      assert.deepEqual(check(p.match), { valid: true, data: p.match, errorMessage: undefined });
    }
    const url = validator.getValidator({ type: "string", format: "url" });
    assert.match(url(spelled(FORMAT_CASES[0]!.attack)).errorMessage ?? "", /must match format "url"/);
  });

  it("reads the draft a schema names", () => {
    // A draft-07 tuple (items as a list), which 2020-12 spells prefixItems: read as draft 07, the second item is refused.
    const tuple = { $schema: "http://json-schema.org/draft-07/schema#", type: "array", items: [{ type: "string" }], additionalItems: false };
    const draft07 = validator.getValidator(tuple as never);
    assert.equal(draft07(["a"]).valid, true);
    assert.equal(draft07(["a", "b"]).valid, false);
  });

  it("refuses a pattern no linear engine can run (the schema does not compile)", () => {
    assert.throws(() => validator.getValidator({ type: "string", pattern: "(a)\\1" }), /it uses a backreference/);
  });
});
