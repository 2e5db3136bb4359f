// One public API per audience (package.json `exports`): the root entry is the extension contract and loads no
// express, no ajv and no MCP server SDK; `mcp-host/host` is the deployment API; `mcp-host/registry` the registry.
// Run against the built package (dist/), as a consumer would import it.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const hook = fileURLToPath(new URL("./fixtures/entries/forbid-heavy-imports.mjs", import.meta.url));

function importUnderHook(specifier: string, forbidden = "express,ajv,@modelcontextprotocol/server"): { status: number | null; stdout: string; stderr: string } {
  const script = `const m = await import(${JSON.stringify(specifier)}); console.log(Object.keys(m).sort().join(","));`;
  const result = spawnSync(process.execPath, ["--import", hook, "--input-type=module", "-e", script], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, FORBIDDEN_PACKAGES: forbidden },
  });
  return { status: result.status, stdout: result.stdout.trim(), stderr: result.stderr };
}

describe("entry points", () => {
  it("the root entry loads no express, ajv or server SDK, and exports the contract", () => {
    const { status, stdout, stderr } = importUnderHook("mcp-host");
    assert.equal(status, 0, stderr);
    assert.deepEqual(stdout.split(","), [
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
    ]);
  });

  it("the deployment entry does load the server SDK (so the hook above can fail), and exports the host and serving API", () => {
    const heavy = importUnderHook("mcp-host/host");
    assert.notEqual(heavy.status, 0);
    assert.match(heavy.stderr, /heavy import: @modelcontextprotocol\/server\//);
    const result = spawnSync(
      process.execPath,
      ["--input-type=module", "-e", 'const m = await import("mcp-host/host"); console.log(Object.keys(m).sort().join(","));'],
      { cwd: root, encoding: "utf8" },
    );
    assert.equal(result.status, 0, result.stderr);
    const names = result.stdout.trim().split(",");
    for (const name of ["buildHost", "McpHost", "loadExtensions", "discoverExtensions", "parseSelection", "createHostApp", "listenHost", "healthOf"])
      assert.ok(names.includes(name), name);
    // What a deployment composes for token verification and CORS (docs/design.md §9).
    for (const name of [
      "bearerAuth",
      "callerOf",
      "jwtVerifier",
      "introspectionVerifier",
      "customVerifier",
      "protectedResourceMetadata",
      "mcpCors",
      "tokenVerifierFrom",
    ])
      assert.ok(names.includes(name), name);
    // Logs, metrics and traces (docs/design.md §18).
    for (const name of ["createObservability", "createPinoLogger", "maskSecrets", "markToolOutcome", "toolOutcomeOf"]) assert.ok(names.includes(name), name);
    for (const seam of ["serveSelections", "setHandlerFactory", "buildActive", "reportFailed", "compiledOf", "OPEN_SERVING"])
      assert.ok(!names.includes(seam), `${seam} is internal`);
  });

  it("the registry entry exports McpRegistry and loads no server SDK or express", () => {
    const { status, stdout, stderr } = importUnderHook("mcp-host/registry", "express,@modelcontextprotocol/server");
    assert.equal(status, 0, stderr);
    for (const name of ["McpRegistry", "ServerSpec", "toText"]) assert.ok(stdout.split(",").includes(name), name);
  });
});
