// The fast path's off switch (docs/config.md `http.fastPath`, docs/design.md §8): the config key reaches the listen
// options (default on), and the CLI's environment forces it off (`MCP_HOST_FAST_PATH=off`, `0`, `false`) whatever
// the file says — how the conformance runner and the bench serve the same build through the SDK's entry only.
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { fastPathForcedOff, listenOptionsOf } from "../../src/cli/listen-options.js";
import { loadYaml, removeProjects } from "./config-kit.js";

afterEach(removeProjects);

describe("the fast path's off switch", () => {
  it("http.fastPath is on by default and false in the file turns it off", async () => {
    assert.equal(listenOptionsOf((await loadYaml("http: { port: 3001 }")).config).fastPath, true);
    assert.equal(listenOptionsOf((await loadYaml("http: { fastPath: false }")).config).fastPath, false);
  });

  it("MCP_HOST_FAST_PATH=off, 0 or false forces it off; anything else leaves the config's choice", () => {
    for (const value of ["off", "OFF", "0", "false", " off "]) assert.equal(fastPathForcedOff({ MCP_HOST_FAST_PATH: value }), true, value);
    for (const value of [undefined, "", "on", "1", "true", "no"]) assert.equal(fastPathForcedOff({ MCP_HOST_FAST_PATH: value }), false, String(value));
  });
});
