// One public API per audience (package.json `exports`, docs/design.md §3): the root entry is the extension contract,
// `mcp-host/testing` what an extension's tests need, `mcp-host/host` the deployment API, and `auth`, `gateway`,
// `config`, `registry` one building block each. Run against the built package (dist/), as a consumer imports it:
// each entry's exact value exports (the shapes are the API report's, api/*.api.md), the packages it must not load,
// and its size budget — the modules an import loads (scripts/entry-sizes.mjs), with about 15 % of room.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
// @ts-expect-error: a plain .mjs script of the repository, without declarations.
import { entrySpecifiers, measureEntry, packagesOf } from "../scripts/entry-sizes.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const hook = fileURLToPath(new URL("./fixtures/entries/forbid-heavy-imports.mjs", import.meta.url));

function importUnderHook(specifier: string, forbidden: string): { status: number | null; stdout: string; stderr: string } {
  const script = `const m = await import(${JSON.stringify(specifier)}); console.log(Object.keys(m).sort().join(","));`;
  const result = spawnSync(process.execPath, ["--import", hook, "--input-type=module", "-e", script], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, FORBIDDEN_PACKAGES: forbidden },
  });
  return { status: result.status, stdout: result.stdout.trim(), stderr: result.stderr };
}

interface EntryRule {
  /** Every value the entry exports, sorted. */
  exports: string[];
  /** Packages an import of the entry must not load (comma-separated for the hook). */
  forbidden: string;
  /** At most this many modules (ES and CommonJS) are loaded by importing it. */
  maxModules: number;
}

const ENTRIES: Record<string, EntryRule> = {
  "mcp-host": {
    exports: [
      "ERROR_CODES",
      "McpHostError",
      "TOOLSET_NAME_PATTERN",
      "acceptedContent",
      "createLogger",
      "defineExtension",
      "defineTool",
      "errorResult",
      "formatLogRecord",
      "inputRequired",
      "inputResponse",
      "invalidParams",
      "isMcpHostError",
      "isRequestError",
      "jsonResult",
      "memoryLogger",
      "resourceNotFound",
      "silentLogger",
      "textResult",
      "toolsetNameProblem",
      "validateExtension",
    ],
    forbidden: "express,ajv,zod,@modelcontextprotocol/server,@modelcontextprotocol/client,jose,pino,@opentelemetry/api",
    maxModules: 15,
  },
  "mcp-host/testing": {
    exports: ["buildHost", "connectInProcess", "createManualClock", "memoryLogger", "parseSelection", "silentLogger"],
    forbidden: "jose,express,cors,pino,@opentelemetry/api,prom-client",
    // Every build serves skills (SEP-2640): the skills table and methods, and the SDK's skills schemas (~10 modules).
    maxModules: 212,
  },
  "mcp-host/host": {
    exports: [
      "ProtocolError",
      "ProtocolErrorCode",
      "ResourceNotFoundError",
      "buildHost",
      "createFleet",
      "createHostApp",
      "createObservability",
      "createPinoLogger",
      "createSecretRedactor",
      "discoverExtensions",
      "extensionNamesFromEnv",
      "healthOf",
      "listenHost",
      "loadDiscovered",
      "loadExtensions",
      "maskSecrets",
      "mcpCors",
      "parseSelection",
      "selectionFromRequest",
    ],
    forbidden: "@modelcontextprotocol/client,ioredis",
    maxModules: 560,
  },
  "mcp-host/auth": {
    exports: [
      "bearerAuth",
      "callerOf",
      "customVerifier",
      "insufficientScope",
      "introspectionVerifier",
      "jwtVerifier",
      "protectedResourceMetadata",
      "tokenRefused",
      "tokenVerifierFrom",
      "verifierUnavailable",
    ],
    forbidden: "pino,@opentelemetry/api,@modelcontextprotocol/client",
    maxModules: 355,
  },
  "mcp-host/gateway": {
    exports: ["createGateway"],
    forbidden: "express,jose,pino,@opentelemetry/api",
    maxModules: 320,
  },
  "mcp-host/config": {
    exports: ["ConfigError", "checkAuthKinds", "formatConfigProblems", "loadConfig", "validateConfig", "withOverrides"],
    forbidden: "express,jose,pino,@opentelemetry/api,@modelcontextprotocol/server,@modelcontextprotocol/client",
    maxModules: 145,
  },
  "mcp-host/registry": {
    exports: ["ERROR_META_KEY", "McpRegistry", "ServerSpec", "checkServerUrl", "registryErrorCode", "toText"],
    forbidden: "express,jose,pino,@opentelemetry/api,@modelcontextprotocol/server",
    maxModules: 295,
  },
};

describe("entry points", () => {
  it("has a rule for every entry package.json exports", () => {
    assert.deepEqual(entrySpecifiers(), Object.keys(ENTRIES));
  });

  for (const [specifier, rule] of Object.entries(ENTRIES)) {
    it(`${specifier} exports exactly its API and loads none of ${rule.forbidden}`, () => {
      const { status, stdout, stderr } = importUnderHook(specifier, rule.forbidden);
      assert.equal(status, 0, stderr);
      assert.deepEqual(stdout.split(","), rule.exports);
    });

    it(`${specifier} loads at most ${rule.maxModules} modules`, () => {
      const { modules } = measureEntry(specifier) as { modules: string[] };
      assert.ok(modules.length <= rule.maxModules, `${specifier} loads ${modules.length} modules (${packagesOf(modules).join(", ")})`);
    });
  }

  it("the hook can fail: the deployment entry does load the server SDK and express", () => {
    const heavy = importUnderHook("mcp-host/host", "express,@modelcontextprotocol/server");
    assert.notEqual(heavy.status, 0);
    assert.match(heavy.stderr, /heavy import: (express|@modelcontextprotocol\/server)\//);
  });

  it("no entry exports McpHost as a value (a host is made by buildHost, which checks what it is given) or a seam", () => {
    for (const rule of Object.values(ENTRIES))
      for (const name of ["McpHost", "serveSelections", "buildActive", "compiledOf", "OPEN_SERVING", "markToolOutcome", "resolveSelection", "selectionKey"])
        assert.ok(!rule.exports.includes(name), name);
  });
});
