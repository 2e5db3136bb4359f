// `serve`, `stdio` and `dev` fail fast and clean on start-up errors (issue 27 item 3): a busy port, an address that is
// not this machine's, a busy metrics port, an unreadable config — each is one line on stderr that says what to change
// (`--port`, `http.port`, `--host`, `metrics.port`), the upstream processes the start-up had already started are
// gone, and the command exits non-zero on its own (before, a serve on a busy port printed `listen EADDRINUSE` and ran
// on with its upstreams until SIGTERM).
import { afterEach, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CLI_PROJECT, REPO, assertBuilt, runCli } from "../helpers/cli-process.js";
import { Cleanup } from "../helpers/cleanup.js";
import { noProcessWith } from "../helpers/processes.js";

const cleanup = new Cleanup();
afterEach(() => cleanup.run());
before(() => assertBuilt());

const LEGACY_FIXTURE = join(REPO, "test", "fixtures", "upstream", "legacy-stdio.mjs");

/** A port held by this test, so the command finds it busy. */
async function busyPort(): Promise<number> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanup.add(() => new Promise((resolve) => server.close(resolve)));
  return (server.address() as { port: number }).port;
}

/**
 * A folder with a config whose one upstream is a stdio server that ignores SIGTERM and lingers, marked so it can be
 * found in the process table; `started` exists once it has run (so it was running when the listen failed).
 */
function deploymentWithUpstream(extra: Record<string, unknown> = {}): { config: string; marker: string; started: string } {
  const dir = mkdtempSync(join(tmpdir(), "mcp-host-start-up-"));
  cleanup.add(() => rmSync(dir, { recursive: true, force: true }));
  const marker = `start-up-failure-${randomUUID()}`;
  const started = join(dir, "upstream-started");
  const upstream = { command: process.execPath, args: [LEGACY_FIXTURE, JSON.stringify({ name: marker, touch: started, ignoreSigterm: true, linger: true })] };
  const config = join(dir, "mcp-host.config.json");
  writeFileSync(config, JSON.stringify({ servers: { lingering: upstream }, startupTimeoutMs: 20_000, ...extra }, null, 2));
  cleanup.add(() => noProcessWith(marker).catch(() => {}));
  return { config, marker, started };
}

/** The lines a failed command wrote on stderr that are not log lines: the command's own report. */
function reportLines(stderr: string): string[] {
  return stderr.split("\n").filter((line) => line.startsWith("mcp-host:"));
}

describe("start-up failures", { timeout: 120_000 }, () => {
  for (const command of ["serve", "dev"] as const) {
    it(`${command} on a busy port: one line naming --port and http.port, its upstream gone, exit 1`, async () => {
      const port = await busyPort();
      const { config, marker, started } = deploymentWithUpstream();
      const run = await runCli(cleanup, [command, "--cwd", CLI_PROJECT, "--extension", "echo", "--config", config, "--port", String(port)]);
      assert.equal(run.code, 1, run.stderr);
      assert.deepEqual(reportLines(run.stderr), [
        `mcp-host: HTTP_LISTEN_FAILED: cannot listen on 127.0.0.1:${port}: the port is already in use (EADDRINUSE); ` +
          `pick another with --port (e.g. --port ${port + 1}, or --port 0 for any free one) or http.port in the config, or stop what holds it`,
      ]);
      assert.ok(existsSync(started), "the upstream had started before the listen failed");
      await noProcessWith(marker);
    });
  }

  it("serve on an address that is not this machine's: one line naming --host and http.host, exit 1", async () => {
    const { config, marker } = deploymentWithUpstream({ http: { allowedHosts: ["mcp.example.com"] } });
    const run = await runCli(cleanup, ["serve", "--cwd", CLI_PROJECT, "--extension", "echo", "--config", config, "--host", "192.0.2.1", "--port", "0"]);
    assert.equal(run.code, 1, run.stderr);
    assert.deepEqual(reportLines(run.stderr), [
      "mcp-host: HTTP_LISTEN_FAILED: cannot listen on 192.0.2.1:0: the address is not one of this machine's (EADDRNOTAVAIL); " +
        "fix --host or http.host (127.0.0.1 for this machine only, 0.0.0.0 for every interface)",
    ]);
    await noProcessWith(marker);
  });

  it("serve whose metrics port is busy: one line naming metrics.port, exit 1", async () => {
    const port = await busyPort();
    const { config, marker } = deploymentWithUpstream({ metrics: { port } });
    const run = await runCli(cleanup, ["serve", "--cwd", CLI_PROJECT, "--extension", "echo", "--config", config, "--port", "0"]);
    assert.equal(run.code, 1, run.stderr);
    assert.deepEqual(reportLines(run.stderr), [
      `mcp-host: HTTP_LISTEN_FAILED: cannot listen on 127.0.0.1:${port}: the port is already in use (EADDRINUSE); pick another with metrics.port in the config, or stop what holds it`,
    ]);
    await noProcessWith(marker);
  });

  for (const command of ["serve", "stdio", "dev"] as const) {
    it(`${command} with a config that cannot be read: one line, exit 2`, async () => {
      const folder = mkdtempSync(join(tmpdir(), "mcp-host-not-a-config-"));
      cleanup.add(() => rmSync(folder, { recursive: true, force: true }));
      const run = await runCli(cleanup, [command, "--cwd", CLI_PROJECT, "--extension", "echo", "--config", folder]);
      assert.equal(run.code, 2, run.stderr);
      assert.deepEqual(reportLines(run.stderr), ["mcp-host: CONFIG_INVALID: the configuration has 1 problem:"]);
      assert.match(run.stderr, new RegExp(`^CONFIG_INVALID {2}\\(root\\) {2}${folder} is a folder, not a config file$`, "m"));
    });
  }
});
