// docs/architecture.md maps every file in src/: a new file without a line there fails this test, and so does a
// line naming a file that no longer exists.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { basename, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const SRC = fileURLToPath(new URL("../../src/", import.meta.url));
const doc = readFileSync(new URL("../../docs/architecture.md", import.meta.url), "utf8");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith(".ts") ? [relative(SRC, path).split("\\").join("/")] : [];
  });
}

/** A file is mapped when the page names it by its path under its layer (`build/gather.ts`) or, inside its folder's own row or table, by its name. */
function mentioned(path: string): boolean {
  const parts = path.split("/");
  const candidates = [path, `src/${path}`, parts.slice(1).join("/"), basename(path)];
  return candidates.some((c) => c.length > 0 && doc.includes(`\`${c}\``));
}

describe("docs/architecture.md", () => {
  it("names every file in src/", () => {
    assert.deepEqual(
      sourceFiles(SRC).filter((f) => !mentioned(f)),
      [],
    );
  });

  it("names no src/ file that does not exist", () => {
    const files = new Set(sourceFiles(SRC).flatMap((f) => [f, f.split("/").slice(1).join("/"), basename(f)]));
    const beforeTests = doc.slice(0, doc.indexOf("## Tests"));
    const named = [...beforeTests.matchAll(/`((?:[\w-]+\/)*[\w-]+\.ts)`/g)].map((m) => m[1]!);
    assert.deepEqual(
      named.filter((n) => !files.has(n) && !files.has(n.replace(/^src\//, ""))),
      [],
    );
  });
});
