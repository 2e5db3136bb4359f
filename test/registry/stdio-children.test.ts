// §10.14: stdio children get only HOME, LOGNAME, PATH, SHELL, TERM, USER plus the declared env, no shell, their
// stderr logged line by line under the server's name (bounded); on close the whole process group gets SIGTERM, then
// SIGKILL after 3 s — no orphans, even behind a launcher that does not forward signals.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, it } from "node:test";
import { toText } from "../../src/registry/index.js";
import { KILL_GRACE_MS } from "../../src/registry/process-group.js";
import { MAX_LINE_CHARS } from "../../src/registry/line-splitter.js";
import { legacyStdio, registryHarness, stateDir, wrappedLegacyStdio } from "./helpers/harness.js";
import { alive, descendants, eventually, processTable } from "./helpers/processes.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

describe("stdio children", () => {
  const h = registryHarness();

  it("gives the child only the minimal environment plus what the spec declares", async () => {
    process.env.MCP_REGISTRY_TEST_SECRET = "parent-only";
    try {
      const registry = h.make([legacyStdio("fx", { tools: ["env"] }, { env: { DECLARED: "yes" } })]);
      const env = JSON.parse(toText(await registry.callTool("env"))) as Record<string, string>;
      assert.equal(env.DECLARED, "yes");
      assert.equal(env.MCP_REGISTRY_TEST_SECRET, undefined);
      const allowed = new Set(["HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER", "DECLARED"]);
      const extra = Object.keys(env).filter((k) => !allowed.has(k));
      // Node itself may add a few variables of its own to its environment; none of them comes from the parent.
      for (const key of extra) assert.equal(process.env[key] === env[key] && key in process.env, false, `${key} leaked from the parent`);
      assert.equal(env.PATH, process.env.PATH);
    } finally {
      delete process.env.MCP_REGISTRY_TEST_SECRET;
    }
  });

  it("passes arguments to the program as they are, with no shell in between", async () => {
    const registry = h.make([legacyStdio("fx", { tools: ["argv"] })]);
    const argv = JSON.parse(toText(await registry.callTool("argv"))) as string[];
    assert.equal(JSON.parse(argv[0]!).name, "fx");
    const tricky = h.make([legacyStdio("tricky", { tools: ["argv"], name: "$HOME; echo hacked `id`" })]);
    const args = JSON.parse(toText(await tricky.callTool("argv"))) as string[];
    assert.equal(JSON.parse(args[0]!).name, "$HOME; echo hacked `id`");
  });

  it("logs stderr line by line under the server's name, cutting overlong lines", async () => {
    const registry = h.make([legacyStdio("noisy", { tools: ["echo"], longStderrLine: 10_000 })]);
    await registry.connect();
    const stderr = () => h.records.filter((r) => r.prefix.join("/") === "noisy/stderr").map((r) => r.message);
    await eventually(() => stderr().length >= 3, "three stderr lines");
    const lines = stderr();
    assert.deepEqual(lines.slice(0, 2), ["fixture noisy starting", "second line"]);
    assert.equal(lines[2], `${"L".repeat(MAX_LINE_CHARS)}… [line cut]`);
  });

  it("keeps declared env values out of the stderr log", async () => {
    const registry = h.make([legacyStdio("leaky", { tools: ["echo"], printEnv: "API_KEY" }, { env: { API_KEY: "sk-very-secret-value" } })]);
    await registry.connect();
    const line = () => h.records.find((r) => r.prefix.join("/") === "leaky/stderr" && r.message.startsWith("env API_KEY="));
    await eventually(() => line() !== undefined, "the env line on stderr");
    assert.equal(line()?.message, "env API_KEY=<redacted>");
  });

  it("kills the whole process group on close: no orphan behind a launcher that ignores signals", async () => {
    const registry = h.make([wrappedLegacyStdio("wrapped", { tools: ["echo"], linger: true })]);
    await registry.connect();
    const leader = registry.status()[0]!.pid!;
    const group = processTable().filter((p) => p.pgrp === leader);
    assert.equal(group.length, 2, "the launcher and the real server");
    const server = group.find((p) => p.pid !== leader)!;
    assert.ok(server.cmd.includes("legacy-stdio.mjs"));
    assert.ok(descendants(leader).some((p) => p.pid === server.pid), "the server is the launcher's child");
    h.tracker.snapshot([leader]);
    await registry.close();
    assert.equal(alive(leader), false);
    assert.equal(alive(server.pid), false, "the grandchild was not orphaned");
    assert.deepEqual(processTable().filter((p) => p.pgrp === leader), []);
  });

  it("kills the process groups if the host process exits without closing the registry", async () => {
    const dir = stateDir();
    const script = join(dir, "forgetful-agent.mts");
    const spec = wrappedLegacyStdio("forgotten", { tools: ["echo"], linger: true });
    writeFileSync(
      script,
      [
        `import { McpRegistry } from ${JSON.stringify(join(ROOT, "src/registry/index.ts"))};`,
        `const registry = new McpRegistry([${JSON.stringify(spec)}], { logger: undefined });`,
        `await registry.connect();`,
        `console.log(registry.status()[0].pid);`,
        `process.exit(0); // no close()`,
      ].join("\n"),
    );
    const child = spawn(process.execPath, ["--import", "tsx", script], { cwd: ROOT, stdio: ["ignore", "pipe", "ignore"] });
    let out = "";
    child.stdout.on("data", (c: Buffer) => (out += c.toString()));
    assert.equal(await new Promise((resolve) => child.on("close", resolve)), 0);
    const leader = Number(out.trim());
    assert.ok(leader > 0, out);
    try {
      await eventually(() => processTable().every((p) => p.pgrp !== leader), "the forgotten process group to be gone");
    } finally {
      if (processTable().some((p) => p.pgrp === leader)) process.kill(-leader, "SIGKILL"); // never leak, even on failure
    }
  });

  it("SIGKILLs what ignores SIGTERM once the 3 s grace is over", async () => {
    assert.equal(KILL_GRACE_MS, 3000);
    const registry = h.make([wrappedLegacyStdio("stubborn", { tools: ["echo"], linger: true, ignoreSigterm: true })]);
    await registry.connect();
    const leader = registry.status()[0]!.pid!;
    const server = processTable().find((p) => p.pgrp === leader && p.pid !== leader)!;
    h.tracker.snapshot([leader]);
    await registry.close();
    assert.equal(alive(server.pid), false);
    assert.ok(h.records.some((r) => r.prefix.join("/") === "stubborn/stderr" && r.message === "fixture: ignoring SIGTERM"), "it did get SIGTERM first");
  });
});
