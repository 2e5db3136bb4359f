// docs/config.md and the schema cannot drift: every key the schema has is documented with the schema's default and
// range, every documented key exists; the full example loads; the sample report is what loading prints.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { afterEach, describe, it } from "node:test";
import { ERROR_CODES } from "../../src/errors.js";
import { deploymentConfigSchema } from "../../src/config/schema.js";
import { listConfigKeys } from "../../src/config/schema-walk.js";
import { loadYaml, refused, removeProjects } from "./config-kit.js";

afterEach(removeProjects);

const doc = readFileSync(new URL("../../docs/config.md", import.meta.url), "utf8");

interface Row {
  key: string;
  type: string;
  default: string;
}

function cells(line: string): string[] {
  return line
    .slice(1, -1)
    .split(/(?<!\\)\|/)
    .map((c) => c.trim());
}

function documentedKeys(): Row[] {
  const rows: Row[] = [];
  const lines = doc.split("\n");
  for (let i = 0; i < lines.length; i++) {
    if (lines[i] !== "| key | type | default | meaning |") continue;
    for (let j = i + 2; j < lines.length && lines[j]!.startsWith("|"); j++) {
      const [key, type, dflt] = cells(lines[j]!);
      rows.push({ key: key!.replace(/^`|`$/g, ""), type: type!, default: dflt! });
    }
  }
  return rows;
}

function render(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(render).join(", ")}]`;
  if (typeof value === "object" && value !== null) return Object.keys(value).length === 0 ? "{}" : JSON.stringify(value);
  return String(value);
}

function block(marker: string, lang: string): string {
  const start = doc.indexOf(`${marker}\n\`\`\`${lang}\n`);
  assert.notEqual(start, -1, `docs/config.md has ${marker}`);
  const from = start + marker.length + lang.length + 5;
  return doc.slice(from, doc.indexOf("```\n", from));
}

const schemaKeys = listConfigKeys(deploymentConfigSchema);
const rows = documentedKeys();

describe("docs/config.md against the schema", () => {
  it("documents every key of the schema, once", () => {
    const documented = rows.map((r) => r.key);
    assert.deepEqual(
      schemaKeys.map((k) => k.path).filter((p) => !documented.includes(p)),
      [],
    );
    assert.equal(new Set(documented).size, documented.length, "no key documented twice");
  });

  it("documents no key the schema lacks", () => {
    const known = new Set(schemaKeys.map((k) => k.path));
    assert.deepEqual(
      rows.map((r) => r.key).filter((k) => !known.has(k)),
      [],
    );
  });

  it("gives each key the default the schema has", () => {
    for (const key of schemaKeys) {
      const row = rows.find((r) => r.key === key.path)!;
      const expected = key.hasDefault ? render(key.defaultValue) : "—";
      assert.equal(row.default.replace(/`/g, ""), expected, key.path);
    }
  });

  it("gives each bounded number the range the schema enforces", () => {
    for (const key of schemaKeys) {
      const row = rows.find((r) => r.key === key.path)!;
      const range = /integer (-?\d+)–(-?\d+)/.exec(row.type);
      if (key.min === undefined && key.max === undefined) {
        assert.equal(range, null, `${key.path} is documented with a range the schema does not have`);
        continue;
      }
      assert.ok(range, `${key.path} documents its range`);
      assert.deepEqual([Number(range[1]), Number(range[2])], [key.min, key.max], key.path);
    }
  });

  it("names only codes that exist", () => {
    const codes = [...doc.matchAll(/`([A-Z][A-Z_]+[A-Z])`/g)].map((m) => m[1]!).filter((c) => c.includes("_") && !["HOME", "PATH"].includes(c));
    assert.ok(codes.length > 5);
    assert.deepEqual(
      [...new Set(codes)].filter((c) => !(c in ERROR_CODES)),
      [],
    );
  });
});

describe("the examples in docs/config.md", () => {
  it("loads the full example", async () => {
    const loaded = await loadYaml(block("<!-- example: full configuration -->", "yaml"), {
      env: {
        RUNBOOKS_KEY: "rb-key",
        HOSTED_TOKEN: "h-token",
        HOSTNAME: "web-1",
        MCP_HOST_REDIS_URL: "redis://redis:6379",
        MCP_HOST_STATE_KEY: "a-state-key-of-at-least-thirty-two-bytes",
      },
      files: { "secrets/corp-client-secret": "corp-secret\n" },
    });
    assert.equal(loaded.config.name, "my-server");
    assert.deepEqual(Object.keys(loaded.config.servers).sort(), ["corp", "git", "hosted", "runbooks"]);
    const corp = loaded.config.servers.corp!;
    assert.equal(corp.transport === "http" && corp.auth?.kind === "oauth" && corp.auth.clientSecret, "corp-secret");
    // The instance's name is a name, not a secret: the Redis URL and the state key are.
    assert.deepEqual(loaded.secrets, ["a-state-key-of-at-least-thirty-two-bytes", "corp-secret", "h-token", "rb-key", "redis://redis:6379"]);
    assert.deepEqual(loaded.config.scaleOut, {
      instanceId: "web-1",
      redis: { url: "redis://redis:6379", prefix: "mcp-host:" },
      stateKey: "a-state-key-of-at-least-thirty-two-bytes",
      taskLeaseMs: 30_000,
    });
    assert.deepEqual(loaded.config.auth?.authorizationServers, ["https://id.example.com/"]);
  });

  it("prints the sample report exactly", async () => {
    const sample = block("by key path, one a line as `CODE  key.path  message`:\n", "text").split("\n").filter(Boolean);
    const yaml = "http: { prot: 3000 }\nservers:\n  kb: { url: http://kb.example.com/mcp, headers: { X-API-Key: sk-SAMPLE } }\n";
    const r = await refused(
      loadYaml(yaml),
      [
        ["CONFIG_INVALID", "http.prot"],
        ["MCP_CREDENTIALS_INLINE", "servers.kb.headers.X-API-Key"],
        ["MCP_URL_INVALID", "servers.kb.url"],
      ],
      ["sk-SAMPLE"],
    );
    assert.deepEqual(r.message.split("\n").slice(1), sample.slice(1));
    assert.match(sample[0]!, /^the configuration in \/srv\/app\/\.mcp-hostrc\.yaml has 3 problems:$/);
    assert.match(r.message.split("\n")[0]!, /^the configuration in \/.*\/\.mcp-hostrc\.yaml has 3 problems:$/);
  });
});
