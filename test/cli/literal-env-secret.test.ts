// A secret written literally in `servers.*.env` (issue 27): it is accepted (env holds ordinary settings too), but one
// under a secret-looking key is warned about by its key — never its value — with the fix (a secret reference), and it
// is redacted from everything mcp-host writes, as a resolved `${env:…}` is. Before, it passed without a word and the
// upstream's stderr carried it into mcp-host's log as it was.
import { afterEach, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CLI_PROJECT, REPO, assertBuilt, runCli, startCli } from "../helpers/cli-process.js";
import { Cleanup } from "../helpers/cleanup.js";

const cleanup = new Cleanup();
afterEach(() => cleanup.run());
before(() => assertBuilt());

const LEGACY_FIXTURE = join(REPO, "test", "fixtures", "upstream", "legacy-stdio.mjs");
const TOKEN = "literal-token-4f9c2a7e";

function configFile(): string {
  const dir = mkdtempSync(join(tmpdir(), "mcp-host-literal-"));
  cleanup.add(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, "mcp-host.config.json");
  // The fixture prints the variable named by printEnv on its stderr, which mcp-host logs (at debug).
  const upstream = { command: process.execPath, args: [LEGACY_FIXTURE, JSON.stringify({ name: "legacy", tools: ["alpha"], printEnv: "API_TOKEN" })] };
  writeFileSync(file, JSON.stringify({ servers: { legacy: { ...upstream, env: { API_TOKEN: TOKEN, LOG_LEVEL: "debug" } } }, startupTimeoutMs: 20_000 }));
  return file;
}

const WARNING =
  "servers.legacy.env.API_TOKEN looks like a secret but is written literally in the config (the value is not shown, and is redacted from mcp-host's output); " +
  'write it as a secret reference, e.g. "${env:API_TOKEN}" or "${file:./secrets/api_token}", so the file can be committed and shared';

describe("a literal secret in servers.*.env", { timeout: 90_000 }, () => {
  it("is warned about by its key in check, and never shown", async () => {
    const run = await runCli(cleanup, ["check", "--cwd", CLI_PROJECT, "--extension", "echo", "--config", configFile()]);
    assert.equal(run.code, 0, run.stderr);
    const warnings = run.stderr
      .split("\n")
      .filter((line) => line.includes('"code":"MCP_CREDENTIALS_INLINE"'))
      .map((line) => JSON.parse(line) as { level: string; msg: string; key: string });
    assert.deepEqual(warnings, [warnings.length === 1 ? { ...warnings[0]!, level: "warn", msg: WARNING, key: "servers.legacy.env.API_TOKEN" } : ({} as never)]);
    assert.ok(!`${run.stdout}${run.stderr}`.includes(TOKEN));
    assert.doesNotMatch(run.stderr, /LOG_LEVEL/, "an ordinary setting is not warned about");
  });

  it("is redacted from the log when the upstream prints it", async () => {
    const cli = startCli(cleanup, ["serve", "--port", "0", "--cwd", CLI_PROJECT, "--extension", "echo", "--config", configFile(), "--log-level", "debug"]);
    await cli.line(/^ {2}upstream legacy: up/);
    await cli.stderrMatches(/env API_TOKEN=/);
    assert.match(cli.stderr, /env API_TOKEN=<redacted>/);
    assert.ok(!cli.stderr.includes(TOKEN), "the literal never reaches the log");
  });
});
