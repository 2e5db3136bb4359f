// docs/design.md §11 (issue 17, class 2): a reload is applied whole or refused whole. Against one real deployment with
// auth on (started in process as `serve` starts it), every combination of the config's top-level sections — the list
// read off the schema — changed at once, with the servers changed or not: the reload is applied exactly when nothing
// but `servers` changed; otherwise it is refused with CONFIG_RELOAD_REFUSED naming exactly the changed sections, and
// the served offer, what each token reaches and the running config are as they were (the new server never started).
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { CONFIG_SECTIONS, type ConfigSection, LIVE_SECTIONS, reloadPlan } from "../../src/cli/config-sections.js";
import { readDeploymentConfig } from "../../src/cli/deployment.js";
import { applyConfig } from "../../src/cli/reload.js";
import type { DeploymentConfig } from "../../src/config/index.js";
import { type AuthorizationServer, startAuthorizationServer } from "../fixtures/auth/authorization-server.js";
import { AUDIENCE } from "../helpers/auth-host.js";
import { Cleanup } from "../helpers/http-host.js";
import { callSeen, fixtureServer, type ReloadableDeployment, startDeployment, toolsSeen } from "../helpers/reload-deployment.js";

const cleanup = new Cleanup();
let as: AuthorizationServer;
before(async () => {
  as = await startAuthorizationServer();
});
after(async () => {
  await cleanup.run();
  await as.close();
});

type Input = Record<string, any>;

/** The running config: a value for every section, so each can be changed; `guarded` needs mcp:admin. */
function baseConfig(): Input {
  return {
    name: "reload-under-test",
    version: "1.0.0",
    instructions: "the base instructions",
    extensions: { discover: true },
    selection: { ignoreKeys: ["trace"] },
    http: { port: 0 },
    tools: { maxConcurrent: 16 },
    auth: { issuer: as.issuer, audience: AUDIENCE, jwksUri: as.jwksUri, requiredScopes: ["mcp:read"], toolsetScopes: { guarded: ["mcp:admin"] } },
    logging: { access: true },
    tracing: { enabled: true },
    servers: { open: fixtureServer("open", ["alpha"]), guarded: fixtureServer("guarded", ["beta"]) },
    startupTimeoutMs: 20_000,
    remoteServers: "required",
  };
}

/**
 * Another valid value for each section. Typed over the schema's keys, and checked against CONFIG_SECTIONS below: a
 * section added to the schema fails this test until it has a value here.
 */
const CHANGED: { [K in ConfigSection]: (base: Input) => unknown } = {
  name: () => "renamed",
  version: () => "2.0.0",
  instructions: () => "other instructions",
  extensions: () => ({ discover: false }),
  selection: () => ({ default: "only=open" }),
  endpoints: () => ({ open: "only=open" }),
  http: () => ({ port: 0, maxSessions: 50 }),
  tools: () => ({ maxConcurrent: 8 }),
  tasks: () => ({ maxPerCaller: 4 }),
  // The guard of the server the `servers` change adds: applied without it, that server would be open to every token.
  auth: (base) => ({ ...base.auth, toolsetScopes: { ...base.auth.toolsetScopes, vault: ["mcp:admin"] } }),
  logging: () => ({ access: false }),
  metrics: () => ({ scopes: ["mcp:metrics"] }),
  tracing: () => ({ enabled: false }),
  servers: (base) => ({ ...base.servers, vault: fixtureServer("vault", ["open_vault"]) }),
  startupTimeoutMs: () => 25_000,
  remoteServers: () => "optional",
  scaleOut: () => ({ instanceId: "another-instance" }),
};

const OTHERS = CONFIG_SECTIONS.filter((s) => !LIVE_SECTIONS.has(s));

/** Every section's changed value as the deployment reads it (through the real file and loader). */
async function changedValues(d: ReloadableDeployment, base: Input): Promise<Record<ConfigSection, unknown>> {
  const values = {} as Record<ConfigSection, unknown>;
  for (const section of CONFIG_SECTIONS) {
    d.write({ ...base, [section]: CHANGED[section](base) });
    const read = (await readDeploymentConfig(d.settings, d.env, true)).config;
    assert.deepEqual(reloadPlan(d.deployment.config, read).changed, [section], `the changed value of ${section} changes ${section} alone`);
    values[section] = read[section];
  }
  d.write(base);
  return values;
}

