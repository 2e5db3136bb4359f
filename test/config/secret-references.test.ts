// Secret references: ${env:NAME} and ${file:./path} anywhere in a string value, resolved at load from the env
// the caller passes and from files beside the config; every resolved value returned for redaction; whatever
// cannot be resolved is CONFIG_SECRET_UNRESOLVED naming the key and the variable or file, never a value.
import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, it } from "node:test";
import { loadConfig } from "../../src/config/index.js";
import { parseReferences } from "../../src/config/secret-refs.js";
import { loadYaml, messageAt, project, refused, removeProjects } from "./config-kit.js";

afterEach(removeProjects);

describe("resolving secret references", () => {
  it("resolves env and file references anywhere, embedded too, and returns every resolved value", async () => {
    const yaml = [
      "instructions: 'Team ${env:TEAM} tools'",
      "servers:",
      "  kb:",
      "    url: https://kb.example.com/mcp",
      "    headers: { Authorization: 'Bearer ${env:KB_TOKEN}', X-Tenant: '${file:./secrets/tenant}' }",
      "  git: { command: uvx, env: { GIT_TOKEN: '${file:./secrets/git-token}' } }",
      "extensions: { options: { spaces: { apiKey: '${env:SPACES_KEY}', nested: ['${env:KB_TOKEN}'] } } }",
    ].join("\n");
    const loaded = await loadYaml(yaml, {
      env: { TEAM: "platform", KB_TOKEN: "kb-s3cret", SPACES_KEY: "sp-s3cret", UNUSED: "never-read" },
      files: { "secrets/tenant": "acme\n", "secrets/git-token": "ghp-TOKEN\r\n\n" },
    });
    assert.equal(loaded.config.instructions, "Team platform tools");
    const kb = loaded.config.servers.kb!;
    assert.equal(kb.transport, "http");
    assert.deepEqual(kb.transport === "http" && kb.headers, { Authorization: "Bearer kb-s3cret", "X-Tenant": "acme" });
    const git = loaded.config.servers.git!;
    assert.deepEqual(git.transport === "stdio" && git.env, { GIT_TOKEN: "ghp-TOKEN" });
    assert.deepEqual(loaded.config.extensions.options, { spaces: { apiKey: "sp-s3cret", nested: ["kb-s3cret"] } });
    assert.deepEqual(loaded.secrets, ["acme", "ghp-TOKEN", "kb-s3cret", "platform", "sp-s3cret"]);
  });

  it("reads file references relative to the config file's folder, or absolute", async () => {
    const cwd = await project({
      "deploy/prod.yaml": "auth: { issuer: https://id.example.com/, audience: mcp, keys: ['${file:keys/pub.pem}', '${file:ABS}'], algorithms: [RS256] }\n",
      "deploy/keys/pub.pem": "-----BEGIN PUBLIC KEY-----\nAAA\n-----END PUBLIC KEY-----\n",
    });
    const abs = join(cwd, "deploy/keys/pub.pem");
    const file = join(cwd, "deploy/prod.yaml");
    await writeFile(file, (await readFile(file, "utf8")).replace("ABS", abs));
    const loaded = await loadConfig({ cwd, file: "deploy/prod.yaml", env: {} });
    const pem = "-----BEGIN PUBLIC KEY-----\nAAA\n-----END PUBLIC KEY-----";
    assert.deepEqual(loaded.config.auth?.keys, [pem, pem]);
  });

  it("writes a literal ${ with $${ and leaves other ${…} text alone", async () => {
    const loaded = await loadYaml("instructions: 'say $${env:HOME} and ${name} and $5'\n", { env: { HOME: "/root" } });
    assert.equal(loaded.config.instructions, "say ${env:HOME} and ${name} and $5");
    assert.deepEqual(loaded.secrets, []);
  });

  it("names the key and the variable when a variable is not set or empty, and never a value", async () => {
    const yaml = "servers:\n  kb: { url: https://kb.example.com/mcp, headers: { A: '${env:MISSING}', B: 'x ${env:EMPTY}', C: '${env:PRESENT}' } }\n";
    const r = await refused(
      loadYaml(yaml, { env: { EMPTY: "", PRESENT: "present-S3CRET" } }),
      [
        ["CONFIG_SECRET_UNRESOLVED", "servers.kb.headers.A"],
        ["CONFIG_SECRET_UNRESOLVED", "servers.kb.headers.B"],
      ],
      ["present-S3CRET"],
    );
    assert.equal(messageAt(r, "servers.kb.headers.A"), 'the environment variable "MISSING" is not set');
    assert.equal(messageAt(r, "servers.kb.headers.B"), 'the environment variable "EMPTY" is empty');
  });

  it("refuses a reference that resolves to fewer than 4 characters (it could not be redacted), naming the key, never the value", async () => {
    const yaml = [
      "servers:",
      "  git: { command: uvx, args: ['--port', '${env:PORT}'], env: { FLAG: '${file:./flag}', OK: '${env:LONG}' } }",
      "  kb: { url: https://kb.example.com/mcp, headers: { X-Key: 'k-${env:K}' } }",
    ].join("\n");
    const r = await refused(
      loadYaml(yaml, { env: { PORT: "80", LONG: "long-enough", K: "xyz" }, files: { flag: "on\n" } }),
      [
        ["CONFIG_SECRET_TOO_SHORT", "servers.git.args[1]"],
        ["CONFIG_SECRET_TOO_SHORT", "servers.git.env.FLAG"],
        ["CONFIG_SECRET_TOO_SHORT", "servers.kb.headers.X-Key"],
      ],
      ["xyz", '"80"', "long-enough"],
    );
    assert.equal(
      messageAt(r, "servers.git.args[1]"),
      'the environment variable "PORT" holds fewer than 4 characters: too short to be kept out of logs and answers; use a longer secret, or write a value that is not secret without a reference',
    );
    assert.match(messageAt(r, "servers.git.env.FLAG"), /^the file "\.\/flag" holds fewer than 4 characters/);
    const loaded = await loadYaml(yaml.replace("'${env:PORT}'", "'80'").replace("'${file:./flag}'", "on"), { env: { LONG: "long-enough", K: "four" } });
    assert.deepEqual(loaded.secrets, ["four", "long-enough"]);
  });

  it("names the key and the file when a file is missing, a folder, empty, or not closed", async () => {
    const yaml = [
      "auth:",
      "  issuer: https://id.example.com/",
      "  audience: mcp",
      "  algorithms: [HS256]",
      "  hs256Secret: '${file:./nope.key}'",
      "  introspection: { endpoint: https://id.example.com/introspect, clientId: mcp, clientSecret: '${file:./secrets}' }",
      "servers:",
      "  a: { url: https://a.example.com/mcp, auth: { kind: bearer, token: '${file:./empty}' } }",
      "  b: { url: https://b.example.com/mcp, auth: { kind: bearer, token: '${env:TOKEN' } }",
      "  c: { url: https://c.example.com/mcp, auth: { kind: bearer, token: '${env:bad-name}' } }",
    ].join("\n");
    const r = await refused(
      loadYaml(yaml, { files: { "secrets/x": "x", empty: "\n\n" }, env: { TOKEN: "tok-S3CRET" } }),
      [
        ["CONFIG_SECRET_UNRESOLVED", "auth.hs256Secret"],
        ["CONFIG_SECRET_UNRESOLVED", "auth.introspection.clientSecret"],
        ["CONFIG_SECRET_UNRESOLVED", "servers.a.auth.token"],
        ["CONFIG_SECRET_UNRESOLVED", "servers.b.auth.token"],
        ["CONFIG_SECRET_UNRESOLVED", "servers.c.auth.token"],
      ],
      ["tok-S3CRET"],
    );
    assert.equal(messageAt(r, "auth.hs256Secret"), 'the file "./nope.key" does not exist');
    assert.equal(messageAt(r, "auth.introspection.clientSecret"), 'the file "./secrets" is a folder');
    assert.equal(messageAt(r, "servers.a.auth.token"), 'the file "./empty" is empty');
    assert.equal(messageAt(r, "servers.b.auth.token"), 'a ${env:… or ${file:… reference is not closed with "}"');
    assert.equal(messageAt(r, "servers.c.auth.token"), "a ${env:…} reference must name a variable (letters, digits and _, not starting with a digit)");
  });

  it("refuses a file that is not a regular file (it could block the load forever)", async () => {
    const r = await refused(loadYaml("instructions: '${file:/dev/zero}'\n"), [["CONFIG_SECRET_UNRESOLVED", "instructions"]]);
    assert.equal(messageAt(r, "instructions"), 'the file "/dev/zero" is not a regular file');
  });

  it("never reads process.env: only the env it is given", async () => {
    process.env.MCP_HOST_CONFIG_TEST_VAR = "from-process";
    try {
      const r = await refused(loadYaml("instructions: '${env:MCP_HOST_CONFIG_TEST_VAR}'\n"), [["CONFIG_SECRET_UNRESOLVED", "instructions"]], ["from-process"]);
      assert.equal(messageAt(r, "instructions"), 'the environment variable "MCP_HOST_CONFIG_TEST_VAR" is not set');
    } finally {
      delete process.env.MCP_HOST_CONFIG_TEST_VAR;
    }
  });
});

