// `mcp-host dev` reloads a changed skill and tells clients (docs/skills.md): editing a SKILL.md in the project makes
// the real command read the skill again — a new entry, a new digest — and a listening client gets
// notifications/resources/list_changed; a skill broken by the edit is left out with SKILL_INVALID, the tools serve on.
import { afterEach, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SkillsClient } from "@modelcontextprotocol/client/ext/skills";
import { assertBuilt, startCli } from "../helpers/cli-process.js";
import { Cleanup, callText, connectV2, deferred } from "../helpers/http-host.js";

const cleanup = new Cleanup();
afterEach(() => cleanup.run());
before(() => assertBuilt());

const manifest = (description: string) => `---\nname: lookup\ndescription: ${description}\n---\nLook it up first.\n`;

function project(): string {
  const dir = mkdtempSync(join(tmpdir(), "mcp-host-dev-skills-"));
  cleanup.add(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "dev-skills", version: "1.0.0", type: "module", mcpExtensions: "./ext.js" }));
  writeFileSync(
    join(dir, "ext.js"),
    'export default { name: "devs", toolsets: [{ name: "devs" }], tools: [{ name: "ping", handler: () => ({ content: [{ type: "text", text: "pong" }] }) }], skills: [{ path: "./skills/lookup" }] };\n',
  );
  mkdirSync(join(dir, "skills", "lookup"), { recursive: true });
  writeFileSync(join(dir, "skills", "lookup", "SKILL.md"), manifest("The first version."));
  return dir;
}

describe("mcp-host dev and skills", { timeout: 60_000 }, () => {
  it("reads a changed SKILL.md again and tells the listening client; a broken one is left out, the tools serve", async () => {
    const dir = project();
    const cli = startCli(cleanup, ["dev", "--port", "0", "--cwd", dir]);
    const first = await cli.line(/^mcp-host dev is serving /);
    await cli.line(/^ {2}watching /);
    const url = /(http:\/\/127\.0\.0\.1:\d+\/mcp)$/.exec(first)![1]!;
    let told = deferred<void>();
    const { client } = await connectV2(cleanup, new URL(`${url}?only=devs`), "modern", {
      clientOptions: { listChanged: { resources: { debounceMs: 0, onChanged: () => told.resolve() } } },
    });
    const skills = new SkillsClient(client);
    const [before] = (await skills.list()).skills;
    assert.equal(before?.frontmatter.description, "The first version.");

    writeFileSync(join(dir, "skills", "lookup", "SKILL.md"), manifest("The second version."));
    await told.promise;
    const [after] = (await skills.list()).skills;
    assert.equal(after?.frontmatter.description, "The second version.");
    assert.notEqual(after?.resources, before?.resources);
    assert.equal((await skills.read(after!)).frontmatter?.description, "The second version.", "the new file is served, and matches its new digest");

    told = deferred<void>();
    writeFileSync(join(dir, "skills", "lookup", "SKILL.md"), "no frontmatter at all\n");
    await told.promise;
    await cli.stderrMatches(/SKILL_INVALID/);
    assert.deepEqual((await skills.list()).skills, []);
    assert.equal(await callText(client, "ping"), "pong");
  });
});
