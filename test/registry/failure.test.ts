// The retry rule's view of a failure (src/registry/failure.ts): never sent (safe to send again), may have run, rejected
// by the server, timed out — each from the errors the SDK, undici and the stdio transport really raise — and a detail
// that never names the server (the registry's framing does).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ProtocolError, SdkError, SdkErrorCode, SdkHttpError } from "@modelcontextprotocol/client";
import { McpHostError } from "../../src/errors.js";
import { CHILD_GONE, classifyFailure } from "../../src/registry/failure.js";

describe("failure classification", () => {
  const errno = (code: string) => Object.assign(new TypeError("fetch failed"), { cause: Object.assign(new Error(code), { code }) });

  it("counts refusals, broken pipes, exited children and expired sessions as never sent", () => {
    for (const error of [
      errno("ECONNREFUSED"),
      errno("EPIPE"),
      Object.assign(new Error("gone"), { code: CHILD_GONE }),
      new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, "x", { status: 404 }),
      new SdkError(SdkErrorCode.NotConnected, "Not connected"),
      new Error("Not connected"),
    ]) {
      assert.equal(classifyFailure(error).kind, "not-sent", String(error));
    }
    assert.deepEqual(
      [errno("ECONNREFUSED"), errno("EPIPE"), Object.assign(new Error("gone"), { code: CHILD_GONE })].map((e) => classifyFailure(e).detail),
      ["connection refused", "broken pipe", "the server process had exited"],
    );
  });

  it("counts a connection lost after sending as may-have-run, a JSON-RPC error as rejected, timeouts as timeouts", () => {
    assert.equal(classifyFailure(new SdkError(SdkErrorCode.ConnectionClosed, "Connection closed")).kind, "maybe-ran");
    assert.equal(classifyFailure(errno("ECONNRESET")).kind, "maybe-ran");
    assert.equal(classifyFailure(errno("UND_ERR_SOCKET")).kind, "maybe-ran");
    assert.deepEqual(classifyFailure(new ProtocolError(-32602, "MCP error -32602: bad")), {
      kind: "rejected",
      detail: "JSON-RPC error -32602: bad",
      rpcCode: -32602,
    });
    assert.equal(classifyFailure(new SdkError(SdkErrorCode.RequestTimeout, "Request timed out")).kind, "timeout");
    assert.deepEqual(classifyFailure(new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, "x", { status: 500 })), {
      kind: "rejected",
      detail: "the server answered HTTP 500",
    });
  });

  it("keeps the registry's own message, and never adds the server's name to a detail", () => {
    const own = new McpHostError("MCP_CALL_FAILED", "the server kept asking for input after 10 rounds", { server: "git" });
    assert.deepEqual(classifyFailure(own), { kind: "rejected", detail: "the server kept asking for input after 10 rounds" });
    assert.deepEqual(classifyFailure(errno("ECONNRESET")), { kind: "maybe-ran", detail: "connection reset" });
  });
});
