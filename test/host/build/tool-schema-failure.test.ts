// Tool schemas (docs/design.md §4 rule 5): JSON Schema and zod input both work and are validated before the handler
// runs; a schema that is not object-rooted or does not compile leaves that one tool out with a
// TOOL_SCHEMA_INVALID warning naming the extension — never fatal — and an external $ref is never fetched.
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { z } from "zod";
import { defineTool } from "../../../src/extension/define.js";
import type { McpExtension, ToolSpec } from "../../../src/extension/types.js";
import type { McpHost } from "../../../src/host/host.js";
import type { LogRecord } from "../../../src/logger.js";
import { connectInProcess } from "../../helpers/in-process.js";
import { build, callError, callOk, logsWithCode, startedHost, textTool } from "../../helpers/kit.js";

const bystander: McpExtension = { name: "bystander", tools: [textTool("bystander_tool")] };

let host: McpHost | undefined;
afterEach(async () => {
  await host?.stop();
  host = undefined;
});

/** Starts a host with `tool` in extension "schemas" (beside a good tool) and a bystander extension. */
async function withTool(tool: ToolSpec<any>): Promise<{ host: McpHost; records: LogRecord[] }> {
  const started = await startedHost([{ name: "schemas", tools: [tool, textTool("good_tool")] }, bystander]);
  host = started.host;
  return started;
}

/** Asserts the tool was left out, warned about once per build, and that everything else serves. */
async function assertLeftOut(records: LogRecord[], tool: string, reason: string | RegExp): Promise<void> {
  const built = await build(host!, "");
  assert.deepEqual(built.toolNames, ["bystander_tool", "good_tool", "list_server_toolsets"]);
  const warnings = logsWithCode(records, "TOOL_SCHEMA_INVALID");
  assert.equal(warnings.length, 1);
  assert.equal(warnings[0]!.level, "warn");
  assert.equal(warnings[0]!.data?.extension, "schemas");
  assert.equal(warnings[0]!.data?.tool, tool);
  assert.equal(warnings[0]!.data?.toolset, "schemas");
  const prefix = `[extension schemas] tool "${tool}" (toolset "schemas") is left out: `;
  assert.ok(warnings[0]!.message.startsWith(prefix), warnings[0]!.message);
  const rest = warnings[0]!.message.slice(prefix.length);
  if (typeof reason === "string") assert.equal(rest, reason);
  else assert.match(rest, reason);
  const { client, close } = await connectInProcess(host!, "");
  try {
    assert.equal(await callOk(client, "good_tool"), "good_tool ok");
    assert.equal(await callOk(client, "bystander_tool"), "bystander_tool ok");
    await assert.rejects(client.callTool({ name: tool, arguments: {} }), /Unknown tool/);
  } finally {
    await close();
  }
}

