// mcp-host as the benchmark suite runs it in scenarios 1–3 (bench/lib/cli-peer.ts): the built CLI's `serve` on
// bench/fixtures/bench-project. The project's extension must serve exactly the tools every other peer serves
// (bench/servers/tools.ts), the config the suite writes must be a valid config meaning what the suite says (extra
// tools, idle TTL, per-caller sessions, access and audit lines off for the silent host), the CLI must list the
// extra tools the config asked for, write its access and audit lines on stderr — none when silent — answer the
// memory probe, leave nothing behind once closed, and end itself when the suite goes away.
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { endTree, spawnInGroup } from "../helpers/child-group.js";
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { z } from "zod";
import { BEFORE_ENV, BENCH_PROJECT, CliPeer, cliConfig, HOST_OWN_TOOLS } from "../../bench/lib/cli-peer.js";
import { listedTools as listedCount } from "../../bench/lib/peers.js";
import { ECHO_DESCRIPTION, ECHO_NAME, echoInput, echoResult, extraResult, extraTools } from "../../bench/servers/tools.js";
import { loadConfig } from "../../src/config/index.js";
import { callText, Cleanup, connectV2, listedTools } from "../helpers/http-host.js";

const EXTENSION = pathToFileURL(join(BENCH_PROJECT, "extensions", "bench.js")).href;
const CLI = fileURLToPath(new URL("../../dist/cli/main.js", import.meta.url));
const PROBE = pathToFileURL(fileURLToPath(new URL("../../bench/servers/cli-probe.mjs", import.meta.url))).href;

interface Tool {
  name: string;
  description: string;
  inputSchema: z.ZodType;
  handler(args: unknown): unknown;
}

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

/** A component's lines among what a host wrote on stderr (JSON lines: stderr is a pipe). */
function linesOf(stderr: string, component: string): Array<Record<string, unknown>> {
  return stderr
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => line.component === component);
}

describe("the bench project's extension", () => {
  it("serves the tools every other peer serves: the same names, descriptions, JSON Schemas and answers", async () => {
    const factory = (await import(EXTENSION)).default as (options?: { extraTools?: number }) => { name: string; tools: Tool[] };
    const extension = factory({ extraTools: 3 });
    assert.equal(extension.name, "bench");
    const expected = [{ name: ECHO_NAME, description: ECHO_DESCRIPTION, inputSchema: echoInput }, ...extraTools(3)];
    assert.deepEqual(
      extension.tools.map((t) => [t.name, t.description, z.toJSONSchema(t.inputSchema)]),
      expected.map((t) => [t.name, t.description, z.toJSONSchema(t.inputSchema)]),
    );
    assert.deepEqual(await extension.tools[0]!.handler({ text: "hi" }), echoResult("hi"));
    for (const tool of extension.tools.slice(1)) assert.deepEqual(await tool.handler({ space: "s" }), extraResult());
    assert.deepEqual(
      factory().tools.map((t) => t.name),
      [ECHO_NAME],
    );
    for (const bad of [-1, 1.5, "10"])
      assert.throws(() => factory({ extraTools: bad as number }), /extensions\.options\.bench\.extraTools must be a whole number/);
  });
});

describe("the config the suite writes for the CLI host", () => {
  it("is valid and means what the suite says, for the host, the silent host and the host with its fast path off", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mcp-host-cli-peer-config-"));
    cleanup.add(() => rmSync(dir, { recursive: true, force: true }));
    const load = async (config: Parameters<typeof cliConfig>[0]) => {
      const file = join(dir, `${config.peer}.json`);
      writeFileSync(file, JSON.stringify(cliConfig(config)));
      return (await loadConfig({ cwd: BENCH_PROJECT, file, env: {} })).config;
    };
    const loud = await load({ peer: "mcp-host", extraTools: 1000 });
    assert.deepEqual(loud.extensions.options, { bench: { extraTools: 1000 } });
    assert.equal(loud.logging.access, true);
    assert.equal(loud.logging.audit, true);
    const silent = await load({ peer: "mcp-host-silent", extraTools: 0, sessionIdleTtlMs: 2000, maxSessionsPerCaller: 2000 });
    assert.deepEqual(silent.extensions.options, { bench: { extraTools: 0 } });
    assert.equal(silent.logging.access, false);
    assert.equal(silent.logging.audit, false);
    assert.equal(silent.http.sessionIdleTtlMs, 2000);
    assert.equal(silent.http.maxSessionsPerCaller, 2000);
    assert.equal(silent.http.fastPath, true);
    const entry = await load({ peer: "mcp-host-entry", extraTools: 0 });
    assert.equal(entry.http.fastPath, false, "mcp-host-entry serves every request through the SDK's entry");
    assert.equal(entry.logging.access, true);
  });
});

