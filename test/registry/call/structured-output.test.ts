// §10.13: when a tool declares an outputSchema, its structuredContent is validated; a violation becomes an isError
// result naming the keyword, keeping the raw payload up to 2 KiB; `structuredContent: "lenient"` only warns.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ERROR_META_KEY, registryErrorCode, toText, type RegistryErrorMeta } from "../../../src/registry/index.js";
import { ListingChecks, MAX_PAYLOAD_BYTES, OutputChecks } from "../../../src/registry/call/structured-output.js";
import { memoryLogger, silentLogger } from "../../../src/logger.js";
import { legacyStdio, logsOf, registryHarness } from "../../helpers/registry/harness.js";

const TOOLS = ["structured_bad", "structured_ok", "structured_missing", "is_error"];

describe("structured output", () => {
  const h = registryHarness();

  it("passes valid structured content through", async () => {
    const registry = h.make([legacyStdio("fx", { tools: TOOLS })]);
    assert.deepEqual(await registry.callTool("structured_ok"), { content: [{ type: "text", text: "count is 3" }], structuredContent: { count: 3 } });
  });

  it("turns a violation into an error naming the keyword, with the payload cut to 2 KiB", async () => {
    const registry = h.make([legacyStdio("fx", { tools: TOOLS })]);
    const result = await registry.callTool("structured_bad");
    assert.equal(result.isError, true);
    assert.equal(registryErrorCode(result), "MCP_OUTPUT_INVALID");
    // The payload is cut 20 bytes short of 2 KiB to leave room for the marker.
    const payload = `{"count":"three","note":"${"x".repeat(MAX_PAYLOAD_BYTES - 20 - 25)}… [cut at 2 KiB]`;
    assert.ok(Buffer.byteLength(payload) <= MAX_PAYLOAD_BYTES);
    assert.equal(
      toText(result),
      `tool "structured_bad" on server "fx" returned structured content that does not match its outputSchema (keyword "type": /count must be integer); payload: ${payload}`,
    );
    const meta = (result._meta as Record<string, RegistryErrorMeta>)[ERROR_META_KEY]!;
    assert.deepEqual(meta, { code: "MCP_OUTPUT_INVALID", server: "fx", tool: "structured_bad", payload });
    assert.equal(result.structuredContent, undefined);
  });

  it("treats a missing structuredContent as a violation, and leaves upstream errors alone", async () => {
    const registry = h.make([
      legacyStdio("fx", { tools: [...TOOLS.slice(0, 3), { name: "is_error", behaviour: "is_error", outputSchema: { type: "object" } }] }),
    ]);
    const missing = await registry.callTool("structured_missing");
    assert.equal(
      toText(missing),
      'tool "structured_missing" on server "fx" returned structured content that does not match its outputSchema (keyword "structuredContent": the result has no structuredContent although the tool declares an outputSchema)',
    );
    assert.deepEqual(await registry.callTool("is_error"), { content: [{ type: "text", text: "upstream says no" }], isError: true });
  });

  it("only warns under structuredContent: lenient", async () => {
    const registry = h.make([legacyStdio("fx", { tools: TOOLS }, { structuredContent: "lenient" })]);
    const result = await registry.callTool("structured_bad");
    assert.equal(result.isError, undefined);
    assert.deepEqual((result.structuredContent as { count: unknown }).count, "three");
    assert.deepEqual(logsOf(h.records, "fx", "warn"), [
      'tool "structured_bad" returned structured content that does not match its outputSchema (keyword "type": /count must be integer)',
    ]);
  });

  it("compiles a tool's validator once per listing", () => {
    const checks = new OutputChecks(silentLogger);
    const tool = { name: "t", inputSchema: { type: "object" as const }, outputSchema: { type: "object" as const, properties: { n: { type: "integer" } } } };
    let compiled = 0;
    const instance = (checks as unknown as { instance: (k: string) => { compile: (s: unknown) => unknown } }).instance.bind(checks);
    (checks as unknown as { instance: unknown }).instance = (kind: string) => {
      const ajv = instance(kind);
      return { compile: (schema: unknown) => (compiled++, ajv.compile(schema)) };
    };
    for (let i = 0; i < 3; i++) assert.equal(checks.check(tool, { content: [], structuredContent: { n: i } }), undefined);
    assert.equal(checks.check(tool, { content: [], structuredContent: { n: "x" } })?.keyword, "type");
    assert.equal(compiled, 1);
  });

  it("checks patterns in linear time: a catastrophic payload is refused at once", { timeout: 20_000 }, () => {
    const checks = new OutputChecks(silentLogger);
    const tool = {
      name: "t",
      inputSchema: { type: "object" as const },
      outputSchema: { type: "object" as const, properties: { s: { type: "string", pattern: "^(a+)+$" } } },
    };
    const violation = checks.check(tool, { content: [], structuredContent: { s: `${"a".repeat(64)}!` } });
    assert.equal(violation?.keyword, "pattern");
    assert.equal(checks.check(tool, { content: [], structuredContent: { s: "aaa" } }), undefined);
  });

  it("leaves a pattern no linear engine can run unenforced, with a warning, and checks the rest", () => {
    const { logger, records } = memoryLogger("warn");
    const checks = new OutputChecks(logger);
    const outputSchema = {
      type: "object" as const,
      properties: { s: { type: "string", pattern: "^(?!admin$)" }, n: { type: "integer" } },
      required: ["n"],
    };
    const tool = { name: "t", inputSchema: { type: "object" as const }, outputSchema };
    assert.equal(checks.check(tool, { content: [], structuredContent: { s: "admin", n: 1 } }), undefined);
    assert.equal(checks.check(tool, { content: [], structuredContent: { s: "admin", n: "one" } })?.keyword, "type");
    assert.deepEqual(
      records.map((r) => [r.level, r.message, r.data]),
      [
        [
          "warn",
          'tool "t" declares an outputSchema pattern that cannot be checked in linear time (it uses a lookahead ("(?!")); that pattern is not enforced',
          { pattern: "^(?!admin$)" },
        ],
      ],
    );
  });

  it("keeps one set of validators per listing, and starts afresh with a new listing", () => {
    const checks = new ListingChecks();
    const [first, second] = [{ tools: [] }, { tools: [] }];
    assert.equal(checks.of(first, silentLogger), checks.of(first, silentLogger));
    assert.notEqual(checks.of(second, silentLogger), checks.of(first, silentLogger));
    assert.notEqual(checks.of(undefined, silentLogger), checks.of(undefined, silentLogger), "no listing, nothing kept");
  });
});
