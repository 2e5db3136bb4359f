// §10.14: stdio children get only HOME, LOGNAME, PATH, SHELL, TERM, USER plus the declared env, no shell, their
// stderr logged line by line under the server's name (bounded); on close the whole process group gets SIGTERM, then
// SIGKILL after 3 s (on the registry's clock) — no orphans, even behind a launcher that does not forward signals.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, it } from "node:test";
import { toText } from "../../../src/registry/index.js";
import { KILL_GRACE_MS } from "../../../src/registry/connect/process-group.js";
import { MAX_LINE_CHARS } from "../../../src/registry/connect/line-splitter.js";
import { ManualClock } from "../../helpers/manual-clock.js";
import { legacyStdio, minimalEnv, registryHarness, stateDir, stderrLine, wrappedLegacyStdio } from "../../helpers/registry/harness.js";
import { alive, descendants, processTable, untilProcesses } from "../../helpers/processes.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

describe("stdio children", () => {
  const h = registryHarness();

  it("gives the child only the minimal environment plus what the spec declares", async () => {
    process.env.MCP_REGISTRY_TEST_SECRET = "parent-only";
    try {
      const registry = h.make([legacyStdio("fx", { tools: ["env"] }, { env: { DECLARED: "yes" } })]);
      const env = JSON.parse(toText(await registry.callTool("env"))) as Record<string, string>;
      assert.deepEqual(env, { ...minimalEnv(), DECLARED: "yes" });
    } finally {
      delete process.env.MCP_REGISTRY_TEST_SECRET;
    }
  });

  it("passes arguments to the program as they are, with no shell in between", async () => {
    const registry = h.make([legacyStdio("fx", { tools: ["argv"] })]);
    assert.deepEqual(JSON.parse(toText(await registry.callTool("argv"))), ['{"name":"fx","tools":["argv"]}']);
    const tricky = h.make([legacyStdio("tricky", { tools: ["argv"], name: "$HOME; echo hacked `id`" })]);
    assert.deepEqual(JSON.parse(toText(await tricky.callTool("argv"))), ['{"name":"$HOME; echo hacked `id`","tools":["argv"]}']);
  });

  it("logs stderr line by line under the server's name, at debug, cutting overlong lines", async () => {
    const registry = h.make([legacyStdio("noisy", { tools: ["echo"], longStderrLine: 10_000 })]);
    await registry.connect();
    await h.logged(
      stderrLine("noisy", (line) => line.startsWith("L")),
      "the long stderr line",
    );
    const lines = h.records.filter(stderrLine("noisy", () => true));
    assert.deepEqual(
      lines.slice(0, 3).map((r) => [r.level, r.message]),
      [
        ["debug", "fixture noisy starting"],
        ["debug", "second line"],
        ["debug", `${"L".repeat(MAX_LINE_CHARS)}… [line cut]`],
      ],
    );
  });

  it("keeps declared env values out of the stderr log", async () => {
    const registry = h.make([legacyStdio("leaky", { tools: ["echo"], printEnv: "API_KEY" }, { env: { API_KEY: "sk-very-secret-value" } })]);
    await registry.connect();
    const line = await h.logged(
      stderrLine("leaky", (text) => text.startsWith("env API_KEY=")),
      "the env line on stderr",
    );
    assert.equal(line.message, "env API_KEY=<redacted>");
    assert.ok(!JSON.stringify(h.records).includes("sk-very-secret-value"));
  });

  it("kills the whole process group on close: no orphan behind a launcher that ignores signals", async () => {
    const registry = h.make([wrappedLegacyStdio("wrapped", { tools: ["echo"], linger: true })]);
    await registry.connect();
    const leader = registry.status()[0]!.pid!;
    const group = processTable().filter((p) => p.pgrp === leader);
    assert.equal(group.length, 2, "the launcher and the real server");
    const server = group.find((p) => p.pid !== leader)!;
    assert.match(server.cmd, /legacy-stdio\.mjs \{"name":"wrapped","tools":\["echo"\],"linger":true\}$/);
    assert.ok(
      descendants(leader).some((p) => p.pid === server.pid),
      "the server is the launcher's child",
    );
    h.tracker.snapshot([leader]);
    await registry.close();
    assert.equal(alive(leader), false);
    assert.equal(alive(server.pid), false, "the grandchild was not orphaned");
    assert.deepEqual(
      processTable().filter((p) => p.pgrp === leader),
      [],
    );
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
    assert.match(out, /^\d+\n$/);
    const leader = Number(out.trim());
    try {
      await untilProcesses(() => processTable().every((p) => p.pgrp !== leader), "the forgotten process group to be gone");
    } finally {
      if (processTable().some((p) => p.pgrp === leader)) process.kill(-leader, "SIGKILL"); // never leak, even on failure
    }
  });

  it("SIGKILLs what ignores SIGTERM once the 3 s grace is over, and not before", async () => {
    assert.equal(KILL_GRACE_MS, 3000);
    const clock = new ManualClock();
    const registry = h.make([wrappedLegacyStdio("stubborn", { tools: ["echo"], linger: true, ignoreSigterm: true })], { clock });
    await registry.connect();
    const leader = registry.status()[0]!.pid!;
    const server = processTable().find((p) => p.pgrp === leader && p.pid !== leader)!;
    h.tracker.snapshot([leader]);
    const sigterm = h.nextLog(stderrLine("stubborn", "fixture: ignoring SIGTERM"), "the server to get SIGTERM");
    const closing = registry.close();
    await sigterm;
    await clock.advance(KILL_GRACE_MS - 1);
    assert.equal(alive(server.pid), true, "still alive inside the grace");
    await clock.advance(1);
    await closing;
    assert.equal(alive(server.pid), false);
    assert.deepEqual(
      processTable().filter((p) => p.pgrp === leader),
      [],
    );
  });
});
