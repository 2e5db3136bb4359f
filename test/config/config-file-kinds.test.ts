// Where the configuration is found: every file kind of the search, read from real files in temp folders;
// `--config FILE` overriding the search; the search staying in the project folder; no file meaning the defaults;
// the kinds mcp-host refuses (TypeScript, $import, unknown extensions) refused with a problem that says why.
import assert from "node:assert/strict";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, it } from "node:test";
import { loadConfig } from "../../src/config/index.js";
import { deploymentConfigSchema } from "../../src/config/schema.js";
import { project, refused, removeProjects } from "./config-kit.js";

afterEach(removeProjects);

const env = {};

describe("finding the configuration file", () => {
  it("reads the mcp-host key of package.json", async () => {
    const cwd = await project({ "package.json": JSON.stringify({ name: "app", "mcp-host": { http: { port: 4001 } } }) });
    const loaded = await loadConfig({ cwd, env });
    assert.equal(loaded.config.http.port, 4001);
    assert.equal(loaded.source, join(cwd, "package.json"));
  });

  it("passes over a package.json without the key to the next place", async () => {
    const cwd = await project({ "package.json": JSON.stringify({ name: "app" }), ".mcp-hostrc.yml": "http:\n  port: 4002\n" });
    const loaded = await loadConfig({ cwd, env });
    assert.equal(loaded.config.http.port, 4002);
    assert.equal(loaded.source, join(cwd, ".mcp-hostrc.yml"));
  });

  it("reads .mcp-hostrc as YAML", async () => {
    const cwd = await project({ ".mcp-hostrc": "http:\n  port: 4003\nselection:\n  strict: true\n" });
    const loaded = await loadConfig({ cwd, env });
    assert.equal(loaded.config.http.port, 4003);
    assert.equal(loaded.config.selection.strict, true);
    assert.equal(loaded.source, join(cwd, ".mcp-hostrc"));
  });

  it("reads .mcp-hostrc as JSON", async () => {
    const cwd = await project({ ".mcp-hostrc": '{ "http": { "port": 4004 } }' });
    assert.equal((await loadConfig({ cwd, env })).config.http.port, 4004);
  });

  it("reads .mcp-hostrc.json and .mcp-hostrc.yaml", async () => {
    const json = await project({ ".mcp-hostrc.json": '{ "http": { "port": 4005 } }' });
    assert.equal((await loadConfig({ cwd: json, env })).config.http.port, 4005);
    const yaml = await project({ ".mcp-hostrc.yaml": "http: { port: 4006 }" });
    assert.equal((await loadConfig({ cwd: yaml, env })).config.http.port, 4006);
  });

  it("imports mcp-host.config.mjs and takes its default export", async () => {
    const cwd = await project({ "mcp-host.config.mjs": "const port = 4000 + 7;\nexport default { http: { port }, remoteServers: 'optional' };\n" });
    const loaded = await loadConfig({ cwd, env });
    assert.equal(loaded.config.http.port, 4007);
    assert.equal(loaded.config.remoteServers, "optional");
    assert.equal(loaded.source, join(cwd, "mcp-host.config.mjs"));
  });

  it("imports mcp-host.config.cjs and .mcp-hostrc.js (CommonJS)", async () => {
    const cjs = await project({ "mcp-host.config.cjs": "module.exports = { http: { port: 4008 } };\n" });
    assert.equal((await loadConfig({ cwd: cjs, env })).config.http.port, 4008);
    const js = await project({ ".mcp-hostrc.js": "module.exports = { http: { port: 4009 } };\n" });
    assert.equal((await loadConfig({ cwd: js, env })).config.http.port, 4009);
  });

  it("re-imports a JavaScript config on every load, so a reload sees the edit", async () => {
    const cwd = await project({ "mcp-host.config.mjs": "export default { http: { port: 4010 } };\n" });
    assert.equal((await loadConfig({ cwd, env })).config.http.port, 4010);
    await writeFile(join(cwd, "mcp-host.config.mjs"), "export default { http: { port: 4011 } };\n");
    assert.equal((await loadConfig({ cwd, env })).config.http.port, 4011);
    const cjs = await project({ "mcp-host.config.cjs": "module.exports = { http: { port: 4012 } };\n" });
    assert.equal((await loadConfig({ cwd: cjs, env })).config.http.port, 4012);
    await writeFile(join(cjs, "mcp-host.config.cjs"), "module.exports = { http: { port: 4013 } };\n");
    assert.equal((await loadConfig({ cwd: cjs, env })).config.http.port, 4013);
  });

  it("takes the first place in the search order when several files exist", async () => {
    const cwd = await project({
      "package.json": JSON.stringify({ "mcp-host": { http: { port: 4101 } } }),
      ".mcp-hostrc.yaml": "http: { port: 4102 }",
      "mcp-host.config.mjs": "export default { http: { port: 4103 } };",
    });
    assert.equal((await loadConfig({ cwd, env })).config.http.port, 4101);
    const rc = await project({ ".mcp-hostrc.yaml": "http: { port: 4102 }", "mcp-host.config.mjs": "export default { http: { port: 4103 } };" });
    assert.equal((await loadConfig({ cwd: rc, env })).config.http.port, 4102);
  });

  it("lets --config name the file, overriding the search (relative to cwd, or absolute)", async () => {
    const cwd = await project({
      ".mcp-hostrc.yaml": "http: { port: 4201 }",
      "deploy/prod.yaml": "http: { port: 4202 }",
      "deploy/prod.json": '{"http":{"port":4203}}',
    });
    const relative = await loadConfig({ cwd, env, file: "deploy/prod.yaml" });
    assert.equal(relative.config.http.port, 4202);
    assert.equal(relative.source, join(cwd, "deploy/prod.yaml"));
    assert.equal((await loadConfig({ cwd, env, file: join(cwd, "deploy/prod.json") })).config.http.port, 4203);
  });

  it("searches the project folder only, never the folders above it", async () => {
    const parent = await project({ ".mcp-hostrc.yaml": "http: { port: 4301 }", "package.json": JSON.stringify({ "mcp-host": { http: { port: 4302 } } }) });
    const cwd = join(parent, "app");
    await mkdir(cwd);
    const loaded = await loadConfig({ cwd, env });
    assert.equal(loaded.source, undefined);
    assert.equal(loaded.config.http.port, 3000);
  });

  it("gives the defaults, a valid configuration, when there is no file", async () => {
    const cwd = await project();
    const loaded = await loadConfig({ cwd, env });
    assert.deepEqual(loaded, { config: deploymentConfigSchema.parse({}), secrets: [] });
    assert.deepEqual(loaded.config, {
      extensions: { discover: true, include: [], exclude: [], options: {} },
      selection: { strict: false, ignoreKeys: [] },
      endpoints: {},
      http: {
        host: "127.0.0.1",
        port: 3000,
        path: "/mcp",
        allowedHosts: [],
        allowedOrigins: [],
        trustProxy: false,
        legacy: "stateful",
        sessionIdleTtlMs: 1_800_000,
        maxSessions: 10_000,
        maxSessionsPerCaller: 100,
        maxListenStreamsPerCaller: 32,
        maxSubscriptionsPerSession: 256,
        maxSubscriptionUriLength: 2_048,
        maxBodyBytes: 4_194_304,
        shutdownTimeoutMs: 10_000,
        headersTimeoutMs: 10_000,
        requestTimeoutMs: 30_000,
        keepAliveTimeoutMs: 5_000,
        maxConnections: 4_096,
        maxConnectionsPerAddress: 256,
        callerRequestsPerSecond: 0,
        callerBurst: 100,
        callerMaxConcurrent: 128,
        maxJsonDepth: 64,
        streamMaxAgeMs: 86_400_000,
        ui: true,
        fastPath: true,
        uiPath: "/",
      },
      tools: { maxConcurrent: 64, queueMs: 1_000, maxResultBytes: 8_388_608 },
      tasks: { maxPerCaller: 16, maxTasks: 10_000, ttlMs: 3_600_000, maxTtlMs: 86_400_000, pollIntervalMs: 1_000 },
      logging: { format: "auto", includeArguments: false, access: true, audit: true },
      tracing: { enabled: true },
      servers: {},
      startupTimeoutMs: 10_000,
      remoteServers: "required",
    });
  });

  it("passes over an empty or comment-only file during the search; named with --config it gives the defaults", async () => {
    const cwd = await project({ ".mcp-hostrc.yaml": "# nothing yet\n", "mcp-host.config.json": '{"http":{"port":4401}}', "empty.yaml": "" });
    assert.equal((await loadConfig({ cwd, env })).config.http.port, 4401);
    const named = await loadConfig({ cwd, env, file: ".mcp-hostrc.yaml" });
    assert.equal(named.config.http.port, 3000);
    assert.equal(named.source, join(cwd, ".mcp-hostrc.yaml"));
  });
});

