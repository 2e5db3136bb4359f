// A third-party-style plugin package ships Agent Skills beside its tools (issue 25, docs/skills.md): packed with
// `npm pack` and installed from the tarball — with mcp-host's own tarball — into a folder outside this repository,
// its relative skill paths resolve in the installed package, and the installed command serves its skill to a real
// SDK v2 client at /mcp?only=<its toolset>, every file verified against its digest, and not at another toolset's URL.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SkillsClient } from "@modelcontextprotocol/client/ext/skills";
import { npm, packInto } from "../helpers/npm-run.js";
import { REPO, assertBuilt, CliProcess } from "../helpers/cli-process.js";
import { Cleanup, connectV2 } from "../helpers/http-host.js";

const cleanup = new Cleanup();
const PLUGIN = join(REPO, "test", "fixtures", "packages", "skills", "node_modules", "fixture-spaces-skills");
let work = "";
let project = "";

/** Packs the package in `dir` into `work`; returns the tarball's path. */
function pack(dir: string): string {
  return packInto(work, dir);
}

before(() => {
  assertBuilt();
  work = mkdtempSync(join(tmpdir(), "mcp-host-skill-plugin-"));
  const host = pack(REPO);
  // The plugin as its author would publish it: its own folder, nothing of this repository around it.
  const source = join(work, "plugin-source");
  cpSync(PLUGIN, source, { recursive: true });
  const plugin = pack(source);
  project = join(work, "deployment");
  mkdirSync(project);
  writeFileSync(
    join(project, "package.json"),
    JSON.stringify({
      name: "skills-deployment",
      version: "1.0.0",
      private: true,
      type: "module",
      dependencies: { "mcp-host": `file:${host}`, "fixture-spaces-skills": `file:${plugin}` },
    }),
  );
  const installed = npm(["install", "--prefer-offline", "--no-audit", "--no-fund"], project);
  assert.equal(installed.status, 0, installed.output);
});

after(async () => {
  await cleanup.run();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe("a plugin package with skills, installed from its tarball outside this repository", { timeout: 240_000 }, () => {
  it("serves its skill at its toolset's URL to a real SDK v2 client, and not at another toolset's", async () => {
    const cli = new CliProcess(["serve", "--port", "0"], { cwd: project, cli: join(project, "node_modules", "mcp-host", "dist", "cli", "main.js") });
    cleanup.add(() => cli.stop("SIGTERM"));
    const first = await cli.line(/^mcp-host is serving /);
    const url = /(http:\/\/127\.0\.0\.1:\d+\/mcp)$/.exec(first)?.[1];
    assert.ok(url, first);
    assert.doesNotMatch(cli.stderr, /SKILL_INVALID/);
    for (const era of ["modern", "legacy"] as const) {
      const { client } = await connectV2(cleanup, new URL(`${url}?only=spaces`), era);
      const skills = new SkillsClient(client);
      const { skills: entries } = await skills.list();
      assert.deepEqual(
        entries.map((e) => e.uri),
        ["skill://read-spaces/SKILL.md", "skill://space-search/SKILL.md"],
      );
      const search = entries[1]!;
      const manifest = await skills.read(search);
      assert.equal(manifest.frontmatter?.name, "space-search");
      for (const file of search.resources === "dynamic" ? [] : search.resources) assert.equal((await skills.read(search, file.uri)).verified, true);

      const admin = await connectV2(cleanup, new URL(`${url}?only=admin`), era);
      const listed = await new SkillsClient(admin.client).list();
      const uris: string[] = listed.skills.map((e) => e.uri);
      assert.deepEqual(uris, ["skill://triage/SKILL.md"]);
      assert.ok(!uris.includes(search.uri), "the spaces skill is absent where spaces is not selected");
    }
  });
});
