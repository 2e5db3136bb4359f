// docs/design.md §11 reload: `gateway.reconfigure(servers)` applies a new servers map live — servers added, removed and
// changed in one offer change (one notification to listening clients), unchanged servers keeping their connection —
// and reports what changed; a map with a problem is refused as a whole while the old servers keep serving.
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { Cleanup } from "../helpers/http-host.js";
import { descendants } from "../helpers/processes.js";
import { legacyServer, listener, serveGateway, stderrOf, textOf } from "./gateway-kit.js";

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

const running = (name: string) => descendants().filter((p) => p.cmd.includes(`"name":"${name}"`)).length;

describe("reconfiguring the gateway live", { timeout: 60_000 }, () => {
  it("adds, removes and changes servers in one change, keeping the unchanged ones connected", async () => {
    const a = legacyServer("a", { tools: ["echo"] });
    const served = await serveGateway(cleanup, {
      servers: { a, b: legacyServer("b", { tools: ["count"] }), c: legacyServer("c", { tools: [{ name: "c_tool", behaviour: "count" }] }) },
    });
    // A 2025 session stays on the active set it started with, so its URL names toolsets that stay (see docs/gateway.md).
    const modern = await listener(cleanup, served.at(""), "modern");
    const sessions = [await listener(cleanup, served.at("only=a,b"), "legacy"), await listener(cleanup, served.at("only=a,b"), "v1")];
    await served.legacyStreams(2);
    assert.deepEqual((await modern.client.listTools()).tools.map((t) => t.name).sort(), ["c_tool", "count", "echo", "list_server_toolsets"]);
    for (const l of sessions) assert.deepEqual((await l.client.listTools()).tools.map((t) => t.name).sort(), ["count", "echo", "list_server_toolsets"]);

    const report = await served.gateway.reconfigure({
      a: { ...a },
      b: legacyServer("b", { tools: [{ name: "count_v2", behaviour: "count" }] }),
      d: legacyServer("d", { tools: [{ name: "d_tool", behaviour: "count" }] }),
    });
    assert.deepEqual(report, { added: ["d"], removed: ["c"], changed: ["b"], unchanged: ["a"], unavailable: [] });

    assert.deepEqual(await modern.firstTold, ["count_v2", "d_tool", "echo", "list_server_toolsets"]);
    assert.equal(textOf(await modern.client.callTool({ name: "d_tool", arguments: {} })), "ran");
    for (const l of sessions) assert.deepEqual(await l.firstTold, ["count_v2", "echo", "list_server_toolsets"], l.label);
    for (const l of [modern, ...sessions]) {
      assert.equal(textOf(await l.client.callTool({ name: "count_v2", arguments: {} })), "ran", l.label);
      assert.equal(textOf(await l.client.callTool({ name: "echo", arguments: { text: "same" } })), "same", l.label);
      assert.equal(l.told(), 1, `${l.label} was told once`);
    }
    assert.equal(served.records.filter(stderrOf("a", "fixture a starting")).length, 1, "a kept its connection");
    assert.equal(served.records.filter(stderrOf("b", "fixture b starting")).length, 2, "b was restarted with its new settings");
    assert.equal(running("c"), 0, "the removed server's process is gone");
    assert.deepEqual(
      served.gateway.status().map((s) => [s.server, s.state]),
      [
        ["a", "up"],
        ["b", "up"],
        ["d", "up"],
      ],
    );
  });

  it("refuses a map with an unreachable required server as a whole, and the old servers keep serving", async () => {
    const served = await serveGateway(cleanup, { servers: { a: legacyServer("a", { tools: ["echo"] }) } });
    const l = await listener(cleanup, served.at(""), "modern");
    await assert.rejects(
      served.gateway.reconfigure({ a: legacyServer("a", { tools: ["count"] }), dead: legacyServer("dead", { exitAtStart: 5 }) }),
      (error: Error & { code?: string }) => {
        assert.equal(error.code, "MCP_SERVER_UNREACHABLE");
        assert.match(error.message, /^server "dead" could not be connected: the server process exited during start-up \(exit code 5\)/);
        return true;
      },
    );
    assert.equal(served.gateway.problems()[0]?.code, "MCP_SERVER_UNREACHABLE");
    assert.equal(textOf(await l.client.callTool({ name: "echo", arguments: { text: "still" } })), "still");
    assert.equal(l.told(), 0, "nothing changed, nobody was told");
    assert.equal(running("dead"), 0);
    assert.equal(served.records.filter(stderrOf("a", "fixture a starting")).length, 2, "the candidate a was started, then closed");
    assert.deepEqual(
      served.gateway.status().map((s) => [s.server, s.state, s.tools]),
      [["a", "up", 1]],
    );
    const after = await served.gateway.reconfigure({ a: legacyServer("a", { tools: ["echo"] }) });
    assert.deepEqual(after, { added: [], removed: [], changed: [], unchanged: ["a"], unavailable: [] }, "the old map is still the current one");
  });

  it("adds an unreachable optional server as unavailable and reports it", async () => {
    const served = await serveGateway(cleanup, { servers: { a: legacyServer("a", { tools: ["echo"] }) }, remoteServers: "optional" });
    const report = await served.gateway.reconfigure({ a: legacyServer("a", { tools: ["echo"] }), later: legacyServer("later", { exitAtStart: 1 }) });
    assert.deepEqual(report, { added: ["later"], removed: [], changed: [], unchanged: ["a"], unavailable: ["later"] });
    assert.deepEqual(
      served.host.unavailable().map((u) => [u.server, u.code]),
      [["later", "MCP_SERVER_UNREACHABLE"]],
    );
  });
});