describe("config files mcp-host refuses", () => {
  it("refuses a TypeScript config and says why", async () => {
    const cwd = await project({ "mcp-host.config.ts": "export default { http: { port: 1 } };" });
    const r = await refused(loadConfig({ cwd, env, file: "mcp-host.config.ts" }), [["CONFIG_INVALID", "(root)"]]);
    assert.equal(
      r.problems[0]!.message,
      `${join(cwd, "mcp-host.config.ts")}: TypeScript config files are not supported (Node 20 cannot run TypeScript, and mcp-host does not compile it); use mcp-host.config.mjs`,
    );
    // and the search does not pick one up
    assert.equal((await loadConfig({ cwd, env })).source, undefined);
  });

  it("refuses a file kind it cannot read, a missing file and a package.json without the key", async () => {
    const cwd = await project({ "conf.toml": "port = 1", "package.json": "{}" });
    const toml = await refused(loadConfig({ cwd, env, file: "conf.toml" }), [["CONFIG_INVALID", "(root)"]]);
    assert.equal(toml.problems[0]!.message, `${join(cwd, "conf.toml")}: mcp-host cannot read ".toml" files; use .yaml, .yml, .json, .js, .mjs or .cjs`);
    const missing = await refused(loadConfig({ cwd, env, file: "nope.yaml" }), [["CONFIG_INVALID", "(root)"]]);
    assert.equal(missing.problems[0]!.message, `the config file ${join(cwd, "nope.yaml")} does not exist`);
    const pkg = await refused(loadConfig({ cwd, env, file: "package.json" }), [["CONFIG_INVALID", "(root)"]]);
    assert.equal(pkg.problems[0]!.message, `${join(cwd, "package.json")} has no "mcp-host" key`);
  });

  it("refuses cosmiconfig's $import", async () => {
    const cwd = await project({ ".mcp-hostrc.yaml": "$import: ./other.yaml\nhttp: { port: 4501 }\n", "other.yaml": "name: x\n" });
    const r = await refused(loadConfig({ cwd, env }), [["CONFIG_INVALID", "$import"]]);
    assert.match(r.problems[0]!.message, /^\$import is not supported; write the whole configuration in one file/);
  });

  it("reports a JavaScript config that has no default export, or throws, without quoting its source", async () => {
    const none = await project({ "mcp-host.config.mjs": "export const http = { port: 1 };\n" });
    const r1 = await refused(loadConfig({ cwd: none, env }), [["CONFIG_INVALID", "(root)"]]);
    assert.equal(
      r1.problems[0]!.message,
      `${join(none, "mcp-host.config.mjs")}: has no default export; write \`export default { … }\` (or \`module.exports = { … }\`)`,
    );
    // an unquoted secret is a ReferenceError whose message would quote it
    const throws = await project({
      "mcp-host.config.mjs": "export default {\n  servers: { kb: { url: 'https://kb.example.com/mcp', headers: { K: sk_live_UNQUOTED } } },\n};\n",
    });
    const r2 = await refused(loadConfig({ cwd: throws, env }), [["CONFIG_INVALID", "(root)"]], ["sk_live_UNQUOTED"]);
    assert.equal(
      r2.problems[0]!.message,
      `${join(throws, "mcp-host.config.mjs")}: line 2: could not be imported: ReferenceError; run \`node ${join(throws, "mcp-host.config.mjs")}\` to see the full error`,
    );
  });
});
