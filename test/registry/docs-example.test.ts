// docs/registry.md's complete example really runs: the fenced block after the "example" marker is written out (with
// `mcp-host` pointing at the sources) and executed as a program, and afterwards nothing it started — npx, the shell
// it uses, the server — is left alive.
import assert from "node:assert/strict";
import { endTree, spawnInGroup } from "../helpers/child-group.js";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, it } from "node:test";
import { stateDir } from "../helpers/registry/harness.js";
import { processTable, untilProcesses } from "../helpers/processes.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

function extractExample(): string {
  const doc = readFileSync(join(ROOT, "docs/registry.md"), "utf8");
  const marker = doc.indexOf("<!-- example: run by test/registry/docs-example.test.ts -->");
  assert.ok(marker >= 0, "the example marker is in docs/registry.md");
  const match = /```ts\n([\s\S]*?)```/.exec(doc.slice(marker));
  assert.ok(match, "a ts code block follows the marker");
  return match[1]!;
}

describe("docs/registry.md example", () => {
  it("runs to completion and leaves no process behind", async (t) => {
    const source = extractExample().replace('from "mcp-host/registry"', `from ${JSON.stringify(join(ROOT, "src/registry/index.ts"))}`);
    const file = join(stateDir(), "agent.mts");
    writeFileSync(file, source);
    const child = spawnInGroup(process.execPath, ["--import", "tsx", file], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    // If the test ends first (a failure, a timeout), the example and every server it started go with it.
    t.after(() => endTree(child));
    let out = "";
    let err = "";
    child.stdout.on("data", (c: Buffer) => (out += c.toString()));
    child.stderr.on("data", (c: Buffer) => (err += c.toString()));
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    assert.equal(code, 0, `stdout:\n${out}\nstderr:\n${err}`);
    assert.equal(err, "", "nothing on stderr: no server was unavailable, nothing was logged at warn");
    // Exactly what the example prints: its comments say what each line should be.
    assert.equal(
      out,
      [
        "14 tools, e.g. echo, get-annotated-message, get-env",
        "The sum of 2 and 3 is 5.",
        "Here's the image you requested:",
        "[image: image/png, 4033 bytes]",
        "The image above is the MCP logo.",
        'true no server offers a tool named "no-such-tool"',
        "demo://resource/static/document/architecture.md → # Everything Server – Architecture",
        "",
        "**Ar",
        "What's weather in Lisbon?",
        "",
      ].join("\n"),
    );
    await untilProcesses(
      () =>
        !processTable().some(
          (p) => p.cmd.includes(".bin/mcp-server-everything") || p.cmd.includes("npx --no-install mcp-server-everything") || p.cmd.includes(file),
        ),
      "the example's processes to be gone",
    );
  });
});
