// ServerSpec helpers validate where a spec is written: an HTTP URL must be https (plain http only on loopback), carry
// no userinfo and no query string — and the error never repeats the URL; stdio needs a command and sane env names;
// a server needs a non-blank name (MCP_SERVER_NAME_INVALID), unique within a registry (MCP_SERVER_NAME_TAKEN).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isMcpHostError } from "../../src/errors.js";
import { McpRegistry, ServerSpec } from "../../src/registry/index.js";

function refusal(fn: () => unknown, code: string, message: string, secret?: string): void {
  assert.throws(fn, (error) => {
    assert.ok(isMcpHostError(error), String(error));
    assert.equal(error.code, code);
    assert.equal(error.message, message);
    if (secret) assert.ok(!error.message.includes(secret));
    return true;
  });
}

describe("ServerSpec", () => {
  it("accepts https anywhere and plain http on loopback only", () => {
    assert.equal(ServerSpec.http("a", "https://mcp.example.com/mcp/").transport, "http");
    for (const url of ["http://localhost:3000/mcp", "http://127.0.0.1:1/mcp", "http://127.9.9.9/mcp", "http://[::1]:8080/mcp"]) {
      assert.equal(ServerSpec.http("a", url).url, url);
    }
    refusal(
      () => ServerSpec.http("a", "http://mcp.example.com/mcp"),
      "MCP_URL_INVALID",
      'server "a": the URL must use https (plain http is allowed only for localhost, 127.0.0.0/8 and [::1])',
    );
  });

  it("refuses userinfo, a query string, other schemes and garbage without repeating the URL", () => {
    refusal(
      () => ServerSpec.http("a", "https://user:sk-SECRET@mcp.example.com/mcp"),
      "MCP_URL_INVALID",
      'server "a": the URL must not carry a user name or password; put credentials in headers',
      "sk-SECRET",
    );
    refusal(
      () => ServerSpec.http("a", "https://mcp.example.com/mcp?key=sk-SECRET"),
      "MCP_URL_INVALID",
      'server "a": the URL must not carry a query string; put credentials in headers',
      "sk-SECRET",
    );
    refusal(() => ServerSpec.http("a", "ws://mcp.example.com/mcp"), "MCP_URL_INVALID", 'server "a": the URL must use https');
    refusal(() => ServerSpec.http("a", "not a url sk-SECRET"), "MCP_URL_INVALID", 'server "a": the URL is not a valid absolute URL', "sk-SECRET");
  });

  it("needs a non-blank name", () => {
    refusal(() => ServerSpec.stdio("", "node"), "MCP_SERVER_NAME_INVALID", 'a stdio server needs a non-empty name (got "")');
    refusal(() => ServerSpec.http("  ", "https://x.example/mcp"), "MCP_SERVER_NAME_INVALID", 'a http server needs a non-empty name (got "  ")');
    refusal(
      () => ServerSpec.custom(undefined as unknown as string, () => ({}) as never),
      "MCP_SERVER_NAME_INVALID",
      "a custom server needs a non-empty name (got undefined)",
    );
    // A spec written by hand is checked by the registry too.
    const unnamed = { ...ServerSpec.stdio("git", "uvx"), name: " " };
    refusal(() => new McpRegistry([unnamed]), "MCP_SERVER_NAME_INVALID", 'a stdio server needs a non-empty name (got " ")');
  });

  it("needs a command, string args and well-formed env names", () => {
    refusal(() => ServerSpec.stdio("git", " "), "MCP_TRANSPORT_INVALID", 'server "git": a stdio server needs a command');
    refusal(() => ServerSpec.stdio("git", "uvx", [1 as unknown as string]), "MCP_TRANSPORT_INVALID", 'server "git": args must be a list of strings');
    refusal(
      () => ServerSpec.stdio("git", "uvx", [], { env: { "BAD KEY": "x" } }),
      "MCP_TRANSPORT_INVALID",
      'server "git": env.BAD KEY must be a variable name with a string value',
    );
    refusal(() => ServerSpec.custom("c", "nope" as never), "MCP_TRANSPORT_INVALID", 'server "c": a custom server needs a function that makes its transport');
    assert.deepEqual(ServerSpec.stdio("git", "uvx", ["mcp-server-git"], { env: { GIT_AUTHOR_NAME: "agent" } }), {
      env: { GIT_AUTHOR_NAME: "agent" },
      name: "git",
      transport: "stdio",
      command: "uvx",
      args: ["mcp-server-git"],
    });
  });

  it("refuses two servers with one name, naming both", () => {
    refusal(
      () => new McpRegistry([ServerSpec.stdio("git", "uvx"), ServerSpec.stdio("fs", "npx"), ServerSpec.http("git", "https://x.example/mcp/sk-SECRET")]),
      "MCP_SERVER_NAME_TAKEN",
      'servers #1 (stdio) and #3 (http) are both named "git"; server names must be unique, so rename one',
      "sk-SECRET",
    );
    assert.throws(
      () => new McpRegistry([ServerSpec.stdio("git", "uvx"), ServerSpec.stdio("git", "uvx")]),
      (e) => isMcpHostError(e, "MCP_SERVER_NAME_TAKEN") && e.server === "git",
    );
  });
});
