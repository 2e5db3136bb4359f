// Skills are read, checked and digested once, when their extension is loaded (docs/skills.md): a package's relative
// paths are its own, a `*` pattern finds every skill folder, and a bad skill — a refused name, no SKILL.md, a
// symlink, more than the SEP's 512 files, a relative path no package resolves — is left out alone with a
// SKILL_INVALID error naming the extension and the file, while the extension and its other skills serve.
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { SkillsClient } from "@modelcontextprotocol/client/ext/skills";
import { buildHost } from "../../src/host/build-host.js";
import { loadExtensions } from "../../src/host/loading/load-extensions.js";
import type { McpExtension } from "../../src/extension/types.js";
import { memoryLogger } from "../../src/logger.js";
import { connectInProcess } from "../helpers/in-process.js";
import { logsWithCode, startedHost } from "../helpers/kit.js";

const FIXTURES = fileURLToPath(new URL("../fixtures/skills/", import.meta.url));
const PROJECT = fileURLToPath(new URL("../fixtures/packages/skills/", import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), "mcp-host-skills-"));
after(() => rmSync(scratch, { recursive: true, force: true }));

async function listedUris(extension: McpExtension, query: string): Promise<string[]> {
  const { host } = await startedHost([extension]);
  try {
    const { client, close } = await connectInProcess(host, query, { era: "modern" });
    const uris = (await new SkillsClient(client).list()).skills.map((s) => s.uri);
    await close();
    return uris;
  } finally {
    await host.stop();
  }
}

function skillFolder(parent: string, name: string, files: Record<string, string> = {}): string {
  const folder = join(parent, name);
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, "SKILL.md"), `---\nname: ${name}\ndescription: A skill made by the test.\n---\nBody.\n`);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(folder, path, ".."), { recursive: true });
    writeFileSync(join(folder, path), text);
  }
  return folder;
}

describe("skills at load", () => {
  it("reads a discovered package's relative paths and patterns from the package, wherever it is installed", async () => {
    const { logger } = memoryLogger();
    const loaded = await loadExtensions({ cwd: PROJECT, logger });
    assert.deepEqual(loaded.failures, []);
    const host = buildHost(loaded, { name: "skills", logger });
    await host.start();
    try {
      const { client, close } = await connectInProcess(host, "only=spaces,admin", { era: "legacy" });
      const listed = await new SkillsClient(client).list();
      assert.deepEqual(
        listed.skills.map((s) => s.uri),
        ["skill://read-spaces/SKILL.md", "skill://space-search/SKILL.md", "skill://triage/SKILL.md"],
      );
      await close();
    } finally {
      await host.stop();
    }
  });

  it("leaves out a skill whose name breaks the Agent Skills rules, alone, with SKILL_INVALID naming the extension and the file", async () => {
    const { host, records } = await startedHost([
      {
        name: "mixed",
        toolsets: [{ name: "mixed" }],
        skills: [{ path: join(FIXTURES, "bad-name") }, { path: join(FIXTURES, "triage") }],
      },
    ]);
    try {
      const [problem] = logsWithCode(records, "SKILL_INVALID");
      assert.equal(
        problem?.message,
        `extension "mixed": skill ${join(FIXTURES, "bad-name", "SKILL.md")}: frontmatter name "Bad_Name" must be 1-64 lowercase letters, digits and single hyphens; ` +
          "follow the Agent Skills rules: frontmatter with name (1-64 lowercase letters, digits, single hyphens; the folder's name) and description. The skill is left out.",
      );
      assert.equal(problem?.data?.extension, "mixed");
      assert.equal(host.extensionStatuses()[0]?.status, "ready");
      const { client, close } = await connectInProcess(host, "", { era: "modern" });
      assert.deepEqual(
        (await new SkillsClient(client).list()).skills.map((s) => s.uri),
        ["skill://triage/SKILL.md"],
      );
      await close();
    } finally {
      await host.stop();
    }
  });

  it("finds every folder holding a SKILL.md under a * pattern, in name order, and names a pattern that matches none", async () => {
    const uris = await listedUris(
      { name: "found", toolsets: [{ name: "found" }], skills: [{ path: new URL("../fixtures/skills/*-s*", import.meta.url) }] },
      "",
    );
    assert.deepEqual(uris, ["skill://read-spaces/SKILL.md", "skill://space-search/SKILL.md"]);
    const { host, records } = await startedHost([{ name: "none", toolsets: [{ name: "none" }], skills: [{ path: join(FIXTURES, "zz-*") }] }]);
    await host.stop();
    assert.match(logsWithCode(records, "SKILL_INVALID")[0]?.message ?? "", /zz-\*: matches no folder holding a SKILL\.md/);
  });

  it("refuses a folder without SKILL.md, a symlink inside a skill, and a relative path no package resolves", async () => {
    const noManifest = join(FIXTURES, "no-manifest");
    const linked = skillFolder(scratch, "linked");
    symlinkSync(join(FIXTURES, "triage", "SKILL.md"), join(linked, "other.md"));
    const { host, records } = await startedHost([
      { name: "broken", toolsets: [{ name: "broken" }], skills: [{ path: noManifest }, { path: linked }, { path: "./skills/search" }] },
    ]);
    await host.stop();
    assert.deepEqual(
      logsWithCode(records, "SKILL_INVALID").map((r) => r.message),
      [
        `extension "broken": skill ${join(noManifest, "SKILL.md")}: is missing; a skill is a folder holding a SKILL.md (its name and description in YAML frontmatter). The skill is left out.`,
        `extension "broken": skill ${join(linked, "other.md")}: is a symlink or a special file, which a skill may not hold; copy the file into the folder instead. The skill is left out.`,
        `extension "broken": skill ./skills/search: is relative, and this extension was not loaded from a package to resolve it against; give an absolute path or a file: URL, e.g. path: new URL("../skills/search", import.meta.url). The skill is left out.`,
      ],
    );
  });

  it("refuses a skill of more than 512 files before reading their bytes (SEP-2640's limit)", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 512; i += 1) files[`parts/part-${String(i).padStart(3, "0")}.txt`] = "x";
    const big = skillFolder(scratch, "too-many", files);
    const { host, records } = await startedHost([{ name: "big", toolsets: [{ name: "big" }], skills: [{ path: big }] }]);
    await host.stop();
    assert.equal(
      logsWithCode(records, "SKILL_INVALID")[0]?.message,
      `extension "big": skill ${big}: holds more than 512 files or 16 MiB, the most a host must accept of a skill (SEP-2640); split it into smaller skills, or move large files out. The skill is left out.`,
    );
    const fits = skillFolder(scratch, "just-fits", Object.fromEntries(Object.entries(files).slice(0, 511)));
    assert.deepEqual(await listedUris({ name: "fits", toolsets: [{ name: "fits" }], skills: [{ path: fits }] }, ""), ["skill://just-fits/SKILL.md"]);
  });
});
