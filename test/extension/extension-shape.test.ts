// The shape check every extension passes before it is registered: what is accepted, and for each wrong shape the
// error code, the source and extension it names, and the fix it suggests.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { isMcpHostError } from "../../src/errors.js";
import { isExtensionLike, validateExtension } from "../../src/extension/validate.js";

const SOURCE = 'package "fixture" (./dist/ext.js)';
const handler = () => ({ content: [] });

function invalid(value: unknown): { message: string; extension: string | undefined } {
  try {
    validateExtension(value, SOURCE);
  } catch (error) {
    assert.ok(isMcpHostError(error, "EXTENSION_INVALID"), `expected EXTENSION_INVALID, got ${String(error)}`);
    assert.ok(error.message.startsWith(`${SOURCE}: `), error.message);
    return { message: error.message, extension: error.extension };
  }
  assert.fail("validateExtension accepted a wrong shape");
}

describe("validateExtension accepts", () => {
  it("a minimal extension, returning the same object", () => {
    const extension = { name: "clock" };
    assert.equal(validateExtension(extension, SOURCE), extension);
  });
  it("an extension using every contribution and hook", () => {
    const extension = {
      name: "full",
      version: "1.0.0",
      description: "everything",
      activation: "onToolset",
      toolsets: [{ name: "t", default: false, always: false }],
      tools: [{ name: "a", toolset: "t", handler, inputSchema: { type: "array" } }],
      resources: [{ uri: "notes://a", name: "a", read: () => ({ contents: [] }) }],
      resourceTemplates: [{ uriTemplate: "notes://{id}", name: "n", read: () => ({ contents: [] }), list: () => [] }],
      prompts: [{ name: "p", arguments: [{ name: "x" }], get: () => ({ messages: [] }) }],
      toolExtensions: [
        { tool: "a", wrap: (next: unknown) => next },
        { tool: "b", description: "only text" },
      ],
      authStrategies: { token: () => ({ headers: () => ({}) }) },
      setup: async () => {},
      onServer: () => {},
      dispose: async () => {},
    };
    assert.equal(validateExtension(extension, SOURCE), extension);
  });
  it("a tool whose schema is not object-rooted (schemas are the host's to check, per tool)", () => {
    assert.doesNotThrow(() => validateExtension({ name: "x", tools: [{ name: "a", handler, inputSchema: 42 }] }, SOURCE));
  });
  it("an extension made by a class, keeping its prototype hooks", () => {
    class Clock {
      name = "clock";
      async setup() {}
    }
    const clock = new Clock();
    assert.equal(validateExtension(clock, SOURCE), clock);
  });
});

