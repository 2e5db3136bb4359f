// A file that is not valid YAML, JSON or JavaScript is a problem like any other: reported with the file, line and
// column and a reason in mcp-host's words — never with the text of the line, which may be a secret.
import assert from "node:assert/strict";
import { join } from "node:path";
import { afterEach, describe, it } from "node:test";
import { loadConfig } from "../../src/config/index.js";
import { jsonSyntaxError } from "../../src/config/json-syntax.js";
import { project, refused, removeProjects } from "./config-kit.js";

afterEach(removeProjects);

async function syntaxProblem(files: Record<string, string>, secret: string): Promise<{ cwd: string; message: string }> {
  const cwd = await project(files);
  const r = await refused(loadConfig({ cwd, env: {} }), [["CONFIG_INVALID", "(root)"]], [secret]);
  return { cwd, message: r.problems[0]!.message };
}

describe("syntax errors in the config file", () => {
  it("reports bad YAML with the file, line and column, not the line's text", async () => {
    const yaml = "http:\n  port: 3000\nservers:\n  kb: { url: https://kb.example.com/mcp, headers: { K: sk-YAML-SECRET }\n";
    const { cwd, message } = await syntaxProblem({ ".mcp-hostrc.yaml": yaml }, "sk-YAML-SECRET");
    assert.equal(message, `${join(cwd, ".mcp-hostrc.yaml")}: line 5, column 1: not valid YAML: the indentation is inconsistent, or a { or [ is not closed`);
  });

  it("reports a YAML key written twice (instead of letting the last one win)", async () => {
    const { cwd, message } = await syntaxProblem({ ".mcp-hostrc": "http:\n  port: 3000\n  port: 3001\n" }, "3001");
    assert.equal(message, `${join(cwd, ".mcp-hostrc")}: line 3, column 3: not valid YAML: a key appears twice in one map`);
  });

  it("reports a tab used for indentation", async () => {
    const { message } = await syntaxProblem({ ".mcp-hostrc.yml": "http:\n\tport: 3000\n" }, "3000");
    assert.match(message, /\.mcp-hostrc\.yml: line 2, column 1: not valid YAML: /);
  });

  it("reports bad JSON with the line and column, not V8's quote of the text", async () => {
    const json = '{\n  "servers": {\n    "kb": { "url": "https://kb.example.com/mcp", "headers": { "K": sk-JSON-SECRET } }\n  }\n}\n';
    const { cwd, message } = await syntaxProblem({ ".mcp-hostrc.json": json }, "sk-JSON-SECRET");
    assert.equal(
      message,
      `${join(cwd, ".mcp-hostrc.json")}: line 3, column 68: not valid JSON: expected a value (a string in double quotes, a number, true, false, null, a list or a map)`,
    );
  });

  it("reports a broken package.json the search reads", async () => {
    const { cwd, message } = await syntaxProblem({ "package.json": '{ "name": "app", }' }, "app");
    assert.equal(
      message,
      `${join(cwd, "package.json")}: line 1, column 18: not valid JSON: expected a key in double quotes (a trailing comma, or an unquoted key?)`,
    );
  });

  it("reports a JavaScript syntax error by its kind, not by the source (node names no line for it)", async () => {
    const { cwd, message } = await syntaxProblem(
      { "mcp-host.config.mjs": "export default {\n  http: { port: 3000 },\n  token: sk JS_SECRET,\n};\n" },
      "JS_SECRET",
    );
    const file = join(cwd, "mcp-host.config.mjs");
    assert.equal(message, `${file}: could not be imported: SyntaxError; run \`node ${file}\` to see the full error`);
  });
});

describe("jsonSyntaxError", () => {
  it("accepts valid JSON, with or without a byte-order mark", () => {
    for (const text of ['{"a": [1, -2.5e3, true, false, null, "x\\n\\u00e9"]}', "\uFEFF{}", " [] ", '"s"'])
      assert.equal(jsonSyntaxError(text), undefined, text);
  });

  it("locates each kind of mistake", () => {
    const cases: [string, number, number, string][] = [
      ['{"a": 1,}', 1, 9, "expected a key in double quotes (a trailing comma, or an unquoted key?)"],
      ['{"a": 1\n "b": 2}', 2, 2, 'expected "," or "}" after a value'],
      ['{"a": 1, "a": 2}', 1, 10, 'the key "a" appears twice in one object'],
      ['{"a": "line\nbreak"}', 1, 12, "a string contains a raw control character or line break; write it as an escape such as \\n"],
      ['{"a": "\\q"}', 1, 8, "a string contains an unknown escape"],
      ['{"a": ', 1, 7, "the file ends before the JSON value does"],
      ["[1, 2] 3", 1, 8, "there is more text after the JSON value"],
      ["[1 2]", 1, 4, 'expected "," or "]" after a value'],
      ["{a: 1}", 1, 2, "expected a key in double quotes (a trailing comma, or an unquoted key?)"],
    ];
    for (const [text, line, column, reason] of cases) assert.deepEqual(jsonSyntaxError(text), { line, column, reason }, text);
  });
});
