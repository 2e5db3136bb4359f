// `mcp-host check` checks (issue 27 items 4 and 6): an extension that is named but not loaded, two extensions of
// one name, an upstream that does not start — each is reported with its code and check exits 1. The same rule holds
// with and without a names limit (`--extension`, `extensions.include`), with and without `servers:` in the config,
// and the extension that survives a duplicate is the documented one: the first by source (package, then path).
import { afterEach, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CLI_PROJECT, REPO, assertBuilt, runCli } from "../helpers/cli-process.js";
import { Cleanup } from "../helpers/cleanup.js";

const cleanup = new Cleanup();
afterEach(() => cleanup.run());
before(() => assertBuilt());

const TWINS = join(REPO, "test", "fixtures", "packages", "twins");
const LEGACY_FIXTURE = join(REPO, "test", "fixtures", "upstream", "legacy-stdio.mjs");
const UPSTREAM = { command: process.execPath, args: [LEGACY_FIXTURE, JSON.stringify({ name: "legacy", tools: ["alpha"] })] };

/** A config file in a fresh temporary folder (the project stays where it is: `--config` names the file). */
function configFile(config: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), "mcp-host-check-"));
  cleanup.add(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, "mcp-host.config.json");
  writeFileSync(file, JSON.stringify({ startupTimeoutMs: 20_000, ...config }, null, 2));
  return file;
}

interface Report {
  ok: boolean;
  extensions: Array<{ name: string; status: string; code?: string; error?: string; source?: string }>;
  upstreams: Array<{ server: string; state: string }>;
  problems: Array<{ code: string; message: string }>;
}

async function check(args: string[]): Promise<{ code: number | null; text: string; report: Report }> {
  const text = await runCli(cleanup, ["check", ...args]);
  const json = await runCli(cleanup, ["check", "--json", ...args]);
  assert.equal(text.code, json.code, `check and check --json agree on the exit code:\n${text.stdout}\n${json.stdout}`);
  return { code: text.code, text: text.stdout, report: JSON.parse(json.stdout) as Report };
}

const MISSPELT =
  'no discovered extension is named "ecoh" (packages: "cli-fixture-project"; extensions: "broken", "clock", "echo"); check the spelling in --extension / MCP_HOST_EXTENSIONS, or install the package and list it in package.json dependencies.';

describe("mcp-host check", { timeout: 120_000 }, () => {
  for (const [how, args, config] of [
    ["--extension, no servers", ["--extension", "echo,ecoh"], {}],
    ["--extension, with servers", ["--extension", "echo,ecoh"], { servers: { legacy: UPSTREAM } }],
    ["extensions.include, with servers", [], { extensions: { include: ["echo", "ecoh"] }, servers: { legacy: UPSTREAM } }],
  ] as const) {
    it(`fails on a named extension that did not load (${how}), naming it with its code`, async () => {
      const { code, text, report } = await check(["--cwd", CLI_PROJECT, "--config", configFile(config), ...args]);
      assert.equal(code, 1, text);
      assert.equal(report.ok, false);
      assert.deepEqual(
        report.extensions.filter((e) => e.name !== "gateway").map((e) => [e.name, e.status, e.code]),
        [
          ["echo", "ready", undefined],
          ["ecoh", "failed", "EXTENSION_LOAD_FAILED"],
        ],
      );
      assert.ok(text.split("\n").includes(`extension ecoh: failed — EXTENSION_LOAD_FAILED ${MISSPELT}`), text);
      assert.match(text, /^check: problems found$/m);
    });
  }

  const TAKEN = 'extension name "twin" is taken: package "fixture-twin-b" (twin: ./ext.js) and package "fixture-twin-a" (./ext.js) both use it; rename one';
  for (const [how, args, config] of [
    ["everything discovered", [], {}],
    ["--extension twin", ["--extension", "twin"], {}],
    ["extensions.include: [twin]", [], { extensions: { include: ["twin"] } }],
    ["extensions.include: [twin], with servers", [], { extensions: { include: ["twin"] }, servers: { legacy: UPSTREAM } }],
  ] as const) {
    it(`refuses the second of two extensions named alike, keeping the first by source (${how})`, async () => {
      const { code, text, report } = await check(["--cwd", TWINS, "--config", configFile(config), ...args]);
      assert.equal(code, 1, text);
      assert.deepEqual(
        report.extensions.filter((e) => e.name !== "gateway").map((e) => [e.name, e.status, e.code, e.error, e.source]),
        [
          ["twin", "ready", undefined, undefined, undefined],
          ["twin (2)", "failed", "EXTENSION_NAME_TAKEN", TAKEN, 'package "fixture-twin-b" (twin: ./ext.js)'],
        ],
      );
      assert.ok(text.split("\n").includes(`extension twin (2): failed — EXTENSION_NAME_TAKEN ${TAKEN}`), text);
    });
  }

  it("fails on an upstream that does not start, with its code, quoting the stderr line that names the cause (item 7)", async () => {
    const missing = join(REPO, "test", "fixtures", "upstream", "no-such-server.mjs");
    const dead = { command: process.execPath, args: [missing] };
    const { code, text, report } = await check(["--cwd", CLI_PROJECT, "--extension", "echo", "--config", configFile({ servers: { legacy: UPSTREAM, dead } })]);
    assert.equal(code, 1, text);
    assert.deepEqual(
      report.problems.map((p) => p.code),
      ["MCP_SERVER_UNREACHABLE"],
    );
    assert.match(text, /^problem MCP_SERVER_UNREACHABLE: .*"dead"/m);
    // Node prints the missing module first, then a stack whose last five lines say nothing of it.
    const problem = report.problems[0]!.message;
    assert.ok(problem.includes(`its stderr said ${JSON.stringify(`Error: Cannot find module '${missing}'`)}`), problem);
    assert.ok(problem.includes("; its last stderr lines: "), problem);
    assert.match(text, /^check: problems found$/m);
  });
});
