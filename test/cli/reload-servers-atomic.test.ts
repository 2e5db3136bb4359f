// docs/design.md §11 (issue 17, class 2): the servers of a reload go live all together or not at all. A reload whose
// servers include one that cannot start leaves none of them live and no process running — also when they are the first
// servers of a deployment that had none (the gateway that joins the host then serves nothing, and is not left
// quarantined: the next good reload brings the servers up).
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { reloadOnce } from "../../src/cli/reload.js";
import { Cleanup } from "../helpers/http-host.js";
import { fixtureServer, startDeployment, toolsSeen } from "../helpers/reload-deployment.js";
import { descendants } from "../helpers/processes.js";

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

const config = (servers: Record<string, unknown>) => ({ http: { port: 0 }, servers, startupTimeoutMs: 20_000 });
const dead = () => fixtureServer("dead", [], { exitAtStart: 3 });

/** The fixture upstreams this process runs, by the name in their config. */
function runningFixtures(): string[] {
  return descendants()
    .filter((p) => p.cmd.includes("legacy-stdio.mjs"))
    .map((p) => /"name":"([^"]+)"/.exec(p.cmd)?.[1] ?? "?")
    .sort();
}

describe("a reload's servers go live together or not at all", { timeout: 90_000 }, () => {
  it("brings none of a deployment's first servers live when one cannot start, and all of them on the next good reload", async () => {
    const d = await startDeployment(cleanup, config({}));
    assert.equal(await toolsSeen(d.served.url, "", undefined), "list_server_toolsets");

    d.write(config({ good: fixtureServer("good", ["alpha"]), dead: dead() }));
    const refused = await reloadOnce(d.settings, d.env, d.state);
    assert.equal(refused.applied, false, refused.message);
    assert.match(refused.message, /^the servers were not reloaded, the previous ones keep serving: server "dead" could not be connected/);
    assert.equal(await toolsSeen(d.served.url, "", undefined), "list_server_toolsets", "nothing of the good server went live");
    assert.deepEqual(runningFixtures(), [], "the good server was closed again");
    assert.deepEqual(
      d.deployment.host.extensionStatuses().filter((e) => e.status !== "ready"),
      [],
      "no extension left failed",
    );
    assert.deepEqual(d.state.config.servers, {}, "the running config still has no servers");

    d.write(config({ good: fixtureServer("good", ["alpha"]) }));
    const applied = await reloadOnce(d.settings, d.env, d.state);
    assert.equal(applied.applied, true, applied.message);
    assert.equal(applied.message, "reloaded the config: servers added good");
    assert.equal(await toolsSeen(d.served.url, "", undefined), "alpha, list_server_toolsets");
    assert.equal(refused.error?.code, "MCP_SERVER_UNREACHABLE", "the refusal carried its code");
  });

  it("adds none of a reload's new servers to a running gateway when one cannot start", async () => {
    const d = await startDeployment(cleanup, config({ base: fixtureServer("base", ["alpha"]) }));
    d.write(config({ base: fixtureServer("base", ["alpha"]), second: fixtureServer("second", ["beta"]), dead: dead() }));
    const refused = await reloadOnce(d.settings, d.env, d.state);
    assert.equal(refused.applied, false, refused.message);
    assert.equal(refused.error?.code, "MCP_SERVER_UNREACHABLE");
    assert.equal(await toolsSeen(d.served.url, "", undefined), "alpha, list_server_toolsets");
    assert.deepEqual(runningFixtures(), ["base"]);
    assert.deepEqual(
      d.deployment.gateway?.status().map((s) => `${s.server}:${s.state}`),
      ["base:up"],
    );
  });
});
