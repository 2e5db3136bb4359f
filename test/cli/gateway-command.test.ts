// The command and the gateway (issue 8 items 5, 6 and 9): the repository's default deployment (what `npm start`
// serves) mounts MCP's reference server beside the plugins; `serve` refuses to start without a `required`
// upstream; `check` reports upstreams; SIGHUP and `serve --watch` read the config again and apply its servers live,
// telling listening clients, while a config with a problem — or one that changes a section only a restart applies —
// is refused whole and the old one keeps serving.
import { afterEach, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPO, assertBuilt, runCli, startCli, type CliProcess } from "../helpers/cli-process.js";
import { Cleanup, callText, connectV2, deferred, listedTools } from "../helpers/http-host.js";

const cleanup = new Cleanup();
afterEach(() => cleanup.run());
before(() => assertBuilt());

const EVERYTHING = join(REPO, "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js");
const LEGACY_FIXTURE = join(REPO, "test", "fixtures", "upstream", "legacy-stdio.mjs");

function stdioServer(args: string[]): Record<string, unknown> {
  return { command: process.execPath, args };
}

/** A temporary project folder with a config file holding `servers`; returns the folder and a way to rewrite it. */
function project(servers: Record<string, unknown>): { dir: string; write(servers: Record<string, unknown> | string): void } {
  const dir = mkdtempSync(join(tmpdir(), "mcp-host-gateway-"));
  cleanup.add(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "gateway-project", version: "1.0.0" }));
  const write = (next: Record<string, unknown> | string) =>
    writeFileSync(join(dir, "mcp-host.config.json"), typeof next === "string" ? next : JSON.stringify({ servers: next, startupTimeoutMs: 20_000 }, null, 2));
  write(servers);
  return { dir, write };
}

async function servedUrl(cli: CliProcess): Promise<string> {
  const first = await cli.line(/^mcp-host is serving /);
  const url = /(http:\/\/127\.0\.0\.1:\d+\/mcp)$/.exec(first)?.[1];
  assert.ok(url, first);
  return url;
}