describe("a reload is applied whole or refused whole, for every combination of sections", { timeout: 240_000 }, () => {
  it("applies only a change of nothing but servers, and refuses every other combination leaving everything as it was", async () => {
    assert.deepEqual(Object.keys(CHANGED).sort(), [...CONFIG_SECTIONS].sort(), "a changed value for every section of the schema");
    assert.deepEqual([...LIVE_SECTIONS], ["servers"]);
    const base = baseConfig();
    const d = await startDeployment(cleanup, base);
    const { deployment, state, served } = d;
    const reader = await as.mint({ sub: "reader", scope: "mcp:read" });
    const admin = await as.mint({ sub: "admin", scope: "mcp:read mcp:admin" });
    const probe = async () => ({
      anonymous: await toolsSeen(served.url, "", undefined),
      reader: await toolsSeen(served.url, "", reader),
      readerGuarded: await toolsSeen(served.url, "only=guarded", reader),
      readerVault: await toolsSeen(served.url, "only=vault", reader),
      readerCallsVault: await callSeen(served.url, "", reader, "open_vault"),
      admin: await toolsSeen(served.url, "", admin),
      adminCallsBeta: await callSeen(served.url, "", admin, "beta"),
    });
    const running = deployment.config;
    const values = await changedValues(d, base);
    const before = await probe();
    assert.deepEqual(before, {
      anonymous: "HTTP 401",
      reader: "alpha, list_server_toolsets",
      readerGuarded: "HTTP 403",
      readerVault: "list_server_toolsets",
      readerCallsVault: "error -32602",
      admin: "alpha, beta, list_server_toolsets",
      adminCallsBeta: "ran: ran",
    });
    const servedServers = () => deployment.gateway?.status().map((s) => `${s.server}:${s.state}`);
    const serversBefore = servedServers();
    let refusedCount = 0;
    // The running config object: an applied reload makes a new one; a refused reload must leave this very object.
    let current = state.config;

    for (let mask = 0; mask < 2 ** OTHERS.length; mask += 1) {
      const others = OTHERS.filter((_, i) => (mask & (1 << i)) !== 0);
      for (const withServers of [false, true]) {
        const sections = [...others, ...(withServers ? (["servers"] as const) : [])];
        const label = `changed: ${sections.join(", ") || "nothing"}`;
        const next = { ...running } as Record<ConfigSection, unknown>;
        for (const section of sections) next[section] = values[section];
        const revision = deployment.host.revision;
        const outcome = await applyConfig(state, next as DeploymentConfig);
        if (others.length === 0) {
          assert.equal(outcome.applied, true, `${label}: applied (${outcome.message})`);
          if (withServers) {
            assert.deepEqual(servedServers(), ["guarded:up", "open:up", "vault:up"], label);
            assert.equal(await toolsSeen(served.url, "", admin), "alpha, beta, list_server_toolsets, open_vault", label);
            // Back to the running config for the next combination (a reload of its servers, applied too).
            assert.equal((await applyConfig(state, running)).applied, true, `${label}: reloading the running config again`);
          }
          assert.deepEqual(state.config, running, label);
          current = state.config;
          continue;
        }
        refusedCount += 1;
        assert.equal(outcome.applied, false, label);
        assert.equal(outcome.error?.code, "CONFIG_RELOAD_REFUSED", `${label}: ${outcome.message}`);
        const named = [...others].sort().join(", ");
        assert.ok(
          outcome.message.startsWith(`the config was not reloaded, the previous one keeps serving: it changes ${named}, which only a restart applies`),
          label,
        );
        assert.equal(state.config, current, `${label}: the running config is the same object`);
        assert.equal(deployment.host.revision, revision, `${label}: the offer did not change`);
        assert.deepEqual(servedServers(), serversBefore, `${label}: the servers are as they were`);
        if (others.length <= 1 || mask === 2 ** OTHERS.length - 1) assert.deepEqual(await probe(), before, `${label}: every token reaches what it reached`);
      }
    }
    assert.equal(refusedCount, 2 * (2 ** OTHERS.length - 1));
    const logged = d.records.filter((r) => r.data?.code === "CONFIG_RELOAD_REFUSED").length;
    assert.equal(logged, refusedCount, "each refusal is logged once, with its code");
    assert.deepEqual(await probe(), before);
    assert.deepEqual(state.config, running);
  });
});