describe("a tool schema that cannot be used", () => {
  it("leaves out a tool whose input schema is not object-rooted", async () => {
    const { records } = await withTool(textTool("listy", { inputSchema: { type: "array", items: { type: "string" } } }));
    await assertLeftOut(records, "listy", `its input schema's root is "array"; a tool's input schema must be an object (type: "object")`);
  });

  it("leaves out a tool whose zod input schema is not an object", async () => {
    const { records } = await withTool(textTool("stringy", { inputSchema: z.string() }));
    await assertLeftOut(records, "stringy", `its input schema's root is "string"; a tool's input schema must be an object (type: "object")`);
  });

  it("leaves out a tool whose input schema does not compile", async () => {
    const { records } = await withTool(textTool("nonsense", { inputSchema: { type: "object", properties: { a: { type: "nonsense" } } } }));
    await assertLeftOut(
      records,
      "nonsense",
      /^its schema does not compile: schema is invalid: data\/properties\/a\/type must be equal to one of the allowed values/,
    );
  });

  it("leaves out a tool whose output schema does not compile", async () => {
    const { records } = await withTool(textTool("bad_output", { outputSchema: { type: "object", properties: { a: { minimum: "ten" } } } }));
    await assertLeftOut(records, "bad_output", /^its schema does not compile: schema is invalid: data\/properties\/a\/minimum must be number/);
  });

  it("leaves out a tool whose schema has an external $ref, without fetching it", async () => {
    const fetches: string[] = [];
    const realFetch = globalThis.fetch;
    globalThis.fetch = (async (input: string | URL | Request) => {
      fetches.push(String(input));
      throw new Error("no network in this test");
    }) as typeof fetch;
    try {
      const { records } = await withTool(
        textTool("remote_ref", { inputSchema: { type: "object", properties: { a: { $ref: "https://schemas.example.com/a.json" } } } }),
      );
      await build(host!, "");
      assert.deepEqual(
        fetches.filter((url) => url.includes("schemas.example.com")),
        [],
      );
      await assertLeftOut(records, "remote_ref", /^its schema does not compile: can't resolve reference https:\/\/schemas\.example\.com\/a\.json/);
    } finally {
      globalThis.fetch = realFetch;
    }
  });
});

describe("a tool schema whose pattern needs a backtracking engine", () => {
  const linear = "mcp-host runs schema patterns on a linear-time engine (RE2) — rewrite it without lookaround or backreferences";
  const cases: Array<{ what: string; tool: ToolSpec<any>; reason: string }> = [
    {
      what: "a backreference in a property's pattern",
      tool: textTool("backref", { inputSchema: { type: "object", properties: { q: { type: "string", pattern: "^(a)\\1$" } } } }),
      reason: `its input schema's pattern at /properties/q/pattern ("^(a)\\\\1$") cannot be checked in linear time: it uses a backreference (\\1); ${linear}`,
    },
    {
      what: "a lookbehind in a patternProperties key",
      tool: textTool("keyed", { inputSchema: { type: "object", patternProperties: { "^(?<=x)y$": { type: "string" } } } }),
      reason: `its input schema's pattern at /patternProperties/^(?<=x)y$ ("^(?<=x)y$") cannot be checked in linear time: it uses a lookbehind ("(?<="); ${linear}`,
    },
    {
      what: "a lookahead in a $defs entry reached through items",
      tool: textTool("deep", {
        inputSchema: {
          type: "object",
          properties: { tags: { type: "array", items: { $ref: "#/$defs/tag" } } },
          $defs: { tag: { type: "string", pattern: "^(?!x)" } },
        },
      }),
      reason: `its input schema's pattern at /$defs/tag/pattern ("^(?!x)") cannot be checked in linear time: it uses a lookahead ("(?!"); ${linear}`,
    },
    {
      what: "a lookahead in the output schema",
      tool: textTool("out", { outputSchema: { type: "object", properties: { id: { type: "string", pattern: "^(?=\\d)" } } } }),
      reason: `its output schema's pattern at /properties/id/pattern ("^(?=\\\\d)") cannot be checked in linear time: it uses a lookahead ("(?="); ${linear}`,
    },
  ];
  for (const { what, tool, reason } of cases) {
    it(`leaves the tool out: ${what}, named by its keyword path`, async () => {
      const { records } = await withTool(tool);
      await assertLeftOut(records, tool.name, reason);
    });
  }

  it("leaves the tool out: a pattern JavaScript's u flag refuses (ajv reads patterns so), named by its keyword path", async () => {
    const { records } = await withTool(textTool("escape", { inputSchema: { type: "object", properties: { q: { type: "string", pattern: "^\\-$" } } } }));
    await assertLeftOut(
      records,
      "escape",
      'its input schema\'s pattern at /properties/q/pattern ("^\\\\-$") is not a valid pattern (JSON Schema patterns are read with the u flag): Invalid regular expression: /^\\-$/u: Invalid escape',
    );
  });

  it('serves a tool whose "pattern" keys are data or property names, not patterns', async () => {
    const inputSchema = {
      type: "object",
      properties: {
        pattern: { type: "string", default: "(?=x)" },
        rule: { enum: [{ pattern: "(a)\\1" }], const: { pattern: "(?<=y)" }, examples: [{ pattern: "(?!z)" }] },
      },
    };
    const started = await startedHost([{ name: "schemas", tools: [textTool("data", { inputSchema })] }]);
    host = started.host;
    const { client, close } = await connectInProcess(host, "");
    try {
      assert.equal(await callOk(client, "data", { pattern: "(?=x)" }), "data ok");
    } finally {
      await close();
    }
    assert.deepEqual(logsWithCode(started.records, "TOOL_SCHEMA_INVALID"), []);
  });
});

describe("tool input schemas that work", () => {
  const tools: McpExtension = {
    name: "calc",
    tools: [
      defineTool({
        name: "json_add",
        inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"], additionalProperties: false },
        handler: (args) => ({ content: [{ type: "text", text: String((args.a as number) + (args.b as number)) }] }),
      }),
      defineTool({
        name: "zod_add",
        inputSchema: z.object({ a: z.number(), b: z.number().default(10) }),
        handler: ({ a, b }) => ({ content: [{ type: "text", text: String(a + b) }] }),
      }),
      { name: "no_schema", handler: (args) => ({ content: [{ type: "text", text: JSON.stringify(args) }] }) },
    ],
  };

  for (const era of ["legacy", "modern"] as const) {
    it(`validates JSON Schema and zod input before the handler runs (${era} era)`, async () => {
      ({ host } = await startedHost([tools]));
      const { client, close } = await connectInProcess(host, "", { era });
      try {
        const listed = Object.fromEntries((await client.listTools()).tools.map((t) => [t.name, t.inputSchema]));
        assert.deepEqual(listed.json_add, {
          type: "object",
          properties: { a: { type: "number" }, b: { type: "number" } },
          required: ["a", "b"],
          additionalProperties: false,
        });
        assert.equal(listed.zod_add?.type, "object");
        assert.deepEqual(Object.keys(listed.zod_add?.properties ?? {}), ["a", "b"]);
        assert.deepEqual(listed.no_schema, { type: "object", properties: {} });

        assert.equal(await callOk(client, "json_add", { a: 1, b: 2 }), "3");
        assert.equal(await callOk(client, "zod_add", { a: 1, b: 2 }), "3");
        assert.equal(await callOk(client, "zod_add", { a: 1 }), "11"); // zod's default reached the handler
        assert.equal(await callOk(client, "no_schema"), "{}");
        assert.equal(await callError(client, "json_add", { a: "one", b: 2 }), 'Invalid arguments for tool "json_add": "/a" must be number (keyword "type")');
        assert.equal(
          await callError(client, "json_add", { a: 1 }),
          `Invalid arguments for tool "json_add": the arguments must have required property 'b' (keyword "required")`,
        );
        assert.equal(
          await callError(client, "zod_add", { a: "one" }),
          'Invalid arguments for tool "zod_add": "a": Invalid input: expected number, received string',
        );
      } finally {
        await close();
      }
    });
  }
});
