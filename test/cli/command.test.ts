// The mcp-host command (docs/design.md §13, issue 3 part 7), run as a real process from dist/: --help and --version,
// usage errors (exit 2, one line on stderr), `toolsets` as a table and as describe() JSON, and `serve`, which
// prints the MCP URL, the /toolsets URL and each extension's status, serves real clients at that URL, and shuts
// down gracefully with exit code 0 on SIGTERM and SIGINT.
import { afterEach, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { CLI_PROJECT, REPO, assertBuilt, isRunning, runCli, startCli, type CliProcess } from "../helpers/cli-process.js";
import { Cleanup, callText, connectV1, connectV2, listedTools, raw } from "../helpers/http-host.js";

const cleanup = new Cleanup();
afterEach(() => cleanup.run());
before(() => assertBuilt());

const VERSION = (JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as { version: string }).version;
const WORKING = ["--cwd", CLI_PROJECT, "--extension", "echo,clock"];

describe("mcp-host --help, --version and usage errors", { timeout: 60_000 }, () => {
  it("prints help listing the commands and exits 0", async () => {
    for (const args of [["--help"], []]) {
      const run = await runCli(cleanup, args);
      assert.equal(run.code, 0, args.join(" "));
      assert.equal(run.stderr, "");
      assert.match(run.stdout, /^mcp-host — serve MCP extensions, selected by URL\n/);
      for (const command of ["serve", "toolsets", "stdio"]) assert.match(run.stdout, new RegExp(`^  mcp-host ${command} +\\[SELECTION\\]`, "m"), command);
      assert.match(run.stdout, /^ {2}mcp-host check +\[options\]$/m);
      assert.match(run.stdout, /^ {2}mcp-host --help \| --version$/m);
    }
  });

  it("prints the package version and exits 0", async () => {
    for (const flag of ["--version", "-v"]) {
      const run = await runCli(cleanup, [flag]);
      assert.deepEqual(run, { code: 0, signal: null, stdout: `${VERSION}\n`, stderr: "" });
    }
  });

  it("exits 2 with one clear line on stderr for every usage error", async () => {
    const cases: Array<[string[], string]> = [
      [
        ["frobnicate"],
        'mcp-host: CLI_USAGE: unknown command "frobnicate"; the commands are serve, toolsets, stdio, check, init, dev. Run "mcp-host --help" for the options.',
      ],
      [["serve", "--port", "abc"], 'mcp-host: CLI_USAGE: --port must be a whole number from 0 to 65535, got "abc"'],
      [["serve", "--port", "70000"], 'mcp-host: CLI_USAGE: --port must be a whole number from 0 to 65535, got "70000"'],
      [["serve", "--port=-1"], 'mcp-host: CLI_USAGE: --port must be a whole number from 0 to 65535, got "-1"'],
      [["serve", "--port", "-1"], 'mcp-host: CLI_USAGE: --port must be a whole number from 0 to 65535, got "-1"'],
      [["serve", "--port"], 'mcp-host: CLI_USAGE: --port needs a value (N). Run "mcp-host serve --help" for the options.'],
      [["serve", "--frobnicate"], 'mcp-host: CLI_USAGE: unknown option "--frobnicate" for "mcp-host serve". Run "mcp-host serve --help" for the options.'],
      [["serve", "--frobnicate=1"], 'mcp-host: CLI_USAGE: unknown option "--frobnicate" for "mcp-host serve". Run "mcp-host serve --help" for the options.'],
      [["serve", "-x"], 'mcp-host: CLI_USAGE: unknown option "-x" for "mcp-host serve". Run "mcp-host serve --help" for the options.'],
      [["serve", "-p"], 'mcp-host: CLI_USAGE: --port needs a value (N). Run "mcp-host serve --help" for the options.'],
      [["toolsets", "--extension"], 'mcp-host: CLI_USAGE: --extension needs a value (a,b). Run "mcp-host toolsets --help" for the options.'],
      [["serve", "--port="], 'mcp-host: CLI_USAGE: --port must be a whole number from 0 to 65535, got ""'],
      [["serve", "--port", "--json"], 'mcp-host: CLI_USAGE: --port must be a whole number from 0 to 65535, got "--json"'],
      [["serve", "--help=yes"], 'mcp-host: CLI_USAGE: --help takes no value. Run "mcp-host serve --help" for the options.'],
      [
        ["stdio", "-p", "3000"],
        'mcp-host: CLI_USAGE: -p is not an option of "mcp-host stdio" (it belongs to serve, dev). Run "mcp-host stdio --help" for the options.',
      ],
      [["check", "x"], 'mcp-host: CLI_USAGE: too many arguments: x. Run "mcp-host check --help" for the options.'],
      [
        ["stdio", "--port", "3000"],
        'mcp-host: CLI_USAGE: --port is not an option of "mcp-host stdio" (it belongs to serve, dev). Run "mcp-host stdio --help" for the options.',
      ],
      [
        ["toolsets", "--watch"],
        'mcp-host: CLI_USAGE: --watch is not an option of "mcp-host toolsets" (it belongs to serve). Run "mcp-host toolsets --help" for the options.',
      ],
      [
        ["serve", "--json=yes"],
        'mcp-host: CLI_USAGE: --json is not an option of "mcp-host serve" (it belongs to toolsets, check). Run "mcp-host serve --help" for the options.',
      ],
      [["toolsets", "--json=yes"], 'mcp-host: CLI_USAGE: --json takes no value. Run "mcp-host toolsets --help" for the options.'],
      [
        ["serve", "--cwd", "/nonexistent/folder"],
        "mcp-host: CLI_USAGE: --cwd /nonexistent/folder is not a folder; pass the project folder that holds package.json (and the config file)",
      ],
      [
        ["serve", "a", "b"],
        'mcp-host: CLI_USAGE: too many arguments: b; quote a selection with "&" in it: mcp-host serve "only=a&without=b". Run "mcp-host serve --help" for the options.',
      ],
      [
        ["--port", "3"],
        'mcp-host: CLI_USAGE: a command comes first, e.g. "mcp-host serve --port"; the commands are serve, toolsets, stdio, check, init, dev. Run "mcp-host --help" for the options.',
      ],
    ];
    const runs = await Promise.all(cases.map(([args]) => runCli(cleanup, args)));
    for (const [i, [args, message]] of cases.entries())
      assert.deepEqual(runs[i], { code: 2, signal: null, stdout: "", stderr: `${message}\n` }, args.join(" "));
  });

  it("prints each command's own help, listing exactly the options it takes", async () => {
    const stdio = await runCli(cleanup, ["stdio", "--help"]);
    assert.equal(stdio.code, 0);
    assert.match(stdio.stdout, /^Usage: mcp-host stdio \[SELECTION\] \[options\]$/m);
    for (const option of ["--cwd DIR", "--log-level L", "--strict", "--config FILE", "--extension a,b"]) assert.ok(stdio.stdout.includes(option), option);
    for (const option of ["--port", "--host", "--cors", "--json"]) assert.ok(!stdio.stdout.includes(option), `stdio --help does not offer ${option}`);
    assert.match(stdio.stdout, /default: info for serve and dev, warn otherwise/);
    const viaHelp = await runCli(cleanup, ["help", "stdio"]);
    assert.equal(viaHelp.stdout, stdio.stdout);
    const serve = await runCli(cleanup, ["serve", "-h"]);
    for (const option of ["--port N", "--watch", "--cors o1,o2", "--cwd DIR"]) assert.ok(serve.stdout.includes(option), option);
    assert.notEqual(serve.stdout, stdio.stdout);
  });
});

describe("mcp-host toolsets", { timeout: 60_000 }, () => {
  it("prints a readable table of the selection", async () => {
    const run = await runCli(cleanup, ["toolsets", "clock", ...WORKING]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(
      run.stdout,
      [
        "    TOOLSET  FLAGS    EXTENSIONS  DESCRIPTION",
        "on  clock             clock       A clock that never moves",
        "on  echo     default  echo        Says things back",
        "",
        "active: clock, echo",
        "tools (4): echo, fixed_time, list_server_toolsets, shout",
        "extensions: clock (ready), echo (ready)",
        "",
      ].join("\n"),
    );
  });

  it("prints describe() as JSON with --json", async () => {
    const run = await runCli(cleanup, ["toolsets", "only=clock&nosuch", "--json", ...WORKING]);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(JSON.parse(run.stdout), {
      toolsets: [
        { name: "clock", title: "Clock", description: "A clock that never moves", default: false, always: false, active: true, extensions: ["clock"] },
        { name: "echo", title: "Echo", description: "Says things back", default: true, always: false, active: false, extensions: ["echo"] },
      ],
      active: ["clock"],
      tools: ["fixed_time", "list_server_toolsets"],
      unknown: ["nosuch"],
      extensions: [
        { name: "clock", version: "3.1.4", status: "ready" },
        { name: "echo", version: "2.0.0", status: "ready" },
      ],
      unavailable: [],
    });
  });

  it("reports an --extension name that matches nothing as a failure, without a phantom toolset row", async () => {
    const run = await runCli(cleanup, ["toolsets", "--cwd", CLI_PROJECT, "--extension", "nope"]);
    assert.equal(run.code, 1);
    assert.deepEqual(run.stdout.split("\n").slice(0, 2), ["  TOOLSET  FLAGS  EXTENSIONS  DESCRIPTION", ""]);
    assert.match(run.stdout, /^extensions: nope \(failed\)$/m);
    assert.match(run.stdout, /^ {2}failed nope: EXTENSION_LOAD_FAILED no discovered extension is named "nope"/m);
  });

  it("reports a quarantined extension and why, and exits 1", async () => {
    const run = await runCli(cleanup, ["toolsets", "--cwd", CLI_PROJECT]);
    assert.equal(run.code, 1);
    assert.match(run.stdout, /^extensions: broken \(failed\), clock \(ready\), echo \(ready\)$/m);
    assert.match(run.stdout, /^ {2}failed broken: EXTENSION_SETUP_FAILED \[extension broken\] setup threw; the extension is quarantined: broken on purpose$/m);
    assert.match(run.stderr, /broken on purpose/);
  });
});

/** Waits until `serve` has printed its last extension line; returns the MCP URL it printed. */
async function served(cli: CliProcess, lastExtension: RegExp): Promise<URL> {
  const first = await cli.line(/^mcp-host is serving /);
  await cli.line(lastExtension);
  const match = /^mcp-host is serving "cli-fixture-project" over MCP at (http:\/\/127\.0\.0\.1:\d+\/mcp)$/.exec(first);
  assert.ok(match, `unexpected first line: ${first}`);
  return new URL(match[1]!);
}

describe("mcp-host serve", { timeout: 60_000 }, () => {
  it("prints the MCP URL, the /toolsets URL and each extension's status, serves clients there, and exits 0 on SIGTERM", async () => {
    const cli = startCli(cleanup, ["serve", "--port", "0", ...WORKING]);
    const url = await served(cli, /^ {2}extension echo/);
    const base = `http://127.0.0.1:${url.port}`;
    assert.deepEqual(cli.stdoutLines, [
      `mcp-host is serving "cli-fixture-project" over MCP at ${base}/mcp`,
      `  what it offers:  ${base}/toolsets`,
      `  health:          ${base}/healthz`,
      `  operator page:   ${base}/`,
      `  select toolsets: ${base}/mcp?only=NAME  (see /toolsets for the names)`,
      "  extension clock@3.1.4: ready",
      "  extension echo@2.0.0: ready",
    ]);

    const { client: modern } = await connectV2(cleanup, new URL(`${url.href}?only=clock`), "modern");
    assert.deepEqual(await listedTools(modern), ["fixed_time", "list_server_toolsets"]);
    assert.equal(await callText(modern, "fixed_time"), "2026-01-01T00:00:00Z");
    const { client: v1 } = await connectV1(cleanup, url);
    assert.equal(await callText(v1, "echo", { text: "hi" }), "echo: hi");
    const described = await raw({ url: new URL(`${base}/toolsets?only=clock`) });
    assert.deepEqual(described.json.tools, ["fixed_time", "list_server_toolsets"]);

    cli.child.kill("SIGTERM");
    assert.deepEqual(await cli.exited, { code: 0, signal: null });
    assert.match(cli.stderr, /^mcp-host: SIGTERM received, shutting down$/m);
    assert.equal(isRunning(cli.pid), false);
    await assert.rejects(fetch(`${base}/healthz`), "nothing listens on the port any more");
  });

  it("shuts down gracefully on SIGINT, with a legacy session still open", async () => {
    const cli = startCli(cleanup, ["serve", "--port", "0", ...WORKING]);
    const url = await served(cli, /^ {2}extension echo/);
    const { client, transport } = await connectV1(cleanup, url);
    assert.ok(transport.sessionId);
    assert.equal(await callText(client, "shout", { text: "bye" }), "BYE");
    cli.child.kill("SIGINT");
    assert.deepEqual(await cli.exited, { code: 0, signal: null });
    assert.match(cli.stderr, /^mcp-host: SIGINT received, shutting down$/m);
    assert.equal(isRunning(cli.pid), false);
  });

  it("serves its SELECTION argument as the default selection", async () => {
    const cli = startCli(cleanup, ["serve", "only=clock", "--port", "0", ...WORKING]);
    const url = await served(cli, /^ {2}extension echo/);
    const { client } = await connectV2(cleanup, url, "legacy");
    assert.deepEqual(await listedTools(client), ["fixed_time", "list_server_toolsets"]);
    const { client: named } = await connectV2(cleanup, new URL(`${url.href}?only=echo`), "modern");
    assert.deepEqual(await listedTools(named), ["echo", "list_server_toolsets", "shout"]);
  });

  it("prints a quarantined extension's status and reason, reports it in /healthz, and serves the others", async () => {
    const cli = startCli(cleanup, ["serve", "--port", "0", "--cwd", CLI_PROJECT]);
    const url = await served(cli, /^ {2}extension echo/);
    assert.deepEqual(cli.stdoutLines.slice(5), [
      "  extension broken@3.1.4: failed — [extension broken] setup threw; the extension is quarantined: broken on purpose",
      "  extension clock@3.1.4: ready",
      "  extension echo@2.0.0: ready",
    ]);
    const health = await raw({ url: new URL(`http://127.0.0.1:${url.port}/healthz`) });
    assert.equal(health.status, 200);
    assert.deepEqual(health.json, {
      status: "degraded",
      service: "cli-fixture-project",
      extensions: {
        failed: [{ name: "broken", code: "EXTENSION_SETUP_FAILED", error: "[extension broken] setup threw; the extension is quarantined: broken on purpose" }],
      },
      upstreams: { unavailable: [] },
    });
    const { client } = await connectV2(cleanup, new URL(`${url.href}?broken&clock`), "modern");
    assert.deepEqual(await listedTools(client), ["echo", "fixed_time", "list_server_toolsets", "shout"]);
  });
});
