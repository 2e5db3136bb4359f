// docs/serving.md's curl examples of each protocol era run against a real server and get the answers the page
// implies: the 2026-07-28 request lists tools without a session; the 2025 initialize opens one, whose id then
// lists tools on it.
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { readFileSync } from "node:fs";
import type { McpExtension } from "../../src/extension/types.js";
import { Cleanup, serveHost } from "../helpers/http-host.js";

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

const doc = readFileSync(new URL("../../docs/serving.md", import.meta.url), "utf8");

/** The shell lines of the fenced block after `<!-- curl: name -->`, with continuations joined. */
function curlBlock(name: string): string[] {
  const at = doc.indexOf(`<!-- curl: ${name} -->`);
  assert.notEqual(at, -1, `the ${name} example is in docs/serving.md`);
  const block = /```sh\n([\s\S]*?)```/.exec(doc.slice(at))![1]!;
  return block
    .replace(/\\\n\s*/g, " ")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line.startsWith("curl "));
}

/** Runs a documented command against `url` (asynchronously: the server answering it runs in this process). */
async function run(command: string, url: URL): Promise<string> {
  const line = command.replaceAll("http://127.0.0.1:3000/mcp", url.href);
  return (await promisify(execFile)("sh", ["-c", line], { encoding: "utf8" })).stdout;
}

const time: McpExtension = { name: "time", tools: [{ name: "now", handler: () => ({ content: [{ type: "text", text: "now" }] }) }] };

describe("docs/serving.md: choosing a protocol era by hand", { timeout: 30_000 }, () => {
  it("lists tools with the 2026-07-28 request, without a session", async () => {
    const { url } = await serveHost(cleanup, [time]);
    const [command] = curlBlock("modern");
    const answer = JSON.parse(await run(command!, url)) as { result: { tools: Array<{ name: string }> } };
    assert.deepEqual(
      answer.result.tools.map((t) => t.name),
      ["list_server_toolsets", "now"],
    );
  });

  it("opens a 2025 session with initialize and lists tools on it", async () => {
    const { url } = await serveHost(cleanup, [time]);
    const [initialize, list] = curlBlock("legacy");
    const opened = await run(initialize!, url);
    const session = /^mcp-session-id: (\S+)/im.exec(opened)?.[1];
    assert.ok(session, opened);
    const listed = await run(list!.replace("SESSION", session), url);
    const data = listed.split("\n").find((l) => l.startsWith("data: ")) ?? listed;
    const answer = JSON.parse(data.replace(/^data: /, "")) as { result: { tools: Array<{ name: string }> } };
    assert.deepEqual(
      answer.result.tools.map((t) => t.name),
      ["list_server_toolsets", "now"],
    );
  });
});
