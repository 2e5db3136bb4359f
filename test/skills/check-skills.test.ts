// `mcp-host check` reports skill problems (docs/skills.md): a project whose extension ships a skill that breaks the
// Agent Skills rules gets a SKILL_INVALID problem naming the extension and the file, and a non-zero exit; the same
// project with the skill fixed checks clean.
import { afterEach, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { assertBuilt, runCli } from "../helpers/cli-process.js";
import { Cleanup } from "../helpers/http-host.js";

const cleanup = new Cleanup();
afterEach(() => cleanup.run());
before(() => assertBuilt());

function project(manifest: string): string {
  const dir = mkdtempSync(join(tmpdir(), "mcp-host-check-skills-"));
  cleanup.add(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "check-skills", version: "1.0.0", type: "module", mcpExtensions: "./ext.js" }));
  writeFileSync(join(dir, "ext.js"), 'export default { name: "checked", toolsets: [{ name: "checked" }], skills: [{ path: "./skills/lookup" }] };\n');
  mkdirSync(join(dir, "skills", "lookup"), { recursive: true });
  writeFileSync(join(dir, "skills", "lookup", "SKILL.md"), manifest);
  return dir;
}

describe("mcp-host check and skills", { timeout: 60_000 }, () => {
  it("reports a skill left out, naming the extension and the file, and exits 1; a good skill checks clean", async () => {
    const dir = project("---\nname: Look_Up\ndescription: A name the rules refuse.\n---\n");
    const bad = await runCli(cleanup, ["check", "--cwd", dir, "--json"]);
    assert.equal(bad.code, 1, bad.stderr);
    const report = JSON.parse(bad.stdout) as { ok: boolean; problems: Array<{ code: string; message: string }> };
    assert.equal(report.ok, false);
    assert.deepEqual(
      report.problems.map((p) => p.code),
      ["SKILL_INVALID"],
    );
    assert.match(report.problems[0]!.message, /^extension "checked": skill .*lookup\/SKILL\.md: frontmatter name "Look_Up" must be 1-64 lowercase letters/);

    const good = await runCli(cleanup, ["check", "--cwd", project("---\nname: lookup\ndescription: Look it up.\n---\n")]);
    assert.equal(good.code, 0, good.stdout + good.stderr);
    assert.match(good.stdout, /^check: ok$/m);
  });
});
