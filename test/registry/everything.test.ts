// The registry against the reference server, @modelcontextprotocol/server-everything, over stdio and over
// Streamable HTTP (on 127.0.0.1), side by side with a v1-SDK fixture: tools, images, resources, templates, prompts.
import assert from "node:assert/strict";
import type { ChildProcess } from "node:child_process";
import { endTree, spawnInGroup } from "../helpers/child-group.js";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { ServerSpec, toText } from "../../src/registry/index.js";
import {
  EVERYTHING,
  EVERYTHING_DOCS,
  EVERYTHING_OFFER,
  everythingStdio,
  freePort,
  legacyStdio,
  minimalEnv,
  registryHarness,
} from "../helpers/registry/harness.js";

/** Resolves once the server says on stderr that it listens; rejects if it exits first. */
function listening(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let said = "";
    child.stderr!.on("data", (chunk: Buffer) => {
      said += chunk.toString();
      if (said.includes("MCP Streamable HTTP Server listening on port")) resolve();
    });
    child.once("exit", (code) => reject(new Error(`server-everything exited (${code}) before listening: ${said}`)));
  });
}

describe("server-everything", () => {
  const h = registryHarness();
  let http: ChildProcess;
  let url: string;

  before(async () => {
    const port = await freePort();
    url = `http://127.0.0.1:${port}/mcp`;
    http = spawnInGroup(process.execPath, [EVERYTHING, "streamableHttp"], {
      env: { PATH: process.env.PATH ?? "", PORT: String(port) },
      stdio: ["ignore", "ignore", "pipe"],
    });
    h.tracker.ignore(http.pid!);
    await listening(http);
  });
  after(() => endTree(http, { first: "SIGTERM" }));

  it("serves its tools, results and resources over stdio next to a 2025-era fixture", async () => {
    const registry = h.make([everythingStdio("everything"), legacyStdio("fx", { tools: ["echo", "count"] })]);
    const names = (await registry.listTools()).map((t) => t.name);
    assert.deepEqual(names, [...EVERYTHING_OFFER.tools.map((t) => (t === "echo" ? "everything__echo" : t)), "fx__echo", "count"]);
    assert.equal(toText(await registry.callTool("everything__echo", { message: "hi" })), "Echo: hi");
    assert.equal(toText(await registry.callTool("get-sum", { a: 2, b: 3 })), "The sum of 2 and 3 is 5.");
    assert.equal(toText(await registry.callTool("fx.echo", { text: "fixture" })), "fixture");
    const env = JSON.parse(toText(await registry.callTool("get-env"))) as Record<string, string>;
    assert.deepEqual(env, minimalEnv()); // nothing of the parent's own environment
  });

  it("serves its tools, resources and prompts over Streamable HTTP", async () => {
    const registry = h.make([ServerSpec.http("everything", url)]);
    await registry.connect();
    assert.deepEqual(registry.unavailable, []);
    assert.equal(registry.status()[0]!.era, "legacy");
    assert.deepEqual(
      (await registry.listTools()).map((t) => t.name),
      EVERYTHING_OFFER.tools,
    );
    assert.equal(toText(await registry.callTool("echo", { message: "over http" })), "Echo: over http");
    assert.match(
      toText(await registry.callTool("get-tiny-image")),
      /^Here's the image you requested:\n\[image: image\/png, \d+ bytes\]\nThe image above is the MCP logo\.$/,
    );
    assert.deepEqual(await registry.callTool("get-structured-content", { location: "New York" }), {
      content: [{ type: "text", text: '{"temperature":33,"conditions":"Cloudy","humidity":82}' }],
      structuredContent: { temperature: 33, conditions: "Cloudy", humidity: 82 },
    });
    const resources = await registry.listResources();
    assert.deepEqual(
      resources.map((r) => r.uri),
      EVERYTHING_OFFER.documents.map((d) => `demo://resource/static/document/${d}`),
    );
    assert.equal(toText(await registry.readResource(resources[0]!.uri)), readFileSync(join(EVERYTHING_DOCS, "architecture.md"), "utf8"));
    assert.deepEqual(
      (await registry.listPrompts()).map((p) => p.name),
      EVERYTHING_OFFER.prompts,
    );
    assert.equal(toText(await registry.getPrompt("args-prompt", { city: "Paris" })), "What's weather in Paris?");
  });
});
