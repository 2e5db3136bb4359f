// Issue 17, class 1 — no schema can stall the host. The real command serves an extension whose tools' JSON Schemas
// carry the patterns and formats a backtracking engine chokes on, and a gateway upstream whose input and output
// schemas carry the same; a real client calls each with the input that chokes it, while /healthz is asked at the
// same time. Each call must end with a clear validation error and /healthz must be answered: before the fix the
// host's one thread spends hours in a regular expression, and the per-test timeout (a bound, not a measurement)
// fails the test. A pattern no linear engine can run leaves its tool out (input) or goes unenforced (upstream output).
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/client";
import { CATASTROPHIC_PATTERNS, FORMAT_CASES, spelled } from "../../helpers/catastrophic-patterns.js";
import { REPO, assertBuilt, startCli, type CliProcess } from "../../helpers/cli-process.js";
import { Cleanup, connectV2, lastRpcMessage, listedTools, modernBody, modernHeaders, raw } from "../../helpers/http-host.js";

const FIXTURE = join(REPO, "test", "fixtures", "upstream", "patterned-stdio.mjs");
/** Far more than a linear engine needs on the largest input (a megabyte), far less than a backtracking one. */
const BOUND = { timeout: 20_000 };

const stringSchema = (keyword: Record<string, string>) => ({
  type: "object",
  properties: { value: { type: "string", ...keyword } },
  required: ["value"],
});

/** The extension: one tool per pattern and per format, each echoing what it was given. */
function extensionSource(): string {
  const tools = [
    ...CATASTROPHIC_PATTERNS.map((p) => ({ name: `ext_${p.name}`, inputSchema: stringSchema({ pattern: p.pattern }) })),
    ...FORMAT_CASES.map((f) => ({ name: `ext_format_${f.format.replace(/-/g, "_")}`, inputSchema: stringSchema({ format: f.format }) })),
    { name: "ext_lookahead", inputSchema: stringSchema({ pattern: "^(?!admin$).+$" }) },
  ];
  return `const tools = ${JSON.stringify(tools)};
export default {
  name: "patterns",
  toolsets: [{ name: "patterns" }],
  tools: tools.map((t) => ({ ...t, handler: (args) => ({ content: [{ type: "text", text: "ran " + t.name + " on " + args.value.length }] }) })),
};
`;
}

/** The upstream: the same patterns on its input, and on its output with a value that chokes them. */
function upstreamConfig(): Record<string, unknown> {
  return {
    tools: [
      ...CATASTROPHIC_PATTERNS.map((p) => ({ name: `in_${p.name}`, inputSchema: stringSchema({ pattern: p.pattern }) })),
      ...CATASTROPHIC_PATTERNS.map((p) => ({ name: `out_${p.name}`, outputSchema: stringSchema({ pattern: p.pattern }), value: p.attack })),
      { name: "out_match", outputSchema: stringSchema({ pattern: CATASTROPHIC_PATTERNS[0]!.pattern }), value: CATASTROPHIC_PATTERNS[0]!.match },
      { name: "out_format_url", outputSchema: stringSchema({ format: "url" }), value: FORMAT_CASES[0]!.attack },
      { name: "in_lookahead", inputSchema: stringSchema({ pattern: "^(?!admin$).+$" }) },
      { name: "out_lookahead", outputSchema: stringSchema({ pattern: "^(?!admin$).+$" }), value: "admin" },
    ],
  };
}

let served: { cli: CliProcess; client: Client; url: URL; healthz: URL };
const cleanup = new Cleanup();

