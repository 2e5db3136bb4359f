// The `scaleOut:` section (docs/config.md, docs/scale-out.md): the contract loads as written; a state key under 32
// bytes is refused with CONFIG_STATE_KEY_TOO_SHORT at its key path, a literal one as a credential; a Redis URL that is
// not redis:// or rediss:// is refused — and in every case neither the URL (nor its password) nor the key appears
// anywhere in the report. An instance's name by reference is a name, not a secret.
import assert from "node:assert/strict";
import { afterEach, describe, it } from "node:test";
import { loadYaml, messageAt, refused, removeProjects } from "./config-kit.js";

afterEach(removeProjects);

const CONTRACT = [
  "scaleOut:",
  "  instanceId: ${env:HOSTNAME}",
  "  redis:",
  "    url: ${env:MCP_HOST_REDIS_URL}",
  "  stateKey: ${env:MCP_HOST_STATE_KEY}",
  "",
].join("\n");
const GOOD_KEY = "k".repeat(32);

describe("scaleOut in the config", () => {
  it("loads the contract: the URL and the key are secrets, the instance's name is not", async () => {
    const loaded = await loadYaml(CONTRACT, { env: { HOSTNAME: "a", MCP_HOST_REDIS_URL: "redis://:pw-in-url@redis:6379/0", MCP_HOST_STATE_KEY: GOOD_KEY } });
    assert.deepEqual(loaded.config.scaleOut, {
      instanceId: "a",
      redis: { url: "redis://:pw-in-url@redis:6379/0", prefix: "mcp-host:" },
      stateKey: GOOD_KEY,
      taskLeaseMs: 30_000,
    });
    assert.deepEqual(loaded.secrets, [GOOD_KEY, "redis://:pw-in-url@redis:6379/0"]);
  });

  it("takes a task lease of 3 s to 1 h (30 s unless written), and refuses one outside it at its key path", async () => {
    assert.equal((await loadYaml("scaleOut:\n  taskLeaseMs: 3000\n")).config.scaleOut?.taskLeaseMs, 3_000);
    for (const lease of [2_999, 3_600_001, 1.5]) {
      const r = await refused(loadYaml(`scaleOut:\n  taskLeaseMs: ${lease}\n`), [["CONFIG_INVALID", "scaleOut.taskLeaseMs"]]);
      assert.match(messageAt(r, "scaleOut.taskLeaseMs"), /3000 to 3600000|whole number/);
    }
  });

  it("takes a plain redis:// or rediss:// URL, with or without a password", async () => {
    for (const url of ["redis://127.0.0.1:6379", "rediss://user:pass-word@redis.internal:6380/2", "redis://redis"]) {
      const loaded = await loadYaml(`scaleOut:\n  redis: { url: "${url}" }\n`);
      assert.equal(loaded.config.scaleOut?.redis?.url, url);
    }
  });

  it("refuses a state key under 32 bytes with its code and key path, never showing it (bytes, not characters, count)", async () => {
    for (const key of ["four", "k".repeat(31), "é".repeat(15), `${"é".repeat(15)}k`]) {
      const r = await refused(
        loadYaml(CONTRACT, { env: { HOSTNAME: "web-1", MCP_HOST_REDIS_URL: "redis://redis:6379", MCP_HOST_STATE_KEY: key } }),
        [["CONFIG_STATE_KEY_TOO_SHORT", "scaleOut.stateKey"]],
        [key, "redis://redis:6379"],
      );
      assert.match(messageAt(r, "scaleOut.stateKey"), /^holds fewer than 32 bytes: .*\(the value is not shown\)$/);
    }
    for (const key of ["k".repeat(32), "é".repeat(16)]) {
      const loaded = await loadYaml("scaleOut:\n  stateKey: ${env:K}\n", { env: { K: key } });
      assert.equal(loaded.config.scaleOut?.stateKey, key);
    }
  });

  it("refuses a state key written literally, as a credential", async () => {
    const literal = "a-literal-state-key-that-is-long-enough-0123";
    await refused(loadYaml(`scaleOut:\n  stateKey: ${literal}\n`), [["MCP_CREDENTIALS_INLINE", "scaleOut.stateKey"]], [literal]);
  });

  it("refuses a Redis URL that is not redis:// or rediss://, never showing it or its password", async () => {
    const bad = [
      "http://user:hunter2-pw@redis:6379",
      "https://redis.example.com",
      "redis-at-host:6379",
      "redis://:only-pw@",
      "tcp://10.0.0.1:6379",
      "not a url at all",
    ];
    for (const url of bad) {
      const password = /:([^:@/]+)@/.exec(url)?.[1];
      for (const written of ["literal", "reference"] as const) {
        const yaml = written === "literal" ? `scaleOut:\n  redis: { url: "${url}" }\n` : "scaleOut:\n  redis: { url: '${env:URL}' }\n";
        const r = await refused(loadYaml(yaml, { env: { URL: url } }), [["CONFIG_INVALID", "scaleOut.redis.url"]], [url, ...(password ? [password] : [])]);
        assert.match(messageAt(r, "scaleOut.redis.url"), /\(the value is not shown\)$/, url);
      }
    }
  });

  it("takes an instance's name by reference even when short, and refuses one a session id could not carry", async () => {
    const short = await loadYaml("scaleOut:\n  instanceId: ${env:HOSTNAME}\n", { env: { HOSTNAME: "a" } });
    assert.equal(short.config.scaleOut?.instanceId, "a");
    assert.deepEqual(short.secrets, [], "a name is not redacted from every log line");
    for (const id of ["web-1.example.com", "has space", "x".repeat(65), ""]) {
      await refused(loadYaml("scaleOut:\n  instanceId: ${env:HOSTNAME}\n", { env: { HOSTNAME: id } }), [
        [id === "" ? "CONFIG_SECRET_UNRESOLVED" : "CONFIG_INVALID", "scaleOut.instanceId"],
      ]);
    }
  });

  it("refuses an unknown key in the section with a suggestion, and a prefix Redis keys should not have", async () => {
    const r = await refused(loadYaml("scaleOut:\n  instanceID: a\n"), [["CONFIG_INVALID", "scaleOut.instanceID"]]);
    assert.match(messageAt(r, "scaleOut.instanceID"), /did you mean "instanceId"/);
    await refused(loadYaml('scaleOut:\n  redis: { url: "redis://r", prefix: "has space" }\n'), [["CONFIG_INVALID", "scaleOut.redis.prefix"]]);
  });
});
