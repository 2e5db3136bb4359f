// §10.8: reconnect and retry once, only for failures before the request could have run (refused connection, broken
// pipe, exited child, expired HTTP session); a call that may have run is never re-run unless read-only or
// idempotent; the first error is surfaced when the reconnect fails, the second when the retry fails; only the
// reconnected server is re-listed.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { existsSync } from "node:fs";
import { ServerSpec, registryErrorCode, toText } from "../../../src/registry/index.js";
import { LegacyHttpFixture } from "../../fixtures/upstream/http-fixtures.js";
import { countOf, legacyStdio, registryHarness, stateDir } from "../../helpers/registry/harness.js";
import { untilProcesses } from "../../helpers/processes.js";

const READ_ONLY = { readOnlyHint: true };

describe("reconnect and retry", () => {
  const h = registryHarness();

  async function httpFixture(dir: string) {
    return new LegacyHttpFixture({ name: "remote", tools: ["count", "echo"], stateDir: dir }).start();
  }

  it("reconnects after an expired session, retries once, and re-lists only that server", async () => {
    const dir = stateDir();
    const localDir = stateDir();
    const http = await httpFixture(dir);
    try {
      const registry = h.make([ServerSpec.http("remote", http.url, { era: "legacy" }), legacyStdio("local", { tools: ["echo"], stateDir: localDir })]);
      assert.equal(toText(await registry.callTool("count")), "ran");
      const localLists = countOf(localDir, "list:tools");
      const remoteLists = http.counts.methods["tools/list"];
      http.expireSessions();
      const result = await registry.callTool("count");
      assert.equal(toText(result), "ran");
      assert.equal(countOf(dir, "call:count"), 2, "the retried call ran exactly once");
      assert.equal(http.counts.methods.initialize, 2);
      assert.equal(http.counts.methods["tools/list"], remoteLists! + 1);
      assert.equal(countOf(localDir, "list:tools"), localLists, "the healthy server was not re-listed");
    } finally {
      await http.stop();
    }
  });

  it("surfaces the first error when the reconnect fails", async () => {
    const http = await httpFixture(stateDir());
    try {
      const registry = h.make([ServerSpec.http("remote", http.url, { era: "legacy" })]);
      await registry.connect();
      http.expireSessions();
      http.refuseNewSessions = 503;
      const result = await registry.callTool("count");
      assert.equal(registryErrorCode(result), "MCP_CALL_FAILED");
      assert.equal(toText(result), 'tool "count" on server "remote" failed: the HTTP session expired (HTTP 404)');
      assert.deepEqual(
        registry.unavailable.map((u) => [u.server, u.phase, u.code]),
        [["remote", "connect", "MCP_SERVER_UNREACHABLE"]],
      );
      http.refuseNewSessions = undefined;
      assert.equal(toText(await registry.callTool("count")), "ran", "the next call reconnects");
      assert.deepEqual(registry.unavailable, []);
    } finally {
      await http.stop();
    }
  });

  it("surfaces the second error when the retry fails", async () => {
    const dir = stateDir();
    const http = await httpFixture(dir);
    try {
      const registry = h.make([ServerSpec.http("remote", http.url, { era: "legacy" })]);
      await registry.connect();
      http.expireSessions();
      http.poisonNewSessions = true;
      const result = await registry.callTool("count");
      assert.equal(toText(result), 'tool "count" on server "remote" failed: the server answered HTTP 500');
      assert.equal(countOf(dir, "call:count"), 0);
      assert.equal(http.counts.methods.initialize, 2, "one reconnect, no more");
    } finally {
      await http.stop();
    }
  });

  it("never re-runs a call that crashed its stdio server mid-way, and reconnects for the next call", async () => {
    const dir = stateDir();
    const registry = h.make([legacyStdio("fragile", { tools: ["crash", "echo"], stateDir: dir })]);
    await registry.connect();
    const firstPid = registry.status()[0]!.pid!;
    const result = await registry.callTool("crash");
    assert.equal(registryErrorCode(result), "MCP_CALL_FAILED");
    assert.equal(
      toText(result),
      'tool "crash" on server "fragile" failed: the connection closed while the request was in flight; it may have run, so it was not retried',
    );
    assert.equal(countOf(dir, "call:crash"), 1);
    assert.equal(toText(await registry.callTool("echo", { text: "back" })), "back");
    assert.notEqual(registry.status()[0]!.pid, firstPid);
  });

  it("retries a read-only call whose server crashed mid-way", async () => {
    const dir = stateDir();
    const registry = h.make([legacyStdio("fragile", { tools: [{ name: "crash_once", annotations: READ_ONLY }], stateDir: dir })]);
    const result = await registry.callTool("crash_once");
    assert.equal(toText(result), "survived");
    assert.equal(countOf(dir, "call:crash_once"), 2);
  });

  it("never re-runs a non-idempotent HTTP call whose connection dropped mid-way", async () => {
    const dir = stateDir();
    const http = await new LegacyHttpFixture({
      name: "remote",
      tools: ["crash", { name: "crash_idem", behaviour: "crash", annotations: { idempotentHint: true } }],
      stateDir: dir,
    }).start();
    try {
      const registry = h.make([ServerSpec.http("remote", http.url, { era: "legacy" })]);
      const result = await registry.callTool("crash");
      assert.equal(registryErrorCode(result), "MCP_CALL_FAILED");
      assert.equal(toText(result), 'tool "crash" on server "remote" failed: connection closed by the server; it may have run, so it was not retried');
      assert.equal(countOf(dir, "call:crash"), 1);
      const idempotent = await registry.callTool("crash_idem");
      assert.equal(toText(idempotent), 'tool "crash_idem" on server "remote" failed: connection closed by the server'); // retried, and the retry crashed too
      assert.equal(countOf(dir, "call:crash_idem"), 2, "an idempotent call is retried once, and only once");
    } finally {
      await http.stop();
    }
  });

  it("starts a new child when the old one exited, without running the call twice", async () => {
    const dir = stateDir();
    const registry = h.make([legacyStdio("fragile", { tools: ["count"], stateDir: dir })]);
    await registry.connect();
    const pid = registry.status()[0]!.pid!;
    process.kill(-pid, "SIGKILL");
    // Reaped, not merely a zombie: a zombie leader's threads may still hold its pipes open for a moment.
    await untilProcesses(() => !existsSync(`/proc/${pid}`), "the child to be gone");
    assert.equal(toText(await registry.callTool("count")), "ran");
    assert.equal(countOf(dir, "call:count"), 1);
    assert.notEqual(registry.status()[0]!.pid, pid);
  });
});