before(async () => {
  assertBuilt();
  const dir = mkdtempSync(join(tmpdir(), "mcp-host-patterns-"));
  cleanup.add(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "patterns-project", type: "module", mcpExtensions: { patterns: "./patterns.js" } }));
  writeFileSync(join(dir, "patterns.js"), extensionSource());
  const servers = { patterned: { command: process.execPath, args: [FIXTURE, JSON.stringify(upstreamConfig())] } };
  writeFileSync(join(dir, "mcp-host.config.json"), JSON.stringify({ servers, startupTimeoutMs: 20_000 }));
  const cli = startCli(cleanup, ["serve", "--port", "0", "--cwd", dir, "--log-level", "warn"]);
  const line = await cli.line(/is serving .* at http:\/\//);
  const url = new URL(line.slice(line.lastIndexOf("http://")));
  const { client } = await connectV2(cleanup, url, "modern");
  served = { cli, client, url, healthz: new URL("/healthz", url) };
});
after(() => cleanup.run());

/** The text of a result's content. */
function textOf(result: unknown): string {
  const content = (result as { content?: Array<{ type: string; text?: string }> }).content ?? [];
  return content.map((c) => c.text ?? "").join("\n");
}

/** Calls `name` while /healthz is asked; both must be answered. Returns the call's result. */
async function callBesideHealthz(name: string, value: string): Promise<{ isError?: boolean; text: string }> {
  const [result, health] = await Promise.all([
    served.client.callTool({ name, arguments: { value } }),
    fetch(served.healthz).then(async (r) => ({ status: r.status, body: (await r.json()) as { status?: string } })),
  ]);
  assert.equal(health.status, 200, "/healthz was answered while the call ran");
  return { isError: (result as { isError?: boolean }).isError, text: textOf(result) };
}

describe("an extension tool's JSON Schema pattern, under the input that chokes a backtracking engine", () => {
  for (const p of CATASTROPHIC_PATTERNS) {
    it(`ends "${p.pattern}" with a validation error while /healthz answers`, BOUND, async () => {
      const refused = await callBesideHealthz(`ext_${p.name}`, spelled(p.attack));
      assert.equal(refused.isError, true);
      assert.match(refused.text, new RegExp(`^Invalid arguments for tool "ext_${p.name}": "/value" must match pattern`));
      const matched = await callBesideHealthz(`ext_${p.name}`, p.match);
      assert.equal(matched.isError, undefined, matched.text);
      assert.equal(matched.text, `ran ext_${p.name} on ${p.match.length}`);
    });
  }
});

describe("an extension tool's JSON Schema format, under each format's worst input", () => {
  for (const f of FORMAT_CASES) {
    it(`ends format "${f.format}" with a validation error while /healthz answers`, BOUND, async () => {
      const tool = `ext_format_${f.format.replace(/-/g, "_")}`;
      const refused = await callBesideHealthz(tool, spelled(f.attack));
      assert.equal(refused.isError, true);
      assert.match(refused.text, new RegExp(`^Invalid arguments for tool "${tool}": "/value" must match format "${f.format}"`));
      const matched = await callBesideHealthz(tool, f.match);
      assert.equal(matched.text, `ran ${tool} on ${f.match.length}`);
    });
  }
});

describe("a gateway upstream's inputSchema pattern, checked by the host", () => {
  for (const p of CATASTROPHIC_PATTERNS) {
    it(`ends "${p.pattern}" with a validation error before the upstream is called, while /healthz answers`, BOUND, async () => {
      const refused = await callBesideHealthz(`in_${p.name}`, spelled(p.attack));
      assert.equal(refused.isError, true);
      assert.match(refused.text, new RegExp(`^Invalid arguments for tool "in_${p.name}": "/value" must match pattern`));
      const matched = await callBesideHealthz(`in_${p.name}`, p.match);
      assert.equal(matched.text, `in_${p.name} ran`);
    });
  }
});

