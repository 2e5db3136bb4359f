// Attack (issue 17, class 2): one reload that brings an upstream's tools live together with the `auth` change that
// guards them. Were the servers applied while the `auth` change waited for a restart, the tools would be open to
// every valid token until then: fail-open. Whatever the shape of the reload — a new server, a changed one that gains a
// tool, the guard as a toolset scope or as a required scope, more restart-only sections beside — a token without the
// scope never reaches those tools, because the reload is refused whole (CONFIG_RELOAD_REFUSED) and nothing of it runs.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { type ReloadOutcome, reloadOnce } from "../../src/cli/reload.js";
import { type AuthorizationServer, startAuthorizationServer } from "../fixtures/auth/authorization-server.js";
import { AUDIENCE } from "../helpers/auth-host.js";
import { Cleanup } from "../helpers/http-host.js";
import { callSeen, fixtureServer, startDeployment, toolsSeen } from "../helpers/reload-deployment.js";

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

function baseConfig(): Input {
  return {
    http: { port: 0 },
    auth: { issuer: as.issuer, audience: AUDIENCE, jwksUri: as.jwksUri, requiredScopes: ["mcp:read"], toolsetScopes: {} },
    servers: { open: fixtureServer("open", ["alpha"]) },
    startupTimeoutMs: 20_000,
  };
}

interface Attack {
  name: string;
  /** The reload: the base config changed so. */
  reload(base: Input): Input;
  /** The toolset and tool the reload means to guard. */
  toolset: string;
  tool: string;
  /** The sections the refusal must name. */
  sections: string;
  /** What the reload came to (filled in by the test). */
  outcome?: ReloadOutcome & { live: string[] | undefined };
}

const ATTACKS: Attack[] = [
  {
    name: "a new server, guarded by a new toolsetScopes entry",
    reload: (base) => ({
      ...base,
      servers: { ...base.servers, vault: fixtureServer("vault", ["open_vault"]) },
      auth: { ...base.auth, toolsetScopes: { vault: ["mcp:admin"] } },
    }),
    toolset: "vault",
    tool: "open_vault",
    sections: "auth",
  },
  {
    name: "the same, with other restart-only sections changed beside it",
    reload: (base) => ({
      ...base,
      http: { port: 0, maxSessions: 50 },
      logging: { access: false },
      servers: { ...base.servers, vault: fixtureServer("vault", ["open_vault"]) },
      auth: { ...base.auth, toolsetScopes: { vault: ["mcp:admin"] } },
    }),
    toolset: "vault",
    tool: "open_vault",
    sections: "auth, http, logging",
  },
  {
    name: "a changed server that gains a destructive tool, guarded in the same reload",
    reload: (base) => ({
      ...base,
      servers: { open: fixtureServer("open", ["alpha", "drop_everything"]) },
      auth: { ...base.auth, toolsetScopes: { open: ["mcp:admin"] } },
    }),
    toolset: "open",
    tool: "drop_everything",
    sections: "auth",
  },
  {
    name: "a new server, guarded by a new required scope",
    reload: (base) => ({
      ...base,
      servers: { ...base.servers, vault: fixtureServer("vault", ["open_vault"]) },
      auth: { ...base.auth, requiredScopes: ["mcp:read", "mcp:vault"] },
    }),
    toolset: "vault",
    tool: "open_vault",
    sections: "auth",
  },
];

describe("a reload never widens access", { timeout: 120_000 }, () => {
  it("never lets a token without the new guard's scope reach the tools that reload brings", async () => {
    const base = baseConfig();
    const d = await startDeployment(cleanup, base);
    const reader = await as.mint({ sub: "reader", scope: "mcp:read" });
    const leaks: string[] = [];
    for (const attack of ATTACKS) {
      d.write(attack.reload(base));
      const outcome = await reloadOnce(d.settings, d.env, d.state);
      const reached = [
        await toolsSeen(d.served.url, "", reader),
        await toolsSeen(d.served.url, `only=${attack.toolset}`, reader),
        await callSeen(d.served.url, "", reader, attack.tool),
        await callSeen(d.served.url, `only=${attack.toolset}`, reader, attack.tool),
      ];
      if (reached.some((seen) => seen.includes(attack.tool) || seen.startsWith("ran"))) leaks.push(`${attack.name}: ${reached.join(" | ")}`);
      const live = d.deployment.gateway?.status().map((s) => s.server);
      d.write(base);
      const restored = await reloadOnce(d.settings, d.env, d.state);
      assert.equal(restored.applied, true, `${attack.name}: the running config reloads (${restored.message})`);
      // What the attack's reload itself came to, checked once the reader's view of it is recorded.
      attack.outcome = { ...outcome, live };
    }
    assert.deepEqual(leaks, [], "a token without the guard's scope reached the guarded tool");
    for (const attack of ATTACKS) {
      const outcome = attack.outcome!;
      assert.equal(outcome.applied, false, `${attack.name}: ${outcome.message}`);
      assert.equal(outcome.error?.code, "CONFIG_RELOAD_REFUSED", attack.name);
      assert.match(
        outcome.message,
        new RegExp(`^the config was not reloaded, the previous one keeps serving: it changes ${attack.sections}, which only a restart applies`),
      );
      assert.equal(d.records.find((r) => r.message === outcome.message)?.data?.code, "CONFIG_RELOAD_REFUSED", `${attack.name}: logged with its code`);
      assert.deepEqual(outcome.live, ["open"], `${attack.name}: nothing of the reload went live`);
    }
  });
});
