// The lines an operator's log pipeline gets (docs/design.md §18): one access line per HTTP request (method, path,
// selection, era, JSON-RPC method, status, duration, request id, the caller's subject — never a token); one audit
// line per tool call (tool, toolset, extension, outcome, duration), arguments only when asked for and then with
// secret-looking values masked; and every line written while serving a request carries its request id and the
// caller's address, `client` (and inside a tool call, the tool's names), including the extension's own.
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { AUDIENCE, authorizationServerFor, bearer } from "../../helpers/auth-host.js";
import { Cleanup, raw, modernBody, modernHeaders } from "../../helpers/http-host.js";
import { kit, type Line, serveObserved } from "../../helpers/observed-host.js";

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

function call(url: URL, name: string, args: Record<string, unknown>, headers: Record<string, string> = {}) {
  return raw({ url, method: "POST", headers: { ...modernHeaders("tools/call", name), ...headers }, body: modernBody("tools/call", { name, arguments: args }) });
}

const isAudit = (tool: string) => (l: Line) => l.component === "audit" && l.tool === tool;

describe("access and audit lines", { timeout: 60_000 }, () => {
  it("writes one access line per request and one audit line per tool call, each carrying the request id", async () => {
    const served = await serveObserved(cleanup, [kit]);
    const answer = await call(served.at("only=kit"), "echo", { text: "hi" });
    assert.equal(answer.status, 200, answer.text);
    const requestId = answer.headers["x-request-id"] as string;
    assert.match(requestId, /^[0-9a-f-]{36}$/);

    const access = await served.waitFor((l) => l.component === "access");
    const audit = await served.waitFor(isAudit("echo"));
    const { time, durationMs, ...accessRest } = access;
    assert.equal(typeof time, "string");
    assert.equal(typeof durationMs, "number");
    assert.deepEqual(accessRest, {
      level: "info",
      requestId,
      client: "127.0.0.1",
      component: "access",
      method: "POST",
      path: "/mcp",
      status: 200,
      selection: "kit",
      era: "modern",
      rpcMethod: "tools/call",
      msg: `POST /mcp tools/call 200 in ${(durationMs as number).toFixed(1)} ms`,
    });
    const { time: _t, durationMs: auditMs, ...auditRest } = audit;
    assert.equal(typeof auditMs, "number");
    assert.deepEqual(auditRest, {
      level: "info",
      requestId,
      client: "127.0.0.1",
      tool: "echo",
      toolset: "kit",
      extension: "kit",
      component: "audit",
      outcome: "ok",
      era: "modern",
      msg: `tool call echo ok in ${(auditMs as number).toFixed(1)} ms`,
    });
    // The extension's own line, written through ctx.logger, says which request and which tool it belongs to.
    const own = served.lines.find((l) => l.msg === "echoing hi");
    assert.deepEqual([own?.component, own?.extension, own?.tool, own?.toolset, own?.requestId], ["extension", "kit", "echo", "kit", requestId]);
    assert.equal(served.lines.filter((l) => l.component === "access").length, 1, "one access line for one request");
  });

  it("names the real tool on the audit line of a call through search mode's call_tool, and says it came via call_tool", async () => {
    const served = await serveObserved(cleanup, [kit]);
    const answer = await call(served.at("only=kit&search"), "call_tool", { name: "echo", arguments: { text: "found" } });
    assert.equal(answer.status, 200, answer.text);
    const audit = await served.waitFor(isAudit("echo"));
    assert.deepEqual([audit.tool, audit.toolset, audit.extension, audit.via, audit.outcome], ["echo", "kit", "kit", "call_tool", "ok"]);
    const direct = await call(served.at("only=kit"), "echo", { text: "plain" });
    assert.equal(direct.status, 200, direct.text);
    await served.waitFor((l) => isAudit("echo")(l) && l !== audit);
    assert.equal(served.lines.filter(isAudit("echo")).at(-1)?.via, undefined, "a direct call has no via");
  });

  it("counts every way a call ends: ok, isError (a result or a throw), timeout, and refused (unknown tool, bad arguments)", async () => {
    const served = await serveObserved(cleanup, [kit]);
    const url = served.at("only=kit");
    for (const [name, args] of [
      ["echo", { text: "x" }],
      ["refuse", {}],
      ["boom", {}],
      ["sleepy", {}],
      ["nosuch", {}],
      ["echo", { text: 42 }],
    ] as const) {
      await call(url, name, args);
    }
    await served.waitFor((l) => l.component === "audit" && l.tool === "echo" && l.outcome === "refused");
    const audits = served.lines.filter((l) => l.component === "audit").map((l) => [l.tool, l.outcome, l.toolset ?? "-"]);
    assert.deepEqual(audits, [
      ["echo", "ok", "kit"],
      ["refuse", "isError", "kit"],
      ["boom", "isError", "kit"],
      ["sleepy", "timeout", "kit"],
      ["nosuch", "refused", "-"],
      ["echo", "refused", "kit"],
    ]);
    const refused = served.lines.find((l) => l.component === "audit" && l.tool === "nosuch")!;
    assert.equal(refused.errorCode, -32602);
    assert.equal(served.lines.find(isAudit("boom"))!.error, "boom on purpose");
  });

  it("leaves arguments out by default; with includeArguments shows them with secret-looking values masked", async () => {
    const args = { user: "ann", password: "hunter2", apiKey: "sk-live-1", nested: { token: "t0ken-value", note: "kept" } };
    const quiet = await serveObserved(cleanup, [kit]);
    await call(quiet.at("only=kit"), "login", args);
    assert.equal((await quiet.waitFor(isAudit("login"))).arguments, undefined);

    const told = await serveObserved(cleanup, [kit], { observe: { includeArguments: true } });
    await call(told.at("only=kit"), "login", args);
    assert.deepEqual((await told.waitFor(isAudit("login"))).arguments, {
      user: "ann",
      password: "[masked]",
      apiKey: "[masked]",
      nested: { token: "[masked]", note: "kept" },
    });
    const everything = JSON.stringify(told.lines);
    for (const secret of ["hunter2", "sk-live-1", "t0ken-value"]) assert.ok(!everything.includes(secret), `${secret} is in no line`);
  });

  it("names the caller's subject on both lines when auth is on, and never the token", async () => {
    const as = await authorizationServerFor(cleanup);
    const served = await serveObserved(cleanup, [kit], {
      http: { auth: { issuer: as.issuer, audience: AUDIENCE, jwksUri: as.jwksUri } },
    });
    const token = await as.mint({ sub: "user-7", aud: AUDIENCE, scope: "mcp:read" });
    const answer = await call(served.at("only=kit"), "echo", { text: "hi" }, bearer(token));
    assert.equal(answer.status, 200, answer.text);
    const refused = await call(served.at("only=kit"), "echo", { text: "hi" });
    assert.equal(refused.status, 401);
    const audit = await served.waitFor(isAudit("echo"));
    assert.equal(audit.subject, "user-7");
    const accesses = await served.waitFor((l) => l.component === "access" && l.status === 401);
    assert.equal(accesses.subject, undefined, "a refused caller has no subject");
    const served200 = served.lines.find((l) => l.component === "access" && l.status === 200)!;
    assert.equal(served200.subject, "user-7");
    const everything = JSON.stringify(served.lines);
    for (const part of [token, ...token.split(".").filter((p) => p.length >= 16)]) assert.ok(!everything.includes(part), "no line carries the token");
  });

  it("keeps a proxy's well-formed X-Request-Id and replaces one that is not", async () => {
    const served = await serveObserved(cleanup, [kit]);
    const kept = await raw({ url: new URL("/healthz", served.baseUrl), headers: { "x-request-id": "edge-42.a" } });
    assert.equal(kept.headers["x-request-id"], "edge-42.a");
    const replaced = await raw({ url: new URL("/healthz", served.baseUrl), headers: { "x-request-id": "bad id with spaces" } });
    assert.match(replaced.headers["x-request-id"] as string, /^[0-9a-f-]{36}$/);
    const line = await served.waitFor((l) => l.component === "access" && l.requestId === "edge-42.a");
    assert.deepEqual([line.method, line.path, line.status], ["GET", "/healthz", 200]);
  });
});
