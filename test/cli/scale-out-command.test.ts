// `scaleOut:` in the command (docs/scale-out.md). Without it `mcp-host serve` loads no Redis client, and neither does
// it with `scaleOut` but no `redis` (then only the instance's name and the state key apply: a 2025-era session id
// starts with the name) — a --require preload writes the CommonJS module cache at exit, where ioredis would show.
// `mcp-host check` pings the fleet's Redis: unreachable is a problem with its code, and the URL and its password
// are never printed.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, before, describe, it } from "node:test";
import { assertBuilt, runCli, startCli } from "../helpers/cli-process.js";
import { assertFleetServers, freePort, startRedis } from "../helpers/fleet-servers.js";
import { Cleanup, rawLegacyInitialize } from "../helpers/http-host.js";
import { FLEET_PROJECT } from "../scale-out/fleet-kit.js";

const cleanup = new Cleanup();
afterEach(() => cleanup.run());
before(() => assertBuilt());

function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "mcp-host-scale-out-cli-"));
  cleanup.add(() => rmSync(dir, { recursive: true, force: true }));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

const PRELOAD = 'process.on("exit", () => require("node:fs").writeFileSync(process.env.LOADED_OUT, Object.keys(require.cache).join("\\n")));\n';

/** Serves the fleet project with `config`, opens one 2025-era session, stops; the session id and the packages loaded. */
async function servedOnce(config: string): Promise<{ sessionId: string; packages: Set<string> }> {
  const dir = folder({ "mcp-host.config.yaml": config, "preload.cjs": PRELOAD });
  const out = join(dir, "loaded.txt");
  const cli = startCli(cleanup, ["serve", "--cwd", FLEET_PROJECT, "--config", join(dir, "mcp-host.config.yaml")], {
    env: { LOADED_OUT: out, NODE_OPTIONS: `--require ${join(dir, "preload.cjs")}` },
  });
  const line = await cli.line(/is serving .* over MCP at /);
  const url = new URL(/over MCP at (\S+)/.exec(line)![1]!);
  const init = await rawLegacyInitialize(url);
  const sessionId = String(init.headers["mcp-session-id"]);
  await cli.stop("SIGTERM");
  const loaded = readFileSync(out, "utf8").split("\n");
  return { sessionId, packages: new Set(loaded.map((file) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(file)?.[1]).filter((p) => p !== undefined)) };
}

describe("scaleOut in the command", { timeout: 60_000 }, () => {
  it("loads no Redis client without scaleOut, nor with scaleOut but no redis; with redis it does", async () => {
    const alone = await servedOnce("http: { port: 0 }\n");
    assert.ok(alone.packages.has("pino"), "the preload saw the CommonJS packages load");
    assert.equal(alone.packages.has("ioredis"), false, "no Redis client without scaleOut");
    assert.match(alone.sessionId, /^[0-9a-f-]{36}$/, "a plain UUID as before");

    const named = await servedOnce("http: { port: 0 }\nscaleOut:\n  instanceId: mcp-z\n");
    assert.equal(named.packages.has("ioredis"), false, "no Redis client without scaleOut.redis");
    assert.match(named.sessionId, /^mcp-z\.[0-9a-f-]{36}$/, "the session id names its instance");

    // Nothing listens on this port: the instance serves all the same (Redis connects on its own, later).
    const shared = await servedOnce(`http: { port: 0 }\nscaleOut:\n  instanceId: mcp-y\n  redis: { url: "redis://127.0.0.1:${await freePort()}" }\n`);
    assert.equal(shared.packages.has("ioredis"), true, "the check can see ioredis load");
    assert.match(shared.sessionId, /^mcp-y\./);
  });

  it("check reports an unreachable Redis with its code, never printing the URL or its password", async () => {
    const url = `redis://:pw-never-printed@127.0.0.1:${await freePort()}/0`;
    const dir = folder({ "mcp-host.config.yaml": `scaleOut:\n  redis: { url: "${url}" }\n` });
    const run = await runCli(cleanup, ["check", "--cwd", FLEET_PROJECT, "--config", join(dir, "mcp-host.config.yaml"), "--json"]);
    assert.equal(run.code, 1, run.stderr);
    const report = JSON.parse(run.stdout) as { ok: boolean; problems: Array<{ code: string; message: string }> };
    assert.deepEqual(
      report.problems.map((p) => p.code),
      ["SCALE_OUT_REDIS_DOWN"],
    );
    for (const secret of [url, "pw-never-printed"]) assert.ok(!`${run.stdout}${run.stderr}`.includes(secret), `printed ${secret}`);
  });

  it("check passes against a Redis that answers", async () => {
    assertFleetServers();
    const redis = await startRedis(cleanup);
    const dir = folder({ "mcp-host.config.yaml": `scaleOut:\n  redis: { url: "${redis.url}" }\n` });
    const run = await runCli(cleanup, ["check", "--cwd", FLEET_PROJECT, "--config", join(dir, "mcp-host.config.yaml")]);
    assert.equal(run.code, 0, `${run.stdout}\n${run.stderr}`);
    assert.match(run.stdout, /check: ok/);
  });
});
