// What the schema refuses, and how it says so: unknown keys (with a suggestion when one is close), wrong types,
// ranges quoted in full, words not allowed — every problem at once, sorted by key path, one line each.
import assert from "node:assert/strict";
import { afterEach, describe, it } from "node:test";
import { CONFIG_RANGES } from "../../src/config/index.js";
import { closestKey } from "../../src/suggest.js";
import { loadYaml, messageAt, refused, removeProjects } from "./config-kit.js";

afterEach(removeProjects);

describe("unknown keys", () => {
  it('suggests a close key: CONFIG_INVALID  http.prot  unknown key; did you mean "port"?', async () => {
    const r = await refused(loadYaml("http:\n  prot: 3000\n"), [["CONFIG_INVALID", "http.prot"]]);
    assert.equal(r.message.split("\n")[1], 'CONFIG_INVALID  http.prot  unknown key; did you mean "port"?');
  });

  it("lists the keys when nothing is close, at every level, without repeating the value", async () => {
    const r = await refused(
      loadYaml(
        "banana: sk-UNKNOWN-VALUE\nservers:\n  git: { command: x, Env: {}, timeout: 5 }\nauth:\n  issuer: https://id.example.com/\n  audience: a\n  jwksUri: https://id.example.com/j\n  jwks_uri: x\n",
      ),
      [
        ["CONFIG_INVALID", "auth.jwks_uri"],
        ["CONFIG_INVALID", "banana"],
        ["CONFIG_INVALID", "servers.git.Env"],
        ["CONFIG_INVALID", "servers.git.timeout"],
      ],
      ["sk-UNKNOWN-VALUE"],
    );
    assert.equal(
      messageAt(r, "banana"),
      "unknown key; the keys here are auth, endpoints, extensions, http, instructions, logging, metrics, name, remoteServers, scaleOut, selection, servers, startupTimeoutMs, tasks, tools, tracing, version",
    );
    assert.equal(messageAt(r, "servers.git.Env"), 'unknown key; did you mean "env"?');
    assert.equal(messageAt(r, "servers.git.timeout"), 'unknown key; did you mean "timeoutMs"?');
    assert.equal(messageAt(r, "auth.jwks_uri"), 'unknown key; did you mean "jwksUri"?');
  });

  it("leaves extension options and contributed auth settings to their owners", async () => {
    const loaded = await loadYaml("extensions:\n  options:\n    spaces: { anything: [1, 2], goes: { here: true } }\n");
    assert.deepEqual(loaded.config.extensions.options, { spaces: { anything: [1, 2], goes: { here: true } } });
  });

  it("finds a close key by edit distance, ignoring case", () => {
    assert.equal(closestKey("prot", ["host", "path", "port"]), "port");
    assert.equal(closestKey("PORT", ["host", "port"]), "port");
    assert.equal(closestKey("allowedOrigin", ["allowedHosts", "allowedOrigins"]), "allowedOrigins");
    assert.equal(closestKey("zzz", ["host", "port"]), undefined);
  });
});

