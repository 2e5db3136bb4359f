// The gateway's inputs: the config's resolved `servers:` entries fit its options as they are (checked by the type
// checker and by a real load), server names must be toolset names, what a reload changes is computed per field,
// filters are checked against real names, and reconnection waits double up to a cap, jittered.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import type { ServerConfig } from "../../src/config/index.js";
import { backoffDelay } from "../../src/upstream/backoff.js";
import { createGateway, type GatewayServerConfig } from "../../src/upstream/index.js";
import { toolFilter } from "../../src/upstream/offer/tool-filter.js";
import { serverChanges } from "../../src/upstream/server-changes.js";

describe("gateway options", () => {
  it("takes the config's ServerConfig entries as they are", () => {
    const fromConfig: Record<string, ServerConfig> = {};
    const servers: Record<string, GatewayServerConfig> = fromConfig; // a type error here means the shapes drifted apart
    assert.equal(createGateway({ servers }).extension.name, "gateway");
  });

  it("refuses a server whose name cannot be a toolset name", () => {
    assert.throws(
      () => createGateway({ servers: { "a,b": { command: "x" } } }),
      (error: Error & { code?: string }) =>
        error.code === "MCP_SERVER_NAME_INVALID" &&
        /^server "a,b": its name is its toolset's name, and toolset name "a,b" cannot be written/.test(error.message),
    );
    assert.throws(() => createGateway({ servers: { only: { command: "x" } } }), /reserved word/);
    // The selection's keywords and modifiers (issue 20) are reserved the same way: a server named "search" is refused at load.
    for (const name of ["all", "default", "readonly", "search", "tools"])
      assert.throws(() => createGateway({ servers: { [name]: { command: "x" } } }), /reserved word/, name);
  });

  it("gives the host's setup the start-up deadline plus a margin", () => {
    assert.equal(createGateway({ servers: {}, startupTimeoutMs: 20_000 }).extension.setupTimeoutMs, 25_000);
  });
});

describe("what a reload changes", () => {
  it("compares every field, ignoring key order", () => {
    const before = { a: { command: "x", args: ["1"], env: { A: "1", B: "2" } }, b: { url: "https://b.example/mcp" }, c: { command: "c" } };
    const after = { a: { env: { B: "2", A: "1" }, args: ["1"], command: "x" }, b: { url: "https://b.example/mcp", timeoutMs: 5 }, d: { command: "d" } };
    assert.deepEqual(serverChanges(before, after), { added: ["d"], removed: ["c"], changed: ["b"], unchanged: ["a"] });
  });
});

describe("include / exclude", () => {
  const names = ["read_file", "read_dir", "Write_file", "drop"];
  it("keeps what include matches and exclude does not, case-sensitively", () => {
    const filter = toolFilter("fs", { include: ["read_*", "?rop"], exclude: ["read_dir"] });
    assert.deepEqual(names.filter(filter.keeps), ["read_file", "drop"]);
    assert.equal(filter.problem(names), undefined);
    assert.deepEqual(names.filter(toolFilter("fs", {}).keeps), names, "no include: everything");
  });

  it("reports each pattern that matches nothing, and a filter that leaves nothing", () => {
    assert.equal(
      toolFilter("fs", { include: ["write_*"], exclude: ["Drop"] }).problem(names)?.message,
      'server "fs": include pattern "write_*", exclude pattern "Drop" match none of its tools; its tools are read_file, read_dir, Write_file, drop (patterns are case-sensitive globs)',
    );
    const emptied = toolFilter("fs", { include: ["read_*"], exclude: ["read_*"] }).problem(names);
    assert.equal(emptied?.code, "TOOL_FILTER_MATCHES_NOTHING");
    assert.match(emptied!.message, /include and exclude leave none of its tools/);
  });
});

describe("reconnection backoff", () => {
  it("doubles from the first delay up to the cap, each wait between half and all of it", () => {
    const backoff = { initialDelayMs: 1_000, maxDelayMs: 8_000 };
    assert.deepEqual(
      [0, 1, 2, 3, 4, 10].map((n) => backoffDelay(backoff, n, () => 0.999999)),
      [1_000, 2_000, 4_000, 8_000, 8_000, 8_000],
    );
    assert.deepEqual(
      [0, 1, 2, 3].map((n) => backoffDelay(backoff, n, () => 0)),
      [500, 1_000, 2_000, 4_000],
    );
  });
});
