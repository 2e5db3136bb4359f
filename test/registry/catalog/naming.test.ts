// §10.4: bare names when unique across servers; every party to a clash as `server__tool`; the qualified and dotted
// forms always accepted; an ambiguous bare name is an error result naming the choices; duplicates inside one server
// collapse to the first with a warning; names cleaned and budgeted (§7), with a stable map back.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { NAME_PATTERN } from "../../../src/names.js";
import { registryErrorCode, toText } from "../../../src/registry/index.js";
import { legacyStdio, logsOf, registryHarness } from "../../helpers/registry/harness.js";

const LONG = `summarise_${"very_".repeat(14)}long_tool_name`;

const gitTools = [
  { name: "status", behaviour: "echo" },
  { name: "commit", behaviour: "echo" },
  { name: "log.v2", behaviour: "echo" },
  { name: LONG, behaviour: "echo" },
  { name: "x.y", behaviour: "echo" },
];
const fsTools = [
  { name: "status", behaviour: "echo" },
  { name: "read", behaviour: "echo" },
  { name: "read", behaviour: "count" },
  { name: "x_y", behaviour: "echo" },
];

describe("tool naming", () => {
  const h = registryHarness();

  it("lists unique names bare, clashing ones qualified, cleaned to the provider pattern", async () => {
    const registry = h.make([legacyStdio("git", { tools: gitTools }), legacyStdio("fs", { tools: fsTools })]);
    const tools = await registry.listTools();
    const listed = tools.map((t) => [t.name, t.server, t.upstreamName]);
    assert.deepEqual(listed.slice(0, 3), [
      ["git__status", "git", "status"],
      ["commit", "git", "commit"],
      ["log_v2", "git", "log.v2"],
    ]);
    // Cut to 64 characters, with a stable hash of the whole name.
    assert.deepEqual(listed[3], ["summarise_very_very_very_very_very_very_very_very_very__3a2798f7", "git", LONG]);
    assert.deepEqual(listed.slice(4), [
      ["git__x_y", "git", "x.y"],
      ["fs__status", "fs", "status"],
      ["read", "fs", "read"],
      ["fs__x_y", "fs", "x_y"],
    ]);
    for (const t of tools) assert.match(t.name, NAME_PATTERN);
  });

  it("routes listed, qualified and dotted names back to the right server and upstream name", async () => {
    const registry = h.make([legacyStdio("git", { tools: gitTools }), legacyStdio("fs", { tools: fsTools })]);
    const long = (await registry.listTools()).find((t) => t.upstreamName === LONG)!;
    const calls: Array<[string, string]> = [
      ["commit", "git"],
      ["git__commit", "git"],
      ["git.commit", "git"],
      ["git__status", "git"],
      ["fs.status", "fs"],
      ["log_v2", "git"],
      ["git.log.v2", "git"],
      [long.name, "git"],
      ["fs__x_y", "fs"],
    ];
    for (const [name, server] of calls) {
      const result = await registry.callTool(name, { text: `${name}->${server}` });
      assert.equal(result.isError, undefined, `${name}: ${toText(result)}`);
      assert.equal(toText(result), `${name}->${server}`);
    }
  });

  it("refuses a bare name two servers offer, naming the qualified choices", async () => {
    const registry = h.make([legacyStdio("git", { tools: gitTools }), legacyStdio("fs", { tools: fsTools })]);
    const result = await registry.callTool("status", {});
    assert.equal(result.isError, true);
    assert.equal(registryErrorCode(result), "MCP_TOOL_AMBIGUOUS");
    assert.equal(toText(result), 'tool "status" is offered by several servers; call one of: fs__status, git__status');
    const unknown = await registry.callTool("nope", {});
    assert.equal(registryErrorCode(unknown), "MCP_TOOL_UNKNOWN");
    assert.equal(toText(unknown), 'no server offers a tool named "nope"');
  });

  it("collapses a name listed twice by one server to the first, with a warning", async () => {
    const registry = h.make([legacyStdio("fs", { tools: fsTools })]);
    const reads = (await registry.listTools()).filter((t) => t.upstreamName === "read");
    assert.equal(reads.length, 1);
    assert.equal(toText(await registry.callTool("read", { text: "first wins" })), "first wins");
    assert.deepEqual(logsOf(h.records, "fs", "warn"), ['the server listed the tool "read" twice; kept the first']);
  });

  it("gives the same names whatever the order of the servers", async () => {
    const one = h.make([legacyStdio("git", { tools: gitTools }), legacyStdio("fs", { tools: fsTools })]);
    const two = h.make([legacyStdio("fs", { tools: fsTools }), legacyStdio("git", { tools: gitTools })]);
    const map = async (r: typeof one) => new Map((await r.listTools()).map((t) => [t.name, `${t.server}/${t.upstreamName}`]));
    assert.deepEqual([...(await map(one))].sort(), [...(await map(two))].sort());
  });
});