describe("the CLI host peer", { timeout: 60_000 }, () => {
  it("lists the extra tools asked for, logs every request (none when silent), answers the probe, and leaves nothing once closed", async () => {
    const loud = await CliPeer.start({ peer: "mcp-host", extraTools: 3 });
    cleanup.add(() => loud.close());
    const silent = await CliPeer.start({ peer: "mcp-host-silent", extraTools: 0 });
    cleanup.add(() => silent.close());

    const client = (await connectV2(cleanup, loud.url, "modern")).client;
    assert.deepEqual((await listedTools(client)).sort(), [ECHO_NAME, ...extraTools(3).map((t) => t.name), ...HOST_OWN_TOOLS].sort());
    assert.equal(listedCount("mcp-host", 3), 3 + 1 + HOST_OWN_TOOLS.length);
    assert.equal(await callText(client, ECHO_NAME, { text: "loud" }), "loud");
    const quiet = (await connectV2(cleanup, silent.url, "modern")).client;
    assert.equal(await callText(quiet, ECHO_NAME, { text: "quiet" }), "quiet");

    for (const peer of [loud, silent]) {
      const memory = await peer.memory();
      assert.ok(memory.heapUsed > 0 && memory.rss >= memory.heapUsed, JSON.stringify(memory));
    }
    await loud.waitForLogLines(3);
    const folders = [loud.folder, silent.folder];
    const pids = [loud.pid, silent.pid];
    await Promise.all([loud.close(), silent.close()]);

    const calls = linesOf(loud.stderr(), "access").filter((l) => l.rpcMethod === "tools/call");
    assert.equal(calls.length, 1, loud.stderr());
    assert.deepEqual(
      linesOf(loud.stderr(), "audit").map((l) => [l.tool, l.outcome]),
      [[ECHO_NAME, "ok"]],
    );
    assert.ok(loud.logLines() >= linesOf(loud.stderr(), "access").length + 1);
    assert.deepEqual(linesOf(silent.stderr(), "access"), []);
    assert.deepEqual(linesOf(silent.stderr(), "audit"), []);
    for (const folder of folders) assert.equal(existsSync(folder), false, `${folder} is removed`);
    for (const pid of pids) assert.equal(existsSync(`/proc/${pid}`), false, `pid ${pid} exited`);
  });

  it("ends itself, gracefully, when the suite that started it goes away (the probe's IPC channel closes)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mcp-host-cli-peer-orphan-"));
    cleanup.add(() => rmSync(dir, { recursive: true, force: true }));
    const config = join(dir, "mcp-host.config.json");
    writeFileSync(config, JSON.stringify(cliConfig({ peer: "mcp-host", extraTools: 0 })));
    const child = spawnInGroup(process.execPath, ["--expose-gc", "--import", PROBE, CLI, "serve", "--port", "0", "--cwd", BENCH_PROJECT, "--config", config], {
      stdio: ["ignore", "pipe", "pipe", "ipc"],
    });
    cleanup.add(() => endTree(child));
    const exited = new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.once("exit", (code, signal) => resolve([code, signal])));
    let stderr = "";
    child.stderr!.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    let stdout = "";
    await new Promise<void>((resolve, reject) => {
      child.stdout!.setEncoding("utf8").on("data", (d: string) => {
        stdout += d;
        if (stdout.includes("over MCP at")) resolve();
      });
      void exited.then(() => reject(new Error(`serve exited before it served: ${stderr}`)));
    });
    child.disconnect();
    assert.deepEqual(await exited, [0, null]);
    assert.match(stderr, /SIGTERM received, shutting down/);
  });
});

describe("the before peer (another checkout's built CLI)", () => {
  it("refuses to start without MCP_HOST_BENCH_BEFORE, or with a checkout that is not built, naming the variable", async () => {
    const saved = process.env[BEFORE_ENV];
    const unbuilt = mkdtempSync(join(tmpdir(), "mcp-host-before-"));
    cleanup.add(() => rmSync(unbuilt, { recursive: true, force: true }));
    try {
      delete process.env[BEFORE_ENV];
      await assert.rejects(CliPeer.start({ peer: "mcp-host-before", extraTools: 0 }), /needs MCP_HOST_BENCH_BEFORE=/);
      process.env[BEFORE_ENV] = unbuilt;
      await assert.rejects(CliPeer.start({ peer: "mcp-host-before", extraTools: 0 }), /has no dist\/cli\/main\.js/);
    } finally {
      if (saved === undefined) delete process.env[BEFORE_ENV];
      else process.env[BEFORE_ENV] = saved;
    }
  });

  it("runs the named checkout's CLI, with default logging, when the variable names a built one", async () => {
    const saved = process.env[BEFORE_ENV];
    // A stand-in checkout whose dist is this one's: the process must run the CLI under the named folder.
    const checkout = mkdtempSync(join(tmpdir(), "mcp-host-before-"));
    cleanup.add(() => rmSync(checkout, { recursive: true, force: true }));
    symlinkSync(fileURLToPath(new URL("../../dist", import.meta.url)), join(checkout, "dist"));
    process.env[BEFORE_ENV] = checkout;
    try {
      const host = await CliPeer.start({ peer: "mcp-host-before", extraTools: 0 });
      let closed = false;
      cleanup.add(() => (closed ? undefined : host.close()));
      assert.ok(readFileSync(`/proc/${host.pid}/cmdline`, "utf8").includes(join(checkout, "dist", "cli", "main.js")));
      const client = (await connectV2(cleanup, host.url, "modern")).client;
      assert.equal(await callText(client, ECHO_NAME, { text: "before" }), "before");
      await client.close();
      closed = true;
      await host.close();
      assert.deepEqual(
        linesOf(host.stderr(), "audit").map((l) => [l.tool, l.outcome]),
        [[ECHO_NAME, "ok"]],
      );
    } finally {
      if (saved === undefined) delete process.env[BEFORE_ENV];
      else process.env[BEFORE_ENV] = saved;
    }
  });
});
