// The observability sections (docs/design.md §18): `logging:`, `metrics:` (off unless present; `metrics:` with nothing
// under it turns it on), `tracing:`, `http.ui` / `http.uiPath`; and the rule that with auth on `/metrics` needs
// scopes or a loopback port of its own. The CLI maps them onto listenHost's options.
import assert from "node:assert/strict";
import { afterEach, describe, it } from "node:test";
import { listenOptionsOf } from "../../src/cli/listen-options.js";
import { loadYaml, messageAt, refused, removeProjects } from "./config-kit.js";

afterEach(removeProjects);

const AUTH = "auth:\n  issuer: https://id.example.com/\n  audience: https://mcp.example.com/mcp\n  jwksUri: https://id.example.com/jwks\n";

describe("observability keys", () => {
  it("gives logging, tracing and the page their defaults, and no metrics", async () => {
    const { config } = await loadYaml("name: x\n");
    assert.deepEqual(config.logging, { format: "auto", includeArguments: false, access: true, audit: true });
    assert.deepEqual(config.tracing, { enabled: true });
    assert.equal(config.metrics, undefined);
    assert.deepEqual([config.http.ui, config.http.uiPath], [true, "/"]);
    const options = listenOptionsOf(config);
    assert.deepEqual([options.ui, options.metrics], [{ path: "/" }, undefined]);
  });

  it("turns metrics on with an empty section, and maps every key onto the listen options", async () => {
    const empty = await loadYaml("metrics:\n");
    assert.deepEqual(empty.config.metrics, { path: "/metrics", scopes: [], defaultMetrics: true });
    const { config } = await loadYaml("metrics:\n  path: /stats\n  port: 9464\nhttp:\n  ui: false\nlogging:\n  format: json\n  level: debug\n");
    const options = listenOptionsOf(config);
    assert.deepEqual([options.ui, options.metrics], [false, { path: "/stats", scopes: [], port: 9464 }]);
    assert.deepEqual([config.logging.format, config.logging.level], ["json", "debug"]);
  });

  it("refuses metrics beside auth with neither scopes nor a port, and a bad format, each with its key", async () => {
    const r = await refused(loadYaml(`${AUTH}metrics: {}\nlogging:\n  format: xml\n`), [
      ["CONFIG_INVALID", "logging.format"],
      ["CONFIG_INVALID", "metrics.scopes"],
    ]);
    assert.match(
      messageAt(r, "metrics.scopes"),
      /with auth on, \/metrics needs the scopes a token must carry .* or a loopback port of its own \(metrics\.port\)/,
    );
    const scoped = await loadYaml(`${AUTH}metrics:\n  scopes: [mcp:metrics]\n`);
    assert.deepEqual(scoped.config.metrics?.scopes, ["mcp:metrics"]);
    const ported = await loadYaml(`${AUTH}metrics:\n  port: 9464\n`);
    assert.equal(ported.config.metrics?.port, 9464);
  });
});
