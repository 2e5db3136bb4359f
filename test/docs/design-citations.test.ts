// The design lives in this repository (docs/design.md, issue 10 item 11): every citation of it — in code comments,
// error messages, tests, scripts and the docs — names a section that exists, and a link's anchor is that
// section's heading; nothing cites the DESIGN.md of the project's seed, which is not in the repository.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO } from "../helpers/cli-process.js";

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\w\- ]/g, "")
    .replace(/ /g, "-");
}

const design = readFileSync(join(REPO, "docs", "design.md"), "utf8");
const sections = new Map<string, string>();
for (const match of design.matchAll(/^## (\d+)\. (.*)$/gm)) sections.set(match[1]!, anchorOf(`${match[1]}. ${match[2]}`));

const tracked = execFileSync("git", ["ls-files", "src", "test", "docs", "scripts", "bench", "plugins", "examples", "README.md"], {
  cwd: REPO,
  encoding: "utf8",
})
  .split("\n")
  .filter((f) => /\.(ts|mts|mjs|js|md|json|yaml)$/.test(f) && !f.endsWith("package-lock.json"));

describe("citations of the design", () => {
  it("has its sections numbered 1 to 20", () => {
    assert.deepEqual(
      [...sections.keys()],
      Array.from({ length: 20 }, (_, i) => String(i + 1)),
    );
  });

  it("cites only docs/design.md, and only sections that exist, with the right anchors", () => {
    const problems: string[] = [];
    for (const file of tracked) {
      const text = readFileSync(join(REPO, file), "utf8");
      // The seed's name, as a citation (this file's own comments say why, and name it only in prose).
      if (file !== "test/docs/design-citations.test.ts" && /DESIGN(\.md)?\s*§/.test(text)) problems.push(`${file}: cites DESIGN.md`);
      // A link `[design.md §8](design.md#8-…)` first (its anchor is checked), else a plain `docs/design.md §8`.
      for (const match of text.matchAll(/design\.md §(\d+)\]\((?:docs\/)?design\.md#([\w-]+)\)|design\.md §(\d+)/g)) {
        const section = match[1] ?? match[3]!;
        const anchor = match[2];
        if (!sections.has(section)) problems.push(`${file}: §${section} is no section of docs/design.md`);
        else if (anchor !== undefined && anchor !== sections.get(section))
          problems.push(`${file}: §${section} links to #${anchor}, not #${sections.get(section)}`);
      }
    }
    assert.deepEqual(problems, []);
  });
});