describe("a gateway upstream's outputSchema, checked by the registry against its structured content", () => {
  for (const p of CATASTROPHIC_PATTERNS) {
    it(`ends "${p.pattern}" with MCP_OUTPUT_INVALID while /healthz answers`, BOUND, async () => {
      const result = await callBesideHealthz(`out_${p.name}`, "x");
      assert.equal(result.isError, true);
      assert.match(
        result.text,
        new RegExp(`^tool "out_${p.name}" on server "patterned" returned structured content that does not match its outputSchema \\(keyword "pattern"`),
      );
    });
  }

  it('ends format "url" on a megabyte of colons with MCP_OUTPUT_INVALID while /healthz answers', BOUND, async () => {
    const result = await callBesideHealthz("out_format_url", "x");
    assert.equal(result.isError, true);
    assert.match(result.text, /returned structured content that does not match its outputSchema \(keyword "format"/);
  });

  it("still passes structured content that matches", BOUND, async () => {
    const result = await callBesideHealthz("out_match", "x");
    assert.equal(result.isError, undefined, result.text);
    assert.equal(result.text, "out_match ran");
  });
});

/** The JSON log lines the command wrote to stderr. */
function logLines(): Array<Record<string, unknown>> {
  return served.cli.stderr
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe("a pattern no linear engine can run", () => {
  it("leaves the extension's and the upstream's tool out (input), naming extension, toolset, tool and keyword path", BOUND, async () => {
    const tools = await listedTools(served.client);
    assert.ok(tools.includes("ext_nested") && tools.includes("in_nested") && tools.includes("out_lookahead"), tools.join(", "));
    assert.ok(!tools.includes("ext_lookahead") && !tools.includes("in_lookahead"), tools.join(", "));
    const reason =
      'its input schema\'s pattern at /properties/value/pattern ("^(?!admin$).+$") cannot be checked in linear time: it uses a lookahead ("(?!"); ' +
      "mcp-host runs schema patterns on a linear-time engine (RE2) — rewrite it without lookaround or backreferences";
    const warnings = logLines()
      .filter((l) => l.code === "TOOL_SCHEMA_INVALID")
      .map(({ level, extension, toolset, tool, msg }) => ({ level, extension, toolset, tool, msg }));
    assert.deepEqual(
      warnings.sort((a, b) => String(a.tool).localeCompare(String(b.tool))),
      [
        {
          level: "warn",
          extension: "patterns",
          toolset: "patterns",
          tool: "ext_lookahead",
          msg: `[extension patterns] tool "ext_lookahead" (toolset "patterns") is left out: ${reason}`,
        },
        {
          level: "warn",
          extension: "gateway",
          toolset: "patterned",
          tool: "in_lookahead",
          msg: `[extension gateway] tool "in_lookahead" (toolset "patterned") is left out: ${reason}`,
        },
      ],
    );
  });

  it("serves an upstream tool whose output pattern it cannot run, that pattern unenforced, with a warning", BOUND, async () => {
    // Over plain HTTP: an SDK client would check the pattern itself, with its own (backtracking) engine.
    const response = await raw({
      url: served.url,
      method: "POST",
      headers: modernHeaders("tools/call", "out_lookahead"),
      body: modernBody("tools/call", { name: "out_lookahead", arguments: { value: "x" } }),
    });
    const result = lastRpcMessage(response.text).result as { isError?: boolean; structuredContent?: unknown };
    assert.equal(result.isError, undefined, response.text);
    assert.deepEqual(result.structuredContent, { value: "admin" });
    // Log lines reach stderr once per turn of the event loop: wait for this one rather than read what came so far.
    await served.cli.stderrMatches(/tool \\"out_lookahead\\" declares an outputSchema pattern/);
    const warning = logLines().find((l) => String(l.msg).includes('tool "out_lookahead" declares an outputSchema pattern'));
    assert.deepEqual(warning && { level: warning.level, msg: warning.msg, pattern: warning.pattern }, {
      level: "warn",
      msg: 'tool "out_lookahead" declares an outputSchema pattern that cannot be checked in linear time (it uses a lookahead ("(?!")); that pattern is not enforced',
      pattern: "^(?!admin$).+$",
    });
  });
});
