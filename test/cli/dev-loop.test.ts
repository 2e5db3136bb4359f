// `mcp-host dev` (issue 10 item 10): serves the extension in the current folder and, when any of its own files
// changes, imports it afresh and puts it in place — connected clients are told the list changed and see the new
// code; a change that does not load is reported and the previous version keeps serving. An editor's safe save (write a
// temp file, rename it over the original) is seen, and so is every later write to that file (issue 27 item 5: on Node 20
// a recursive fs.watch lost the file after the rename), and the reload line names the real file, not the temp one.
import { afterEach, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { assertBuilt, startCli } from "../helpers/cli-process.js";
import { Cleanup, callText, connectV2, deferred, listedTools } from "../helpers/http-host.js";

const cleanup = new Cleanup();
afterEach(() => cleanup.run());
before(() => assertBuilt());

function tools(names: string[]): string {
  const list = names.map((n) => `{ name: ${JSON.stringify(n)}, handler: () => ({ content: [{ type: "text", text: ${JSON.stringify(`${n} v2`)} }] }) }`);
  return `export const tools = [${list.join(", ")}];\n`;
}

function project(): string {
  const dir = mkdtempSync(join(tmpdir(), "mcp-host-dev-"));
  cleanup.add(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "dev-fixture", version: "1.0.0", type: "module", mcpExtensions: "./ext.js" }));
  // The entry imports a second file, so a reload must read the module graph again, not just the entry.
  writeFileSync(join(dir, "ext.js"), 'import { tools } from "./tools.js";\nexport default { name: "devx", toolsets: [{ name: "devx" }], tools };\n');
  writeFileSync(join(dir, "tools.js"), 'export const tools = [{ name: "hello", handler: () => ({ content: [{ type: "text", text: "hello v1" }] }) }];\n');
  return dir;
}

describe("mcp-host dev", { timeout: 60_000 }, () => {
  it("reloads the extension when one of its files changes, tells the client, and keeps the old version when a change does not load", async () => {
    const dir = project();
    const cli = startCli(cleanup, ["dev", "--port", "0", "--cwd", dir]);
    const first = await cli.line(/^mcp-host dev is serving /);
    await cli.line(/^ {2}watching /);
    const url = /(http:\/\/127\.0\.0\.1:\d+\/mcp)$/.exec(first)?.[1];
    assert.ok(url, first);
    let told = deferred<string[]>();
    const { client } = await connectV2(cleanup, new URL(`${url}?only=devx`), "modern", {
      clientOptions: {
        listChanged: { tools: { debounceMs: 0, onChanged: (error, list) => told.resolve(error ? [error.message] : (list ?? []).map((t) => t.name)) } },
      },
    });
    assert.deepEqual(await listedTools(client), ["hello", "list_server_toolsets"]);
    assert.equal(await callText(client, "hello"), "hello v1");

    writeFileSync(join(dir, "tools.js"), tools(["hello", "bye"]));
    assert.deepEqual(await told.promise, ["bye", "hello", "list_server_toolsets"]);
    assert.equal(await callText(client, "hello"), "hello v2", "the changed file was read again");
    assert.equal(await callText(client, "bye"), "bye v2");
    await cli.stderrMatches(/reloaded devx after a change to tools\.js/);

    told = deferred<string[]>();
    writeFileSync(join(dir, "tools.js"), "export const tools = [ this is not javascript\n");
    await cli.stderrMatches(/reloading failed \(EXTENSION_LOAD_FAILED\); still serving the previous version/);
    assert.deepEqual(await listedTools(client), ["bye", "hello", "list_server_toolsets"]);
    assert.equal(await callText(client, "bye"), "bye v2");
  });

  it("sees an editor's safe save (a temp file renamed over the file) and every later write to it, naming the real file", async () => {
    const dir = project();
    const cli = startCli(cleanup, ["dev", "--port", "0", "--cwd", dir]);
    const first = await cli.line(/^mcp-host dev is serving /);
    await cli.line(/^ {2}watching /);
    const url = /(http:\/\/127\.0\.0\.1:\d+\/mcp)$/.exec(first)?.[1];
    assert.ok(url, first);
    let told = deferred<string[]>();
    const { client } = await connectV2(cleanup, new URL(`${url}?only=devx`), "modern", {
      clientOptions: {
        listChanged: { tools: { debounceMs: 0, onChanged: (error, list) => told.resolve(error ? [error.message] : (list ?? []).map((t) => t.name)) } },
      },
    });
    assert.equal(await callText(client, "hello"), "hello v1");

    // A safe save, as vim and VS Code do it: the new text goes to a temp file, which is renamed over the original.
    const temp = join(dir, ".tools.js.swp");
    writeFileSync(temp, tools(["hello", "saved"]));
    renameSync(temp, join(dir, "tools.js"));
    assert.deepEqual(await told.promise, ["hello", "list_server_toolsets", "saved"]);
    await cli.stderrMatches(/reloaded devx after a change to tools\.js"/);
    assert.doesNotMatch(cli.stderr, /\.swp/, "the reload line names the real file, not the editor's temp file");

    // Then an ordinary write in place: the file the rename put there is still watched.
    told = deferred<string[]>();
    writeFileSync(join(dir, "tools.js"), tools(["hello", "in_place"]));
    assert.deepEqual(await told.promise, ["hello", "in_place", "list_server_toolsets"]);
    assert.equal(await callText(client, "in_place"), "in_place v2");
  });
});
