// The registry against the reference server, @modelcontextprotocol/server-everything, over stdio and over
// Streamable HTTP (on 127.0.0.1), side by side with a v1-SDK fixture: tools, images, resources, templates, prompts.
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { after, before, describe, it } from "node:test";
import { ServerSpec, toText } from "../../src/registry/index.js";
import { EVERYTHING, everythingStdio, freePort, legacyStdio, registryHarness } from "../helpers/registry/harness.js";

async function waitForPort(url: string, child: ChildProcess): Promise<void> {
  const until = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error("server-everything exited");
    try {
      await fetch(url, { method: "GET", signal: AbortSignal.timeout(1000) });
      return;
    } catch {
      if (Date.now() > until) throw new Error("server-everything did not start listening");
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

describe("server-everything", () => {
  const h = registryHarness();
  let http: ChildProcess;
  let url: string;

  before(async () => {
    const port = await freePort();
    url = `http://127.0.0.1:${port}/mcp`;
    http = spawn(process.execPath, [EVERYTHING, "streamableHttp"], { env: { PATH: process.env.PATH ?? "", PORT: String(port) }, stdio: ["ignore", "ignore", "ignore"] });
    h.tracker.ignore(http.pid!);
    await waitForPort(`http://127.0.0.1:${port}/health`, http);
  });
  after(async () => {
    const exited = new Promise((resolve) => http.once("exit", resolve));
    http.kill("SIGTERM");
    await exited;
  });

  it("serves its tools, results and resources over stdio next to a 2025-era fixture", async () => {
    const registry = h.make([everythingStdio("everything"), legacyStdio("fx", { tools: ["echo", "count"] })]);
    const names = (await registry.listTools()).map((t) => t.name);
    assert.ok(names.includes("everything__echo") && names.includes("fx__echo") && names.includes("get-sum") && names.includes("count"), names.join(","));
    assert.equal(toText(await registry.callTool("everything__echo", { message: "hi" })), "Echo: hi");
    assert.equal(toText(await registry.callTool("get-sum", { a: 2, b: 3 })), "The sum of 2 and 3 is 5.");
    assert.equal(toText(await registry.callTool("fx.echo", { text: "fixture" })), "fixture");
    const env = toText(await registry.callTool("get-env"));
    assert.ok(!env.includes("MCP_REGISTRY") && env.includes("PATH"));
  });

  it("serves its tools, resources and prompts over Streamable HTTP", async () => {
    const registry = h.make([ServerSpec.http("everything", url)]);
    await registry.connect();
    assert.deepEqual(registry.unavailable, []);
    assert.equal(registry.status()[0]!.era, "legacy");
    assert.equal(toText(await registry.callTool("echo", { message: "over http" })), "Echo: over http");
    assert.match(toText(await registry.callTool("get-tiny-image")), /\[image: image\/png, \d+ bytes\]/);
    const structured = await registry.callTool("get-structured-content", { location: "New York" });
    assert.equal(structured.isError, undefined, toText(structured));
    assert.ok(structured.structuredContent !== undefined);
    const resources = await registry.listResources();
    assert.ok(resources.length > 0);
    assert.ok(toText(await registry.readResource(resources[0]!.uri)).length > 0);
    assert.ok((await registry.listPrompts()).some((p) => p.name === "args-prompt"));
    assert.match(toText(await registry.getPrompt("args-prompt", { city: "Paris" })), /Paris/);
  });
});
