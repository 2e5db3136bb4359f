// docs/design.md §11 start-up: every server connects at once under one shared deadline; filters are checked against the
// real tool list (TOOL_FILTER_MATCHES_NOTHING names the server); `remoteServers: required` fails start-up naming
// every unreachable server and never its URL; `optional` starts anyway, reports the server in /healthz and /toolsets,
// retries with backoff (on a clock the test moves) until it comes up, and then its toolset appears and listening
// clients are told. Filters are waived only for servers that never connected.
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Cleanup, connectV2, raw } from "../helpers/http-host.js";
import { ManualClock } from "../helpers/manual-clock.js";
import { freePort, stateDir } from "../helpers/registry/harness.js";
import { legacyServer, listener, serveGateway, textOf, toolNames } from "./gateway-kit.js";

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

/** The gateway's status line in the host's extension statuses. */
function gatewayStatus(served: { host: { extensionStatuses(): Array<{ name: string; status: string; error?: string; code?: string }> } }) {
  return served.host.extensionStatuses().find((e) => e.name === "gateway")!;
}

describe("gateway start-up", { timeout: 60_000 }, () => {
  it("connects every server at once: two servers that each wait for the other both come up", async () => {
    const dir = stateDir();
    const [a, b] = [join(dir, "a.started"), join(dir, "b.started")];
    const { at, gateway } = await serveGateway(cleanup, {
      servers: {
        a: legacyServer("a", { tools: ["echo"], touch: a, waitFor: [b] }),
        b: legacyServer("b", { tools: ["count"], touch: b, waitFor: [a] }),
      },
      startupTimeoutMs: 20_000,
    });
    assert.deepEqual(
      gateway.status().map((s) => s.state),
      ["up", "up"],
    );
    const { client } = await connectV2(cleanup, at("a&b"), "modern");
    assert.deepEqual(await toolNames(client), ["count", "echo", "list_server_toolsets"]);
  });

  it("required: fails start-up naming every unreachable server, never a URL, and leaves nothing running", async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/mcp/sk-live-path-secret`;
    const served = await serveGateway(cleanup, {
      servers: { dead: legacyServer("dead", { exitAtStart: 3 }), gone: { url }, fine: legacyServer("fine", { tools: ["echo"] }) },
    });
    const status = gatewayStatus(served);
    assert.equal(status.status, "failed");
    assert.equal(status.code, "EXTENSION_SETUP_FAILED");
    assert.match(status.error!, /server "dead" could not be connected: the server process exited during start-up \(exit code 3\)/);
    assert.match(status.error!, /server "gone" could not be connected/);
    assert.match(status.error!, /set remoteServers: optional to start without them/);
    for (const secret of [url, "sk-live-path-secret", `127.0.0.1:${port}`]) assert.ok(!status.error!.includes(secret), `the message does not carry ${secret}`);
    const [problem, ...more] = served.gateway.problems();
    assert.deepEqual(more, []);
    assert.equal(problem!.code, "MCP_SERVER_UNREACHABLE");
    assert.equal(problem!.message, status.error!.replace(/^\[extension gateway\] setup threw; the extension is quarantined: /, ""));
    assert.deepEqual(served.gateway.status(), [], "no server is kept: the good one was closed too");
    const health = (await raw({ url: new URL("/healthz", served.served.baseUrl) })).json;
    assert.deepEqual(
      health.extensions.failed.map((f: { name: string }) => f.name),
      ["gateway"],
    );
  });

  it("fails start-up when the one shared deadline passes, naming each server that was not up by then", async () => {
    const served = await serveGateway(cleanup, {
      servers: { slow: legacyServer("slow", { silent: true }), stuck: legacyServer("stuck", { silent: true }), fine: legacyServer("fine") },
      startupTimeoutMs: 3_000,
    });
    const [problem] = served.gateway.problems();
    assert.equal(problem?.code, "MCP_SERVER_UNREACHABLE");
    assert.match(problem!.message, /^server "slow" did not connect within 3000 ms; server "stuck" did not connect within 3000 ms \(/);
    assert.equal(gatewayStatus(served).status, "failed", "the gateway's own deadline fired, not the host's setup timeout");
    assert.doesNotMatch(gatewayStatus(served).error!, /EXTENSION_SETUP_TIMEOUT|did not finish within/);
  });

  it("fails start-up with TOOL_FILTER_MATCHES_NOTHING when a pattern matches none of the server's real tools", async () => {
    const served = await serveGateway(cleanup, {
      servers: {
        fs: legacyServer("fs", { tools: ["read_file", "write_file"] }, { include: ["read_*"], exclude: ["write-file"] }),
        ok: legacyServer("ok", { tools: ["echo"] }, { include: ["echo"] }),
      },
    });
    const [problem] = served.gateway.problems();
    assert.equal(problem?.code, "TOOL_FILTER_MATCHES_NOTHING");
    assert.equal(problem?.server, "fs");
    assert.equal(
      problem?.message,
      'server "fs": exclude pattern "write-file" matches none of its tools; its tools are read_file, write_file (patterns are case-sensitive globs) (fix the include/exclude patterns)',
    );
    assert.equal(gatewayStatus(served).status, "failed");
  });

  it("runs on the host's clock when given none of its own (ctx.clock)", async () => {
    const clock = new ManualClock();
    const served = await serveGateway(
      cleanup,
      {
        servers: { never: legacyServer("never", { exitAtStart: 2 }) },
        remoteServers: "optional",
        // Far beyond the test's own timeout: only a clock the test moves can bring the retry.
        retry: { initialDelayMs: 600_000, maxDelayMs: 600_000 },
      },
      { host: { clock } },
    );
    const planned = () => served.records.filter((r) => r.message.startsWith('retrying server "never" in')).length;
    await served.logged((r) => r.message.startsWith('retrying server "never" in'), "the first retry planned");
    assert.equal(planned(), 1);
    await clock.advance(600_000);
    await served.logged((r) => r.message.startsWith('retrying server "never" in') && planned() === 2, "the retry run, and the next one planned");
  });

  it("optional: starts without an unreachable server, reports it, and serves it once a retry finds it up", async () => {
    const clock = new ManualClock();
    const dir = stateDir();
    const ready = join(dir, "flaky.ready");
    const served = await serveGateway(cleanup, {
      servers: {
        fine: legacyServer("fine", { tools: ["count"] }),
        flaky: legacyServer("flaky", { tools: ["echo"], exitUnless: ready }, { include: ["echo"] }),
        never: legacyServer("never", { exitAtStart: 2 }, { include: ["no-such-tool"] }),
      },
      remoteServers: "optional",
      clock,
      retry: { initialDelayMs: 1_000, maxDelayMs: 4_000 },
    });
    assert.equal(gatewayStatus(served).status, "ready", "the include that matches nothing is waived for a server that never connected");
    const warned = served.records.filter((r) => r.level === "warn" && r.data?.code === "MCP_SERVER_UNREACHABLE" && r.prefix.at(-1) === "gateway");
    assert.deepEqual(
      warned.map((r) => r.data?.server),
      ["flaky", "never"],
    );
    assert.match(
      warned[0]!.message,
      /^server "flaky" could not be connected: .*; starting without it and retrying in the background \(remoteServers: optional\)$/,
    );
    const health = (await raw({ url: new URL("/healthz", served.served.baseUrl) })).json;
    assert.equal(health.status, "degraded");
    assert.deepEqual(health.upstreams.unavailable, [
      { server: "flaky", phase: "connect", code: "MCP_SERVER_UNREACHABLE" },
      { server: "never", phase: "connect", code: "MCP_SERVER_UNREACHABLE" },
    ]);
    const toolsets = (await raw({ url: new URL("/toolsets", served.served.baseUrl) })).json;
    assert.deepEqual(
      toolsets.toolsets.map((t: { name: string }) => t.name),
      ["fine", "flaky", "never"],
    );
    assert.deepEqual(
      toolsets.unavailable.map((u: { server: string; code: string }) => [u.server, u.code]),
      [
        ["flaky", "MCP_SERVER_UNREACHABLE"],
        ["never", "MCP_SERVER_UNREACHABLE"],
      ],
    );

    const listening = [await listener(cleanup, served.at("only=flaky"), "modern"), await listener(cleanup, served.at("only=flaky"), "legacy")];
    await served.legacyStreams(1);
    for (const l of listening)
      assert.deepEqual(
        (await l.client.listTools()).tools.map((t) => t.name),
        ["list_server_toolsets"],
      );

    await clock.advance(4_000); // the first retry: still down
    await served.logged(
      (r) => r.message.startsWith('retrying server "flaky" in') && r.data?.server === "flaky" && served.records.indexOf(r) > 0,
      "a second retry",
    );
    writeFileSync(ready, "now");
    await clock.advance(4_000); // the cap: the next retry has run by now
    for (const l of listening) assert.deepEqual(await l.firstTold, ["echo", "list_server_toolsets"], `${l.label} was told`);
    for (const l of listening) {
      assert.equal(textOf(await l.client.callTool({ name: "echo", arguments: { text: "back" } })), "back");
      assert.equal(l.told(), 1, `${l.label} was told once`);
    }
    const after = (await raw({ url: new URL("/healthz", served.served.baseUrl) })).json;
    assert.deepEqual(after.upstreams.unavailable, [{ server: "never", phase: "connect", code: "MCP_SERVER_UNREACHABLE" }]);
  });
});
