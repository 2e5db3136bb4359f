import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { ERROR_CODES, extensionError, isMcpHostError, McpHostError } from "../../src/errors.js";

const doc = readFileSync(new URL("../../docs/errors.md", import.meta.url), "utf8");
const documented = [...doc.matchAll(/^\| `([A-Z_]+)` +\|/gm)].map((m) => m[1]!);

describe("the error catalog", () => {
  it("documents every code in src/errors.ts", () => {
    const missing = Object.keys(ERROR_CODES).filter((code) => !documented.includes(code));
    assert.deepEqual(missing, []);
  });

  it("documents no code that does not exist", () => {
    const stale = documented.filter((code) => !(code in ERROR_CODES));
    assert.deepEqual(stale, []);
  });

  it("documents each code once", () => {
    assert.equal(new Set(documented).size, documented.length);
  });
});

describe("McpHostError", () => {
  it("carries code, extension, server and cause", () => {
    const cause = new Error("boom");
    const error = new McpHostError("MCP_SERVER_UNREACHABLE", 'server "git" is unreachable', { server: "git", cause });
    assert.equal(error.code, "MCP_SERVER_UNREACHABLE");
    assert.equal(error.server, "git");
    assert.equal(error.cause, cause);
    assert.deepEqual(error.toJSON(), { code: "MCP_SERVER_UNREACHABLE", message: 'server "git" is unreachable', server: "git" });
  });

  it("is recognised by code, also when it comes from another copy of the package", () => {
    const foreign = Object.assign(new Error("x"), { code: "TOOL_TIMEOUT" });
    assert.equal(isMcpHostError(foreign), true);
    assert.equal(isMcpHostError(foreign, "TOOL_TIMEOUT"), true);
    assert.equal(isMcpHostError(foreign, "CLI_USAGE"), false);
    assert.equal(isMcpHostError(Object.assign(new Error("x"), { code: "ENOENT" })), false);
  });

  it("wraps an extension's error once, naming the extension and keeping the cause", () => {
    const cause = new TypeError("bad");
    const error = extensionError("EXTENSION_SETUP_FAILED", "spaces", "setup threw", cause);
    assert.equal(error.message, "[extension spaces] setup threw: bad");
    assert.equal(error.extension, "spaces");
    assert.equal(error.cause, cause);
  });
});
