// withOverrides: command-line flags on top of the file — merged deeply, validated again with the same report.
// Overrides are literal values: they cannot carry secret references, and cannot set credentials at all.
import assert from "node:assert/strict";
import { afterEach, describe, it } from "node:test";
import { withOverrides, type ConfigOverrides } from "../../src/config/index.js";
import { deploymentConfigSchema } from "../../src/config/schema.js";
import { loadYaml, messageAt, refused, removeProjects } from "./config-kit.js";

afterEach(removeProjects);

const yaml = [
  "http: { port: 3000, allowedHosts: [a.example.com], cors: { origin: [https://app.example.com] } }",
  "auth: { issuer: https://id.example.com/, audience: mcp, jwksUri: https://id.example.com/jwks }",
  "servers:",
  "  kb: { url: https://kb.example.com/mcp, headers: { X-Key: '${env:KB}' }, timeoutMs: 20000 }",
  "  hosted: { url: https://h.example.com/mcp, auth: { kind: bearer, token: '${env:T}' } }",
  "  git: { command: uvx, args: [mcp-server-git], cwd: ./repo }",
].join("\n");
const env = { KB: "kb-S3CRET", T: "t-S3CRET" };

describe("withOverrides", () => {
  it("returns the same configuration for no overrides (a loaded config is valid input)", async () => {
    const { config } = await loadYaml(yaml, { env });
    assert.deepEqual(withOverrides(config, {}), config);
    assert.deepEqual(deploymentConfigSchema.parse(config), config);
  });

  it("merges maps deeply and replaces values and lists", async () => {
    const { config } = await loadYaml(yaml, { env });
    const served = withOverrides(config, {
      http: { port: 8080, host: "0.0.0.0", allowedHosts: ["b.example.com"] },
      selection: { strict: true },
      servers: { kb: { timeoutMs: 5000 } },
    });
    assert.equal(served.http.port, 8080);
    assert.equal(served.http.host, "0.0.0.0");
    assert.deepEqual(served.http.allowedHosts, ["b.example.com"]);
    assert.deepEqual(served.http.cors, { origin: ["https://app.example.com"] });
    assert.equal(served.selection.strict, true);
    assert.deepEqual(served.servers.kb, { ...config.servers.kb!, timeoutMs: 5000 });
    assert.deepEqual(served.servers.hosted, config.servers.hosted);
    assert.equal(config.http.port, 3000, "the original is not modified");
  });

  it("validates the result again, with the same report", async () => {
    const { config } = await loadYaml(yaml, { env });
    const overrides = { http: { port: 70000, prot: 1 }, servers: { kb: { command: "x" } } } as unknown as ConfigOverrides;
    const r = await refused(
      () => withOverrides(config, overrides),
      [
        ["CONFIG_INVALID", "http.port"],
        ["CONFIG_INVALID", "http.prot"],
        ["MCP_TRANSPORT_INVALID", "servers.kb.command"],
      ],
      ["kb-S3CRET", "t-S3CRET", "kb.example.com"],
    );
    assert.match(r.message, /^the configuration with its overrides has 3 problems:\n/);
    assert.equal(messageAt(r, "http.port"), "must be a whole number from 0 to 65535, got 70000");
  });

  it("refuses credentials and secret references in overrides, never repeating them", async () => {
    const { config } = await loadYaml(yaml, { env });
    const r = await refused(
      () =>
        withOverrides(config, {
          servers: { kb: { headers: { "X-Key": "sk-OVERRIDE" } }, hosted: { auth: { kind: "bearer", token: "${env:T}" } } },
          name: "${env:NAME}",
        }),
      [
        ["CONFIG_INVALID", "name"],
        ["MCP_CREDENTIALS_INLINE", "servers.hosted.auth.token"],
        ["MCP_CREDENTIALS_INLINE", "servers.kb.headers.X-Key"],
      ],
      ["sk-OVERRIDE", "kb-S3CRET", "t-S3CRET"],
    );
    assert.equal(
      messageAt(r, "servers.kb.headers.X-Key"),
      "is a credential and cannot be set by an override; write it in the config file as a secret reference (the value is not shown)",
    );
    assert.equal(messageAt(r, "name"), "secret references are resolved only in the config file, not in overrides");
  });
});
