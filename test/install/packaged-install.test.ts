// mcp-host and its first-party plugins install where users install them (issue 10 item 1): the packed tarballs
// go into a fresh folder outside this repository, `npm install` runs no install script and warns about no
// engine, and the installed command serves the plugins over HTTP and stdio.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { npm, packInto } from "../helpers/npm-run.js";
import { REPO, assertBuilt, cleanEnv } from "../helpers/cli-process.js";
import { Cleanup, callText, connectV2, deferred, listedTools } from "../helpers/http-host.js";
import { CliProcess } from "../helpers/cli-process.js";

const cleanup = new Cleanup();
let work = "";
let project = "";
let installLog = "";
let hostTarball = "";

/** Packs a package of this repository into `work` and returns the tarball's path. */
function pack(dir: string): string {
  return packInto(work, join(REPO, dir));
}

before(() => {
  assertBuilt();
  work = mkdtempSync(join(tmpdir(), "mcp-host-install-"));
  const host = pack(".");
  hostTarball = host;
  const time = pack("plugins/time");
  const text = pack("plugins/text");
  project = join(work, "deployment");
  spawnSync("mkdir", [project]);
  writeFileSync(
    join(project, "package.json"),
    JSON.stringify(
      {
        name: "my-deployment",
        version: "1.0.0",
        private: true,
        type: "module",
        dependencies: { "mcp-host": `file:${host}`, "@mcp-host/plugin-time": `file:${time}`, "@mcp-host/plugin-text": `file:${text}` },
      },
      null,
      2,
    ),
  );
  const installed = npm(["install", "--prefer-offline", "--no-audit", "--no-fund"], project);
  installLog = installed.output;
  assert.equal(installed.status, 0, installLog);
});

after(async () => {
  await cleanup.run();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe("installed from the packed tarballs, outside this repository", { timeout: 240_000 }, () => {
  it("installs without running an install script and without an engine warning", () => {
    assert.doesNotMatch(installLog, /install-scripts|allowScripts/, installLog);
    assert.doesNotMatch(installLog, /EBADENGINE/, installLog);
  });

  it("serves the first-party plugins over HTTP with the installed command", async () => {
    const cli = new CliProcess(["serve", "--port", "0"], { cwd: project, cli: join(project, "node_modules", "mcp-host", "dist", "cli", "main.js") });
    cleanup.add(() => cli.stop("SIGTERM"));
    const first = await cli.line(/^mcp-host is serving /);
    const url = /(http:\/\/127\.0\.0\.1:\d+\/mcp)$/.exec(first)?.[1];
    assert.ok(url, first);
    assert.equal(first, `mcp-host is serving "my-deployment" over MCP at ${url}`);
    const { client } = await connectV2(cleanup, new URL(`${url}?only=time,text`), "modern");
    const tools = await listedTools(client);
    for (const tool of ["current_time", "convert_time", "text_stats", "slugify"]) assert.ok(tools.includes(tool), `${tool} in ${tools.join(", ")}`);
    const stats = await client.callTool({ name: "text_stats", arguments: { text: "One two three." } });
    assert.equal((stats.structuredContent as { words: number }).words, 3);
  });

  it("serves a selection over stdio with the installed command", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [join(project, "node_modules", "mcp-host", "dist", "cli", "main.js"), "stdio", "only=time", "--cwd", project],
      cwd: tmpdir(),
      env: cleanEnv() as Record<string, string>,
      stderr: "pipe",
    });
    const client = new Client({ name: "desktop", version: "1.0.0" });
    cleanup.add(() => transport.close());
    await client.connect(transport);
    const tools = await listedTools(client);
    assert.ok(tools.includes("current_time"), tools.join(", "));
    assert.ok(!tools.includes("text_stats"), "only=time leaves text out");
  });

  it("scaffolds an extension with mcp-host init that builds and passes its own test, and mcp-host dev reloads it on change", async () => {
    const installedCli = join(project, "node_modules", "mcp-host", "dist", "cli", "main.js");
    const init = spawnSync(process.execPath, [installedCli, "init", "greeter"], { cwd: work, encoding: "utf8", env: cleanEnv() });
    assert.equal(init.status, 0, init.stderr);
    assert.match(init.stdout, /^Created the extension package "greeter" in greeter:$/m);
    const greeter = join(work, "greeter");
    // The scaffold depends on the tarball the running mcp-host was installed from: a plain npm install works.
    const pkg = JSON.parse(readFileSync(join(greeter, "package.json"), "utf8")) as { devDependencies: Record<string, string> };
    assert.equal(pkg.devDependencies["mcp-host"], `file:${hostTarball}`);
    const installed = npm(["install", "--prefer-offline", "--no-audit", "--no-fund"], greeter);
    assert.equal(installed.status, 0, installed.output);
    const tested = npm(["test"], greeter);
    assert.equal(tested.status, 0, tested.output);
    assert.match(tested.output, /^# pass 1$/m);

    const cli = new CliProcess(["dev", "--port", "0"], { cwd: greeter, cli: join(greeter, "node_modules", "mcp-host", "dist", "cli", "main.js") });
    cleanup.add(() => cli.stop("SIGTERM"));
    const first = await cli.line(/^mcp-host dev is serving /);
    await cli.line(/^ {2}watching .*\(rebuilding with npm run build\)$/);
    const url = /(http:\/\/127\.0\.0\.1:\d+\/mcp)$/.exec(first)?.[1];
    assert.ok(url, first);
    const told = deferred<void>();
    const { client } = await connectV2(cleanup, new URL(`${url}?only=greeter`), "modern", {
      clientOptions: { listChanged: { tools: { debounceMs: 0, onChanged: () => told.resolve() } } },
    });
    assert.equal(await callText(client, "greet", { name: "Ada" }), "Hello, Ada!");
    const source = join(greeter, "src", "index.ts");
    writeFileSync(source, readFileSync(source, "utf8").replace("Hello, ", "Hi there, "));
    await told.promise;
    assert.equal(await callText(client, "greet", { name: "Ada" }), "Hi there, Ada!");
  });
});
