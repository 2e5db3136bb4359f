// §10.6: an upstream isError result comes back as is; a transport failure or a JSON-RPC rejection becomes an isError
// result naming the server and the tool — never the URL.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ServerSpec, registryErrorCode, toText } from "../../../src/registry/index.js";
import { LegacyHttpFixture } from "../../fixtures/upstream/http-fixtures.js";
import { legacyStdio, registryHarness } from "../../helpers/registry/harness.js";

describe("call errors", () => {
  const h = registryHarness();

  it("makes a JSON-RPC rejection an isError result naming server and tool", async () => {
    const registry = h.make([legacyStdio("fx", { tools: ["reject", "is_error"] })]);
    const result = await registry.callTool("reject");
    assert.equal(result.isError, true);
    assert.equal(registryErrorCode(result), "MCP_CALL_FAILED");
    assert.equal(toText(result), 'tool "reject" on server "fx" failed: JSON-RPC error -32602: the upstream rejects these arguments');
    assert.deepEqual(await registry.callTool("is_error"), { content: [{ type: "text", text: "upstream says no" }], isError: true });
  });

  it("makes a transport failure an isError result naming server and tool, without the URL", async () => {
    const http = await new LegacyHttpFixture({ name: "remote", tools: ["echo"] }).start();
    const url = http.url.replace("/mcp", "/mcp/sk-SECRETPATH-99");
    const registry = h.make([ServerSpec.http("remote", url, { era: "legacy" })]);
    assert.equal(toText(await registry.callTool("echo", { text: "up" })), "up");
    await http.stop();
    // The first call may still meet the pooled connection the server just closed (which looks the same as a server
    // dying mid-call, so it is not retried); once that is gone, the port refuses.
    const first = await registry.callTool("echo", { text: "down" });
    assert.equal(first.isError, true);
    assert.match(
      toText(first),
      /^tool "echo" on server "remote" failed: (connection refused|connection closed by the server; it may have run, so it was not retried)$/,
    );
    const second = await registry.callTool("echo", { text: "down" });
    assert.equal(toText(second), 'tool "echo" on server "remote" failed: connection refused');
    for (const result of [first, second]) assert.ok(!JSON.stringify(result).includes("SECRETPATH") && !JSON.stringify(result).includes("127.0.0.1"));
  });
});