describe("validateExtension refuses", () => {
  it("something that is not an object, saying what it got", () => {
    assert.match(invalid(undefined).message, /expected an extension object, got undefined; export an object like defineExtension/);
    assert.match(invalid("clock").message, /got the string "clock"/);
    assert.match(invalid(() => ({})).message, /got a function; a factory is called only when it is a module's export/);
    assert.match(invalid([{ name: "a" }]).message, /got an array; pass each extension of the array on its own/);
  });
  it("a missing or empty name, without naming an extension", () => {
    const missing = invalid({ tools: [] });
    assert.equal(
      missing.message,
      `${SOURCE}: the extension has a problem: name must be a non-empty string (got undefined); give the extension a name, e.g. name: "my-extension".`,
    );
    assert.equal(missing.extension, undefined);
    assert.match(invalid({ name: "  " }).message, /name must be a non-empty string \(got the string " {2}"\)/);
  });
  it("contribution fields that are not arrays", () => {
    for (const field of ["toolsets", "tools", "resources", "resourceTemplates", "prompts", "toolExtensions"]) {
      const { message, extension } = invalid({ name: "x", [field]: { a: 1 } });
      assert.equal(
        message,
        `${SOURCE}: extension "x" has a problem: ${field} must be an array when present (got an object); write ${field}: [ … ] or leave it out.`,
      );
      assert.equal(extension, "x");
    }
  });
  it("a tool without a name or a handler, naming the tool by index", () => {
    const { message } = invalid({ name: "x", tools: [{ name: "ok", handler }, { name: "", handler }, { name: "search" }] });
    assert.equal(
      message,
      `${SOURCE}: extension "x" has 2 problems: tools[1]: name must be a non-empty string (got an empty string); e.g. name: "search"; ` +
        'tools[2] ("search"): handler must be a function (got undefined); e.g. handler: (args, ctx) => ({ content: [{ type: "text", text: "…" }] }).',
    );
  });
  it("a tool whose toolset is not a non-empty string", () => {
    assert.match(
      invalid({ name: "x", tools: [{ name: "a", handler, toolset: 3 }] }).message,
      /tools\[0\] \("a"\): toolset must be a non-empty string when present \(got the number 3\)/,
    );
  });
  it("an item that is not an object", () => {
    assert.match(invalid({ name: "x", tools: [null] }).message, /tools\[0\] must be an object \(got null\)/);
  });
  it("a toolset without a name, or with flags that are not booleans", () => {
    assert.match(invalid({ name: "x", toolsets: [{}] }).message, /toolsets\[0\]: name must be a non-empty string \(got undefined\)/);
    assert.match(
      invalid({ name: "x", toolsets: [{ name: "t", default: "no" }] }).message,
      /toolsets\[0\] \("t"\): default must be true or false \(got the string "no"\)/,
    );
  });
  it("resources without uri, name or read", () => {
    const { message } = invalid({ name: "x", resources: [{}] });
    assert.match(
      message,
      /3 problems: resources\[0\]: uri must be a non-empty string .*; resources\[0\]: name must be .*; resources\[0\]: read must be a function/,
    );
  });
  it("resource templates without uriTemplate, name or read, or with a list that is not a function", () => {
    assert.match(
      invalid({ name: "x", resourceTemplates: [{}] }).message,
      /3 problems: resourceTemplates\[0\]: uriTemplate must be .*name must be .*read must be a function/,
    );
    assert.match(
      invalid({ name: "x", resourceTemplates: [{ uriTemplate: "n://{id}", name: "n", read: handler, list: [] }] }).message,
      /resourceTemplates\[0\] \("n"\): list must be a function \(got an array\)/,
    );
  });
  it("prompts without name or get, or with arguments that are not an array", () => {
    assert.match(invalid({ name: "x", prompts: [{}] }).message, /2 problems: prompts\[0\]: name must be .*; prompts\[0\]: get must be a function/);
    assert.match(
      invalid({ name: "x", prompts: [{ name: "p", get: handler, arguments: {} }] }).message,
      /prompts\[0\] \("p"\): arguments must be an array when present/,
    );
  });
  it("tool extensions without a tool name, or whose wrap is not a function", () => {
    assert.match(
      invalid({ name: "x", toolExtensions: [{ wrap: handler }] }).message,
      /toolExtensions\[0\]: tool must be a non-empty string \(got undefined\); e\.g\. tool: "search" \(the name of the tool to change\)/,
    );
    assert.match(
      invalid({ name: "x", toolExtensions: [{ tool: "a", wrap: "x" }] }).message,
      /toolExtensions\[0\] \("a"\): wrap must be a function \(got the string "x"\)/,
    );
  });
  it("an activation other than eager or onToolset", () => {
    assert.match(
      invalid({ name: "x", activation: "lazy" }).message,
      /activation must be "eager" or "onToolset" \(got the string "lazy"\); write activation: "onToolset"/,
    );
  });
  it("hooks that are not functions", () => {
    for (const hook of ["setup", "onServer", "dispose"]) {
      assert.match(invalid({ name: "x", [hook]: true }).message, new RegExp(`${hook} must be a function when present \\(got a boolean true\\)`));
    }
  });
  it("a version or description that is not a string, and auth strategies that are not functions", () => {
    assert.match(invalid({ name: "x", version: 1 }).message, /version must be a string when present \(got the number 1\)/);
    assert.match(invalid({ name: "x", authStrategies: { b: 1, a: handler } }).message, /authStrategies\.b must be a function/);
    assert.match(invalid({ name: "x", authStrategies: [] }).message, /authStrategies must be an object/);
  });
  it("reporting every problem at once, in a stable order", () => {
    const { message } = invalid({ name: "x", activation: 1, setup: 1, tools: [{}], prompts: 2 });
    assert.match(message, /has 5 problems: activation .*; setup .*; tools\[0\]: name .*; tools\[0\]: handler .*; prompts must be an array/);
  });
});

describe("isExtensionLike", () => {
  it("is true for an object with a string name or any contribution or hook", () => {
    for (const value of [
      { name: "x" },
      { tools: [] },
      { toolsets: [] },
      { toolExtensions: [] },
      { setup: handler },
      { dispose: handler },
      { onServer: handler },
    ]) {
      assert.equal(isExtensionLike(value), true, JSON.stringify(Object.keys(value)));
    }
  });
  it("is false for a factory, an array, null, a primitive, or an object with none of the fields", () => {
    function factory() {
      return { name: "x" };
    }
    for (const value of [factory, () => ({}), [{ name: "x" }], null, undefined, "x", 3, {}, { foo: 1 }, { name: 3 }]) {
      assert.equal(isExtensionLike(value), false, String(value));
    }
  });
});
