// What `mcp-host stdio` loads before its first answer (issue 12, scenario 4: a desktop client spawns a stdio server
// per session and waits for it). In a desktop-like folder — a package.json and one extension with no JSON Schema, no
// config file — the packages that only some deployments need stay unloaded: express (HTTP), ajv (JSON Schemas),
// piscina (isolated tools), prom-client (metrics), yaml (config files), the SDK client (the gateway), proxy-addr
// (a config that lists trusted proxies).
// A --require preload writes the CommonJS module cache at exit; each of these packages is CommonJS and would show.
import { afterEach, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { endTree, spawnInGroup } from "../helpers/child-group.js";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CLI_MAIN, assertBuilt, cleanEnv } from "../helpers/cli-process.js";
import { Cleanup } from "../helpers/http-host.js";

const cleanup = new Cleanup();
afterEach(() => cleanup.run());
before(() => assertBuilt());

const NOT_ON_THE_WAY = ["express", "ajv", "piscina", "prom-client", "yaml", "@modelcontextprotocol/client", "undici", "proxy-addr"];

function desktopFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), "mcp-host-cold-"));
  cleanup.add(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, "extensions"));
  writeFileSync(join(dir, "package.json"), JSON.stringify({ private: true, type: "module", mcpExtensions: { hello: "./extensions/hello.js" } }));
  writeFileSync(
    join(dir, "extensions", "hello.js"),
    'export default { name: "hello", tools: [{ name: "hello", handler: () => ({ content: [{ type: "text", text: "hi" }] }) }] };\n',
  );
  writeFileSync(
    join(dir, "preload.cjs"),
    'process.on("exit", () => require("node:fs").writeFileSync(process.env.LOADED_OUT, Object.keys(require.cache).join("\\n")));\n',
  );
  return dir;
}

/** Runs `mcp-host stdio` there, reads the answer to one tools/list (2026-07-28), closes stdin, and returns what was loaded. */
async function loadedForOneAnswer(dir: string): Promise<{ answer: unknown; loaded: string[] }> {
  const out = join(dir, "loaded.txt");
  const child = spawnInGroup(process.execPath, ["--require", join(dir, "preload.cjs"), CLI_MAIN, "stdio", "--cwd", dir], {
    env: { ...cleanEnv(), LOADED_OUT: out },
    stdio: ["pipe", "pipe", "ignore"],
  });
  cleanup.add(() => endTree(child));
  const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
  child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: meta } })}\n`);
  const line = await new Promise<string>((resolve, reject) => {
    let text = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      text += chunk;
      if (text.includes("\n")) resolve(text.slice(0, text.indexOf("\n")));
    });
    child.once("exit", (code) => reject(new Error(`mcp-host stdio exited (${code}) before answering`)));
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.stdin.end();
  await exited;
  return { answer: JSON.parse(line), loaded: readFileSync(out, "utf8").split("\n") };
}

describe("mcp-host stdio's cold start", { timeout: 60_000 }, () => {
  it("answers its first request without loading what only other deployments need", async () => {
    const { answer, loaded } = await loadedForOneAnswer(desktopFolder());
    const tools = (answer as { result?: { tools?: { name: string }[] } }).result?.tools?.map((t) => t.name);
    assert.deepEqual(tools, ["hello", "list_server_toolsets"]);
    const packages = new Set(loaded.map((file) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(file)?.[1]).filter((p) => p !== undefined));
    assert.ok(packages.has("pino"), `the preload saw CommonJS packages load: ${[...packages].join(", ")}`);
    assert.deepEqual(
      NOT_ON_THE_WAY.filter((p) => packages.has(p)),
      [],
    );
  });
});