describe("the gateway from the command line", { timeout: 90_000 }, () => {
  it("npm start's default deployment serves the plugins and MCP's reference server as the `everything` toolset", async () => {
    const cli = startCli(cleanup, ["serve", "--port", "0"], { cwd: REPO });
    const url = await servedUrl(cli);
    await cli.line(/^ {2}upstream everything: up \(\d+ tools\)$/);
    assert.ok(cli.stdoutLines.includes("  extension time@0.1.0: ready"), cli.stdoutLines.join("\n"));
    assert.ok(cli.stdoutLines.includes("  extension gateway: ready"), cli.stdoutLines.join("\n"));
    const { client } = await connectV2(cleanup, new URL(`${url}?only=everything`), "modern");
    const tools = await listedTools(client);
    assert.ok(tools.includes("echo") && !tools.includes("get-env"), tools.join(", "));
    assert.equal(await callText(client, "echo", { message: "through the gateway" }), "Echo: through the gateway");
  });

  it("serve fails start-up when a required upstream cannot be reached, naming it and not its command", async () => {
    const { dir } = project({ dead: stdioServer([LEGACY_FIXTURE, JSON.stringify({ exitAtStart: 3 })]) });
    const run = await runCli(cleanup, ["serve", "--port", "0", "--cwd", dir]);
    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stderr, /^mcp-host: MCP_SERVER_UNREACHABLE: .*"dead"/m);
    assert.doesNotMatch(
      run.stderr
        .split("\n")
        .filter((l) => l.startsWith("mcp-host:"))
        .join("\n"),
      /legacy-stdio/,
    );
  });

  it("check reports each upstream, and exits 1 with the problem when one is unreachable", async () => {
    const { dir, write } = project({ everything: stdioServer([EVERYTHING, "stdio"]) });
    const good = await runCli(cleanup, ["check", "--cwd", dir]);
    assert.equal(good.code, 0, good.stderr);
    assert.match(good.stdout, /^upstream everything: up \(\d+ tools\)$/m);
    assert.match(good.stdout, /^check: ok$/m);
    write({ everything: stdioServer([EVERYTHING, "stdio"]), dead: stdioServer([LEGACY_FIXTURE, JSON.stringify({ exitAtStart: 3 })]) });
    const bad = await runCli(cleanup, ["check", "--cwd", dir, "--json"]);
    assert.equal(bad.code, 1, bad.stderr);
    const report = JSON.parse(bad.stdout) as { ok: boolean; problems: Array<{ code: string; message: string }> };
    assert.equal(report.ok, false);
    assert.deepEqual(
      report.problems.map((p) => p.code),
      ["MCP_SERVER_UNREACHABLE"],
    );
    assert.match(report.problems[0]!.message, /"dead"/);
  });

  it("refuses on SIGHUP a reload that changes a section only a restart applies, applying none of it (its servers included)", async () => {
    const alpha = stdioServer([LEGACY_FIXTURE, JSON.stringify({ name: "legacy", tools: ["alpha"] })]);
    const { dir, write } = project({ legacy: alpha });
    const cli = startCli(cleanup, ["serve", "--port", "0", "--cwd", dir]);
    const url = await servedUrl(cli);
    await cli.line(/^ {2}upstream legacy: up/);
    const { client } = await connectV2(cleanup, new URL(url), "modern");
    const second = stdioServer([LEGACY_FIXTURE, JSON.stringify({ name: "second", tools: ["beta"] })]);
    write(JSON.stringify({ servers: { legacy: alpha, second }, startupTimeoutMs: 20_000, tools: { maxConcurrent: 8 }, logging: { access: false } }));
    cli.child.kill("SIGHUP");
    await cli.stderrMatches(/the config was not reloaded, the previous one keeps serving: it changes logging, tools, which only a restart applies/);
    assert.match(cli.stderr, /"code":"CONFIG_RELOAD_REFUSED"/);
    assert.deepEqual(await listedTools(client), ["alpha", "list_server_toolsets"], "the new server did not go live");
  });

  for (const how of ["SIGHUP", "--watch"] as const) {
    it(`applies a changed servers map live on ${how}, tells listening clients, and refuses a bad config while the old one serves`, async () => {
      const { dir, write } = project({ legacy: stdioServer([LEGACY_FIXTURE, JSON.stringify({ name: "legacy", tools: ["alpha"] })]) });
      const cli = startCli(cleanup, ["serve", "--port", "0", "--cwd", dir, ...(how === "--watch" ? ["--watch"] : [])]);
      const url = await servedUrl(cli);
      await cli.line(/^ {2}upstream legacy: up/);
      let told = deferred<string[]>();
      const { client } = await connectV2(cleanup, new URL(url), "modern", {
        clientOptions: {
          listChanged: { tools: { debounceMs: 0, onChanged: (error, list) => told.resolve(error ? [error.message] : (list ?? []).map((t) => t.name)) } },
        },
      });
      assert.deepEqual(await listedTools(client), ["alpha", "list_server_toolsets"]);

      write({
        legacy: stdioServer([LEGACY_FIXTURE, JSON.stringify({ name: "legacy", tools: ["alpha"] })]),
        second: stdioServer([LEGACY_FIXTURE, JSON.stringify({ name: "second", tools: ["beta"] })]),
      });
      if (how === "SIGHUP") cli.child.kill("SIGHUP");
      assert.deepEqual(await told.promise, ["alpha", "beta", "list_server_toolsets"]);
      await cli.stderrMatches(/reloaded the config: servers added second/);

      told = deferred<string[]>();
      write('{ "servers": { "x": { "url": "http://user:pw@example.com/mcp" } } }');
      if (how === "SIGHUP") cli.child.kill("SIGHUP");
      await cli.stderrMatches(/the config was not reloaded, the previous one keeps serving: .*MCP_URL_INVALID {2}servers\.x\.url/s);
      assert.doesNotMatch(cli.stderr, /user:pw/);
      assert.deepEqual(await listedTools(client), ["alpha", "beta", "list_server_toolsets"]);
    });
  }
});