describe("values", () => {
  it("quotes the range of every bounded number (timeouts, sizes, the port)", async () => {
    const yaml = [
      "http: { port: 65536, sessionIdleTtlMs: 10, maxSessions: 0, maxBodyBytes: 100, shutdownTimeoutMs: 600001 }",
      "auth: { issuer: https://id.example.com/, audience: a, jwksUri: https://id.example.com/j, clockToleranceSec: -1 }",
      "servers:",
      "  s: { command: x, timeoutMs: 99, probeTimeoutMs: 60001, killGraceMs: 60001 }",
      "  h: { url: https://h.example.com/mcp, maxTotalTimeoutMs: 86400001 }",
      "startupTimeoutMs: 300001",
    ].join("\n");
    const r = await refused(loadYaml(yaml), [
      ["CONFIG_INVALID", "auth.clockToleranceSec"],
      ["CONFIG_INVALID", "http.maxBodyBytes"],
      ["CONFIG_INVALID", "http.maxSessions"],
      ["CONFIG_INVALID", "http.port"],
      ["CONFIG_INVALID", "http.sessionIdleTtlMs"],
      ["CONFIG_INVALID", "http.shutdownTimeoutMs"],
      ["CONFIG_INVALID", "servers.h.maxTotalTimeoutMs"],
      ["CONFIG_INVALID", "servers.s.killGraceMs"],
      ["CONFIG_INVALID", "servers.s.probeTimeoutMs"],
      ["CONFIG_INVALID", "servers.s.timeoutMs"],
      ["CONFIG_INVALID", "startupTimeoutMs"],
    ]);
    const got: Record<string, number> = {
      "auth.clockToleranceSec": -1,
      "http.maxBodyBytes": 100,
      "http.maxSessions": 0,
      "http.port": 65536,
      "http.sessionIdleTtlMs": 10,
      "http.shutdownTimeoutMs": 600001,
      "servers.h.maxTotalTimeoutMs": 86400001,
      "servers.s.killGraceMs": 60001,
      "servers.s.probeTimeoutMs": 60001,
      "servers.s.timeoutMs": 99,
      startupTimeoutMs: 300001,
    };
    for (const [path, value] of Object.entries(got)) {
      const key = path.replace(/^servers\.[hs]\./, "servers.*.") as keyof typeof CONFIG_RANGES;
      const [min, max] = CONFIG_RANGES[key];
      assert.equal(messageAt(r, path), `must be a whole number from ${min} to ${max}, got ${value}`);
    }
  });

  it("says what type was expected and what was found, and which words are allowed", async () => {
    const r = await refused(
      loadYaml("http: { port: '3000', legacy: sessions, cors: 5 }\nselection: []\nname: 5\nservers:\n  a: { command: x, approval: sometimes, args: [1] }\n"),
      [
        ["CONFIG_INVALID", "http.cors"],
        ["CONFIG_INVALID", "http.legacy"],
        ["CONFIG_INVALID", "http.port"],
        ["CONFIG_INVALID", "name"],
        ["CONFIG_INVALID", "selection"],
        ["CONFIG_INVALID", "servers.a.approval"],
        ["CONFIG_INVALID", "servers.a.args[0]"],
      ],
    );
    assert.equal(messageAt(r, "http.port"), "expected a number, got a string");
    assert.equal(messageAt(r, "http.legacy"), 'must be one of "stateful", "stateless", "reject"');
    assert.equal(messageAt(r, "selection"), "expected a map, got a list");
    assert.equal(messageAt(r, "servers.a.approval"), 'must be one of "never", "destructive", "always"');
    assert.equal(messageAt(r, "servers.a.args[0]"), "expected a string, got a number");
  });

  it("refuses a configuration that is not a map", async () => {
    const r = await refused(loadYaml("- a\n- b\n"), [["CONFIG_INVALID", "(root)"]]);
    assert.equal(r.problems[0]!.message, "expected a map, got a list");
  });

  it("checks the http path, hosts and origins, and normalises origins", async () => {
    const r = await refused(
      loadYaml(
        "http:\n  path: mcp\n  allowedHosts: ['https://mcp.example.com']\n  allowedOrigins: ['https://shop.example.com/app', 'ftp://x.example.com', 'https://u:p-ORIGIN@x.example.com']\n  cors: { origin: [nope] }\n",
      ),
      [
        ["CONFIG_INVALID", "http.allowedHosts[0]"],
        ["CONFIG_INVALID", "http.allowedOrigins[0]"],
        ["CONFIG_INVALID", "http.allowedOrigins[1]"],
        ["CONFIG_INVALID", "http.allowedOrigins[2]"],
        ["CONFIG_INVALID", "http.cors.origin[0]"],
        ["CONFIG_INVALID", "http.path"],
      ],
      ["p-ORIGIN", "shop.example.com"],
    );
    assert.equal(messageAt(r, "http.path"), 'must start with "/" and have no spaces, "?" or "#"');
    assert.equal(messageAt(r, "http.allowedOrigins[0]"), "has a path, query or fragment; an origin is scheme://host[:port] only");
    const loaded = await loadYaml(
      "http:\n  allowedHosts: [mcp.example.com, 'mcp.example.com:8443', '[::1]:3000']\n  allowedOrigins: ['https://App.Example.com/', 'http://localhost:5173']\n  cors: '*'\n",
    );
    assert.deepEqual(loaded.config.http.allowedOrigins, ["https://app.example.com", "http://localhost:5173"]);
    assert.deepEqual(loaded.config.http.cors, { origin: "*" });
  });

  it("reports every problem of every kind in one go, sorted by key path", async () => {
    const yaml =
      "servers:\n  z: { command: x, url: https://z.example.com/mcp }\n  a: { url: http://a.example.com/mcp, headers: { K: sk-ALL-AT-ONCE } }\nhttp: { prot: 1 }\nstartupTimeoutMs: 5\n";
    const r = await refused(
      loadYaml(yaml),
      [
        ["CONFIG_INVALID", "http.prot"],
        ["MCP_CREDENTIALS_INLINE", "servers.a.headers.K"],
        ["MCP_URL_INVALID", "servers.a.url"],
        ["MCP_TRANSPORT_INVALID", "servers.z"],
        ["CONFIG_INVALID", "startupTimeoutMs"],
      ],
      ["sk-ALL-AT-ONCE", "a.example.com", "z.example.com"],
    );
    assert.match(r.message, /^the configuration in .*\.mcp-hostrc\.yaml has 5 problems:\n/);
  });
});
