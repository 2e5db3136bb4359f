// An install path that works before mcp-host is published (issue 27 item 1): `mcp-host init`, run from this
// checkout's build, scaffolds an extension in a temporary folder whose mcp-host dependency resolves there — a `file:`
// link to this checkout — so `npm install` never asks the registry for mcp-host (which does not know it: before, the
// scaffold said "^0.1.0" and `npm install` failed with E404); its own test passes; and its stdio server starts from
// the desktop-client config docs/serving.md documents, with the extension's tool on offer.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { npm } from "../helpers/npm-run.js";
import { CLI_MAIN, REPO, assertBuilt, cleanEnv } from "../helpers/cli-process.js";
import { fencedBlocks } from "../helpers/doc-blocks.js";
import { Cleanup, listedTools } from "../helpers/http-host.js";

const cleanup = new Cleanup();
let work = "";

/** docs/serving.md's desktop-client config: the block after `<!-- desktop-config -->`. */
function documentedConfig(): { command: string; args: string[] } {
  const page = readFileSync(join(REPO, "docs", "serving.md"), "utf8");
  const at = page.indexOf("<!-- desktop-config -->");
  assert.ok(at >= 0, "docs/serving.md marks its desktop-client config");
  const [block] = fencedBlocks(page.slice(at), "docs/serving.md");
  assert.ok(block && block.lang === "json", "a json block follows the marker");
  return (JSON.parse(block.code) as { mcpServers: { tools: { command: string; args: string[] } } }).mcpServers.tools;
}

before(() => {
  assertBuilt();
  work = realpathSync(mkdtempSync(join(tmpdir(), "mcp-host-scaffold-")));
});

after(async () => {
  await cleanup.run();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe("an extension scaffolded by this checkout's mcp-host init", { timeout: 240_000 }, () => {
  it("installs without asking the registry for mcp-host, passes its test, and serves over stdio from the documented config", async () => {
    const init = spawnSync(process.execPath, [CLI_MAIN, "init", "greeter"], { cwd: work, encoding: "utf8", env: cleanEnv() });
    assert.equal(init.status, 0, init.stderr);
    const checkout = REPO.replace(/\/$/, "");
    assert.ok(
      init.stdout.includes(`It builds and tests against this mcp-host (not from the npm registry): "mcp-host": "file:${checkout}" in devDependencies.`),
      init.stdout,
    );
    const greeter = join(work, "greeter");
    const pkg = JSON.parse(readFileSync(join(greeter, "package.json"), "utf8")) as Record<string, Record<string, string>>;
    assert.equal(pkg.devDependencies!["mcp-host"], `file:${checkout}`);
    assert.equal(pkg.peerDependencies!["mcp-host"], "^0.1.0");

    // Every request npm makes is logged at this level: none may be for mcp-host.
    const installed = npm(["install", "--prefer-offline", "--loglevel", "http"], greeter);
    assert.equal(installed.status, 0, installed.output);
    const asked = installed.output.split("\n").filter((line) => /^npm http fetch /.test(line));
    assert.ok(asked.length > 0, `npm logged its requests:\n${installed.output}`);
    assert.deepEqual(
      asked.filter((line) => /\/mcp-host(\/|\s|$)/.test(line)),
      [],
    );
    const tested = npm(["test"], greeter);
    assert.equal(tested.status, 0, tested.output);
    assert.match(tested.output, /^# pass 1$/m);

    const documented = documentedConfig();
    const config = {
      command: documented.command.replace("/home/me/my-deployment", greeter),
      args: documented.args.map((arg) => arg.replace("/home/me/my-deployment", greeter).replace("only=time,text", "only=greeter")),
    };
    assert.equal(config.command, join(greeter, "node_modules", ".bin", "mcp-host"));
    // Started as a desktop client does: its own folder, the command and arguments of its config, nothing else.
    const transport = new StdioClientTransport({ ...config, cwd: tmpdir(), env: cleanEnv() as Record<string, string>, stderr: "pipe" });
    const client = new Client({ name: "desktop", version: "1.0.0" });
    cleanup.add(() => transport.close());
    await client.connect(transport);
    assert.deepEqual(await listedTools(client), ["greet", "list_server_toolsets"]);
    const result = await client.callTool({ name: "greet", arguments: { name: "Ada" } });
    assert.deepEqual(result.content, [{ type: "text", text: "Hello, Ada!" }]);
  });
});
