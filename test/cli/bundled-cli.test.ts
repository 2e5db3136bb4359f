// The command ships bundled (issue 28, scripts/bundle-cli.mjs): dist/cli/main.js is one ESM entry and its chunks in
// dist/cli/, not tsc's tree of modules. Every test of the built CLI runs that bundle; these check what bundling could
// break. The bundle imports the root entry's modules (McpHostError and the rest of what `import "mcp-host"` loads)
// from dist/ instead of inlining copies, so an extension and the command share them. A path resolved from
// import.meta.url in a bundled module still finds its file: the isolation worker (dist/host/isolation/tool-worker.js)
// serves a call over stdio in both eras, and --version reads the package's package.json.
import { afterEach, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { CLI_MAIN, REPO, assertBuilt, cleanEnv } from "../helpers/cli-process.js";
import { Cleanup, callText, eraOptions, listedTools } from "../helpers/http-host.js";

const cleanup = new Cleanup();
afterEach(() => cleanup.run());
before(() => assertBuilt());

const CLI_DIR = join(REPO, "dist", "cli");

/** The bundle's files: the entry and the chunks written next to it. */
function bundleFiles(): string[] {
  return readdirSync(CLI_DIR).filter((name) => name === "main.js" || (name.startsWith("main.") && name.endsWith(".js") && name !== "main.unbundled.js"));
}

/** A project whose one extension runs its tool in a worker and imports mcp-host (linked to this checkout). */
function isolatedProject(): string {
  const dir = mkdtempSync(join(tmpdir(), "mcp-host-bundle-"));
  cleanup.add(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, "extensions"));
  mkdirSync(join(dir, "node_modules"));
  symlinkSync(REPO, join(dir, "node_modules", "mcp-host"), "dir");
  writeFileSync(join(dir, "package.json"), JSON.stringify({ private: true, type: "module", mcpExtensions: { walled: "./extensions/walled.js" } }));
  writeFileSync(
    join(dir, "extensions", "walled.js"),
    [
      'import { isMainThread } from "node:worker_threads";',
      'import { defineExtension, textResult } from "mcp-host";',
      "export default defineExtension({",
      '  name: "walled",',
      "  isolation: { module: import.meta.url },",
      '  tools: [{ name: "where", handler: () => textResult(isMainThread ? "main thread" : "worker thread") }],',
      "});",
      "",
    ].join("\n"),
  );
  return dir;
}

describe("the bundled mcp-host command", { timeout: 90_000 }, () => {
  it("is a bundle that imports the root entry's modules from dist/ rather than copying them", () => {
    const files = bundleFiles();
    const text = files.map((name) => readFileSync(join(CLI_DIR, name), "utf8"));
    const entry = readFileSync(CLI_MAIN, "utf8");
    assert.doesNotMatch(entry, /from "\.\/args\.js"/, "main.js inlines the CLI's own modules");
    assert.ok(files.length > 1, `the bundle is split into chunks: ${files.join(", ")}`);
    assert.ok(
      text.some((t) => t.includes('from "../errors.js"')),
      "the bundle imports McpHostError from dist/errors.js",
    );
    assert.deepEqual(
      files.filter((_, i) => /class McpHostError\b/.test(text[i]!)),
      [],
      "no chunk holds a second McpHostError class",
    );
  });

  it("prints the version of the package it belongs to", () => {
    const result = spawnSync(process.execPath, [CLI_MAIN, "--version"], { encoding: "utf8", env: cleanEnv() });
    assert.equal(result.status, 0, result.stderr);
    const pkg = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as { version: string };
    assert.equal(result.stdout.trim(), pkg.version);
  });

  for (const era of ["legacy", "modern"] as const) {
    it(`serves an isolated tool over stdio from its worker (${era === "legacy" ? "2025" : "2026-07-28"})`, async () => {
      const dir = isolatedProject();
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [CLI_MAIN, "stdio", "--cwd", dir],
        env: cleanEnv() as Record<string, string>,
        stderr: "pipe",
      });
      let stderr = "";
      transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
      const client = new Client({ name: "bundle-test", version: "1.0.0" }, eraOptions(era));
      cleanup.add(() => transport.close());
      await client.connect(transport);
      assert.equal(client.getProtocolEra(), era);
      assert.deepEqual(await listedTools(client), ["list_server_toolsets", "where"]);
      assert.equal(await callText(client, "where", {}), "worker thread", stderr);
      await client.close();
    });
  }
});
