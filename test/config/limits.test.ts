// The limits an operator sets (docs/design.md §16, docs/reliability.md): every one has a default in the schema, the same
// number the HTTP face and the host use when nobody sets it (pinned here), each reaches listenHost or buildHost
// through the CLI's mapping, and the rules one key cannot express are problems with the key's path.
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { deploymentConfigSchema } from "../../src/config/schema.js";
import { listenOptionsOf, toolLimitsOf } from "../../src/cli/listen-options.js";
import { HTTP_DEFAULTS, shareDefault } from "../../src/http/edge/http-defaults.js";
import { TOOL_LIMIT_DEFAULTS } from "../../src/host/protocol/tool-limits.js";
import { loadYaml, messageAt, refused, removeProjects } from "./config-kit.js";

afterEach(removeProjects);

const PINNED_HTTP = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  maxConnections: 4_096,
  maxConnectionsPerAddress: 256,
  callerRequestsPerSecond: 0,
  callerBurst: 100,
  callerMaxConcurrent: 128,
  maxJsonDepth: 64,
  maxBodyBytes: 4_194_304,
  maxSessions: 10_000,
  maxSessionsPerCaller: 100,
  maxListenStreamsPerCaller: 32,
  maxSubscriptionsPerSession: 256,
  maxSubscriptionUriLength: 2_048,
  sessionIdleTtlMs: 1_800_000,
  streamMaxAgeMs: 86_400_000,
  shutdownTimeoutMs: 10_000,
};

describe("the limits' defaults", () => {
  it("are pinned, and the schema, the HTTP face and the host agree on them", () => {
    const config = deploymentConfigSchema.parse({});
    const fromSchema = Object.fromEntries(Object.keys(PINNED_HTTP).map((key) => [key, config.http[key as keyof typeof config.http]]));
    assert.deepEqual(fromSchema, PINNED_HTTP);
    assert.deepEqual({ ...HTTP_DEFAULTS }, PINNED_HTTP);
    assert.deepEqual(config.tools, { maxConcurrent: 64, queueMs: 1_000, maxResultBytes: 8_388_608 });
    assert.deepEqual({ ...TOOL_LIMIT_DEFAULTS }, config.tools);
  });

  it("reach listenHost and buildHost through the CLI's mapping, every one", async () => {
    const yaml = [
      "http:",
      ...Object.entries(PINNED_HTTP).map(([key, value], i) => `  ${key}: ${key === "maxConnections" ? 5_000 : value + i + 1}`),
      "tools: { maxConcurrent: 7, queueMs: 250, maxResultBytes: 65536 }",
    ].join("\n");
    const { config } = await loadYaml(yaml);
    const listen = listenOptionsOf(config);
    for (const key of Object.keys(PINNED_HTTP)) {
      assert.equal(listen[key as keyof typeof listen], config.http[key as keyof typeof config.http], key);
      assert.notEqual(listen[key as keyof typeof listen], PINNED_HTTP[key as keyof typeof PINNED_HTTP], `${key} comes from the file`);
    }
    assert.deepEqual(toolLimitsOf(config), { maxConcurrent: 7, queueMs: 250, maxResultBytes: 65_536 });
  });
});

describe("the per-caller shares' defaults", () => {
  it("follow their tables: half of each, never more than the absolute default; a share the file sets stays", async () => {
    const shares = (http: {
      maxSessionsPerCaller: number;
      maxListenStreamsPerCaller: number;
      callerMaxConcurrent: number;
      maxConnectionsPerAddress: number;
    }) => ({
      maxSessionsPerCaller: http.maxSessionsPerCaller,
      maxListenStreamsPerCaller: http.maxListenStreamsPerCaller,
      callerMaxConcurrent: http.callerMaxConcurrent,
      maxConnectionsPerAddress: http.maxConnectionsPerAddress,
    });
    assert.deepEqual(shares((await loadYaml("http: { maxSessions: 20, maxConnections: 40 }")).config.http), {
      maxSessionsPerCaller: 10,
      maxListenStreamsPerCaller: 20,
      callerMaxConcurrent: 20,
      // The per-peer connection cap is no caller's share (behind a proxy one peer is every caller): it stays.
      maxConnectionsPerAddress: 256,
    });
    assert.deepEqual(shares((await loadYaml("http: { maxSessions: 1, maxConnections: 1 }")).config.http), {
      maxSessionsPerCaller: 1,
      maxListenStreamsPerCaller: 1,
      callerMaxConcurrent: 1,
      maxConnectionsPerAddress: 256,
    });
    assert.deepEqual(shares((await loadYaml("http: { maxSessions: 20, maxSessionsPerCaller: 15 }")).config.http), {
      maxSessionsPerCaller: 15,
      maxListenStreamsPerCaller: 32,
      callerMaxConcurrent: 128,
      maxConnectionsPerAddress: 256,
    });
    for (const key of ["maxSessionsPerCaller", "maxListenStreamsPerCaller", "callerMaxConcurrent"] as const) {
      assert.equal(shareDefault(key, { maxSessions: 20, maxConnections: 40 }), key === "maxSessionsPerCaller" ? 10 : 20, key);
    }
  });
});

describe("the limits' rules", () => {
  it("refuses a request timeout shorter than the header timeout, and a per-address cap over the total", async () => {
    const r = await refused(loadYaml("http: { headersTimeoutMs: 20000, requestTimeoutMs: 5000, maxConnections: 10, maxConnectionsPerAddress: 20 }"), [
      ["CONFIG_INVALID", "http.maxConnectionsPerAddress"],
      ["CONFIG_INVALID", "http.requestTimeoutMs"],
    ]);
    assert.equal(messageAt(r, "http.requestTimeoutMs"), "must be at least http.headersTimeoutMs (20000): a request's headers are part of it");
    assert.equal(messageAt(r, "http.maxConnectionsPerAddress"), "must be at most http.maxConnections (10); to cap only the total, set both to the same number");
  });

  it("quotes the range of a limit out of range", async () => {
    const r = await refused(loadYaml("http: { maxJsonDepth: 2 }\ntools: { maxConcurrent: 0 }"), [
      ["CONFIG_INVALID", "http.maxJsonDepth"],
      ["CONFIG_INVALID", "tools.maxConcurrent"],
    ]);
    assert.match(messageAt(r, "http.maxJsonDepth"), /8/);
    assert.match(messageAt(r, "tools.maxConcurrent"), /1/);
  });
});