describe("parseReferences", () => {
  it("splits literal text from references", () => {
    assert.deepEqual(parseReferences("Bearer ${env:T}!"), { parts: [{ text: "Bearer " }, { kind: "env", name: "T" }, { text: "!" }], unterminated: false });
    assert.deepEqual(parseReferences("${file:./a}${env:B}"), {
      parts: [
        { kind: "file", name: "./a" },
        { kind: "env", name: "B" },
      ],
      unterminated: false,
    });
    assert.deepEqual(parseReferences("$${env:T}"), { parts: [{ text: "${env:T}" }], unterminated: false });
    assert.deepEqual(parseReferences("${env:T"), { parts: [{ text: "${env:T" }], unterminated: true });
  });
});

describe("structures the resolver refuses", () => {
  it("reports a circular or absurdly deep JavaScript config instead of overflowing the stack", async () => {
    const circular = await project({
      "mcp-host.config.mjs": "const options = { a: {} };\noptions.a.self = options;\nexport default { extensions: { options: { x: options } } };\n",
    });
    const r1 = await refused(loadConfig({ cwd: circular, env: {} }), [["CONFIG_INVALID", "extensions.options.x.a.self"]]);
    assert.equal(r1.problems[0]!.message, "contains itself (a circular structure)");
    const deep = await project({
      "mcp-host.config.mjs": "let v = {};\nfor (let i = 0; i < 100000; i++) v = { v };\nexport default { extensions: { options: { x: v } } };\n",
    });
    const r2 = await refused(loadConfig({ cwd: deep, env: {} }), [["CONFIG_INVALID", `extensions.options.x${".v".repeat(61)}`]]);
    assert.equal(r2.problems[0]!.message, "is nested more than 64 levels deep");
  });
});
