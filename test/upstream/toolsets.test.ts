// docs/design.md §11: each upstream server is a toolset named after it (title, description and `default` from the config,
// instructions from the upstream), offering the upstream's tools after include/exclude; one connection per upstream
// for the whole host, shared by every selection, session and era; clashes between upstream toolsets active together
// follow §7. Real upstreams (server-everything, the v1-SDK fixture over stdio and over HTTP), real clients.
import { endTree, spawnInGroup } from "../helpers/child-group.js";
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Cleanup, connectV1, connectV2, raw } from "../helpers/http-host.js";
import { EVERYTHING, EVERYTHING_DOCS, freePort } from "../helpers/registry/harness.js";
import { LegacyHttpFixture } from "../fixtures/upstream/http-fixtures.js";
import { argvServer, EVERYTHING_TOOLS, everythingServer, legacyServer, serveGateway, stderrOf, textOf, toolNames } from "./gateway-kit.js";

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

describe("upstream servers as toolsets", { timeout: 60_000 }, () => {
  it("makes one toolset per server, titled from the config, with the upstream's instructions and tools", async () => {
    const { at, host, baseUrl } = await serveGateway(cleanup, {
      servers: {
        everything: everythingServer({ title: "Everything", description: "The MCP reference server" }),
        fx: legacyServer("fx", { tools: ["echo", "count", "is_error"] }, { default: false }),
      },
    }).then((g) => ({ ...g, baseUrl: g.served.baseUrl }));
    const listed = (await raw({ url: new URL("/toolsets?fx", baseUrl) })).json;
    assert.deepEqual(
      listed.toolsets.map((t: Record<string, unknown>) => [t.name, t.title, t.description, t.default, t.active, t.extensions]),
      [
        ["everything", "Everything", "The MCP reference server", true, true, ["gateway"]],
        ["fx", "fx", undefined, false, true, ["gateway"]],
      ],
    );
    const instructions = readFileSync(join(EVERYTHING_DOCS, "instructions.md"), "utf8");
    assert.equal(host.declaredToolsets().find((t) => t.name === "everything")?.instructions, instructions);

    const { client } = await connectV2(cleanup, at("only=fx"), "modern");
    assert.deepEqual(await toolNames(client), ["count", "echo", "is_error", "list_server_toolsets"]);
    assert.equal(client.getInstructions(), undefined, "fx sent no instructions, and the everything toolset is not on");
    const everything = await connectV2(cleanup, at(""), "legacy");
    assert.deepEqual(await toolNames(everything.client), [...EVERYTHING_TOOLS, "list_server_toolsets"].sort());
    assert.equal(everything.client.getInstructions(), `## Everything\n\n${instructions.trim()}`);
  });

  it("serves server-everything over its Streamable HTTP mode", async () => {
    const port = await freePort();
    const child = spawnInGroup(process.execPath, [EVERYTHING, "streamableHttp"], {
      env: { PATH: process.env.PATH ?? "", PORT: String(port) },
      stdio: ["ignore", "ignore", "pipe"],
    });
    cleanup.add(() => endTree(child, { first: "SIGTERM" }));
    await new Promise<void>((resolve, reject) => {
      let said = "";
      child.stderr!.on("data", (chunk: Buffer) => {
        said += chunk.toString();
        if (said.includes("MCP Streamable HTTP Server listening on port")) resolve();
      });
      child.once("exit", (code) => reject(new Error(`server-everything exited (${code}): ${said}`)));
    });
    const { at } = await serveGateway(cleanup, { servers: { everything: { url: `http://127.0.0.1:${port}/mcp`, title: "Everything over HTTP" } } });
    for (const era of ["modern", "legacy"] as const) {
      const { client } = await connectV2(cleanup, at("only=everything"), era);
      assert.deepEqual(await toolNames(client), [...EVERYTHING_TOOLS, "list_server_toolsets"].sort(), era);
      assert.equal(textOf(await client.callTool({ name: "get-sum", arguments: { a: 20, b: 22 } })), "The sum of 20 and 22 is 42.", era);
    }
  });

  it("offers only what include lets through and exclude does not take away (case-sensitive globs)", async () => {
    const tools = ["read_a", "read_b", "Read_c", "write_d", "drop"].map((name) => ({ name, behaviour: "count" }));
    const { at } = await serveGateway(cleanup, { servers: { fx: legacyServer("fx", { tools }, { include: ["read_*", "drop"], exclude: ["read_b"] }) } });
    const { client } = await connectV2(cleanup, at("only=fx"), "modern");
    assert.deepEqual(await toolNames(client), ["drop", "list_server_toolsets", "read_a"]);
    const refused = await client.callTool({ name: "write_d", arguments: {} }).catch((e: Error) => e);
    assert.match(String((refused as Error).message), /Unknown tool "write_d"/);
  });

  it("keeps one connection per upstream for every selection, session and era", async () => {
    const http = await new LegacyHttpFixture({ name: "remote", tools: ["echo"] }).start();
    cleanup.add(() => http.stop());
    const { at, logged, records, gateway } = await serveGateway(cleanup, {
      servers: { fx: legacyServer("fx", { tools: ["echo"] }), remote: { url: http.url } },
    });
    const clients = [
      (await connectV2(cleanup, at("only=fx"), "modern")).client,
      (await connectV2(cleanup, at("only=fx"), "legacy")).client,
      (await connectV2(cleanup, at("fx&remote"), "modern")).client,
      (await connectV1(cleanup, at("remote,fx"))).client,
      (await connectV2(cleanup, at(""), "legacy")).client,
    ];
    for (const [i, client] of clients.entries()) {
      const name = (await client.listTools()).tools.some((t) => t.name === "fx__echo") ? "fx__echo" : "echo";
      assert.equal(textOf(await client.callTool({ name, arguments: { text: `call ${i}` } })), `call ${i}`);
    }
    const both = clients[2]!;
    assert.equal(textOf(await both.callTool({ name: "remote__echo", arguments: { text: "remote" } })), "remote");
    await logged(stderrOf("fx", "fixture fx starting"), "the fixture's start line");
    assert.equal(records.filter(stderrOf("fx", "fixture fx starting")).length, 1, "the stdio upstream was started once");
    assert.equal(records.filter(stderrOf("fx", "list:tools")).length, 1, "and listed once: no call re-lists it");
    assert.equal(http.counts.methods["tools/list"], 1, "the HTTP upstream was listed once");
    assert.equal(http.counts.methods.initialize, 1, "the HTTP upstream saw one initialize");
    assert.deepEqual(
      gateway.status().map((s) => [s.server, s.state, s.tools]),
      [
        ["fx", "up", 1],
        ["remote", "up", 1],
      ],
    );
  });

  it("qualifies a tool two upstream toolsets offer only where both are active (§7)", async () => {
    const status = [{ name: "status", behaviour: "argv" }];
    const { at } = await serveGateway(cleanup, { servers: { git: legacyServer("git", { tools: status }), fs: legacyServer("fs", { tools: status }) } });
    const both = (await connectV2(cleanup, at("git&fs"), "modern")).client;
    assert.deepEqual(await toolNames(both), ["fs__status", "git__status", "list_server_toolsets"]);
    assert.equal(argvServer(await both.callTool({ name: "git__status", arguments: {} })), "git");
    assert.equal(argvServer(await both.callTool({ name: "fs.status", arguments: {} })), "fs");
    const ambiguous = await both.callTool({ name: "status", arguments: {} }).catch((e: Error) => e);
    assert.match(String((ambiguous as Error).message), /Unknown tool "status"/);
    const one = (await connectV1(cleanup, at("only=git"))).client;
    assert.deepEqual((await one.listTools()).tools.map((t) => t.name).sort(), ["list_server_toolsets", "status"]);
    assert.equal(argvServer(await one.callTool({ name: "status", arguments: {} })), "git");
  });
});
