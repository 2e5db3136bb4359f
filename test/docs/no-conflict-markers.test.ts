// A merge that commits its conflict markers leaves both sides of a table or a sentence in the docs, and nothing else
// notices: Biome reads only code, and Markdown renders the markers as text. Every tracked text file is scanned.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { it } from "node:test";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const MARKER = /^(<{7} |={7}$|>{7} )/m;
const TEXT = /\.(md|ts|mts|mjs|js|json|ya?ml|sh)$|(^|\/)\.ci\/run$/;

it("no tracked file holds a merge's conflict markers", () => {
  const files = execFileSync("git", ["ls-files"], { cwd: ROOT, encoding: "utf8" })
    .split("\n")
    .filter((file) => TEXT.test(file) && !file.endsWith("package-lock.json"));
  assert.ok(files.length > 100, `git ls-files listed ${files.length} files`);
  const marked = files.filter((file) => {
    try {
      return MARKER.test(readFileSync(join(ROOT, file), "utf8"));
    } catch {
      return false; // listed but deleted in the work tree
    }
  });
  assert.deepEqual(marked, []);
});
