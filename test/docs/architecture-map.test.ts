// docs/architecture.md maps every file in src/ by its whole path: a new file without a line there fails this test,
// and so does a line naming a file that does not exist. A name is read where it stands — a section about
// `src/host/` names its files relative to that folder, a row about a folder (`connect/`) or a `folder/` written in a
// row names the files after it inside that folder — so a file is mapped only by a line about its own folder, never by
// a file of the same name elsewhere.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const SRC = fileURLToPath(new URL("../../src/", import.meta.url));
const doc = readFileSync(new URL("../../docs/architecture.md", import.meta.url), "utf8");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith(".ts") ? [relative(SRC, path).split("\\").join("/")] : [];
  });
}

/** One `….ts` name as the page writes it, and the whole paths (under src/) it may stand for, most specific first. */
interface Mention {
  written: string;
  line: number;
  candidates: string[];
}

/** The folder a section is about: the first `src/…/` its heading names, else the first one its text names. */
function sectionFolder(heading: string, body: string): string {
  const named = /`src\/((?:[\w-]+\/)*)`/.exec(heading) ?? /`src\/((?:[\w-]+\/)+)`/.exec(body);
  return named?.[1] ?? "";
}

/** Every `….ts` name of the page before its Tests section, read in its section, row and folder. */
export function mentionsOf(page: string): Mention[] {
  const mentions: Mention[] = [];
  const before = page.slice(0, page.indexOf("\n## Tests"));
  const sections = before.split(/\n(?=## )/);
  let lineAt = 1;
  for (const section of sections) {
    const [heading = "", ...rest] = section.split("\n");
    const folder = sectionFolder(heading, rest.join("\n"));
    for (const [index, row] of section.split("\n").entries()) {
      let prefix = "";
      for (const match of row.matchAll(/`([^`\s]+)`/g)) {
        const token = match[1]!;
        if (/^(?:[\w-]+\/)+$/.test(token)) {
          // A folder named in a row: the files written after it are inside it (`connect/` … `era.ts`).
          prefix = token.startsWith("src/") ? token.slice(4) : folder + token;
          continue;
        }
        // Paths of other trees (test/, bench/, scripts/) are not files of src/.
        if (!/^(?:[\w-]+\/)*[\w.-]+\.ts$/.test(token) || /^(test|bench|scripts|plugins|examples)\//.test(token)) continue;
        const bare = token.replace(/^src\//, "");
        // A plain name is read only in its section's folder (or the row's); a path with folders may be written from src/.
        const candidates = token.startsWith("src/")
          ? [bare]
          : [...new Set([...(prefix === "" ? [] : [`${prefix}${token}`]), `${folder}${token}`, ...(token.includes("/") ? [bare] : [])])];
        mentions.push({ written: token, line: lineAt + index, candidates });
      }
    }
    lineAt += section.split("\n").length;
  }
  return mentions;
}

describe("docs/architecture.md", () => {
  const files = new Set(sourceFiles(SRC));
  const mentions = mentionsOf(doc);

  it("names every file in src/ by its whole path (a name is read in its section, row and folder)", () => {
    const mapped = new Set(mentions.flatMap((m) => m.candidates.filter((c) => files.has(c)).slice(0, 1)));
    assert.deepEqual(
      [...files].filter((f) => !mapped.has(f)),
      [],
    );
  });

  it("names no src/ file that does not exist where it is named", () => {
    assert.deepEqual(
      mentions.filter((m) => !m.candidates.some((c) => files.has(c))).map((m) => `line ${m.line}: \`${m.written}\` (read as ${m.candidates.join(" or ")})`),
      [],
    );
  });

  it("reads a name in its own folder, not wherever a file of that name lives", () => {
    const page =
      "## The host (`src/host/`)\n\n| `build/gather.ts` | … |\n| `compare.ts` | … |\n\n## The registry (`src/registry/`)\n\n| `connect/` | `era.ts`, `compare.ts` |\n";
    assert.deepEqual(
      mentionsOf(page).map((m) => m.candidates[0]),
      ["host/build/gather.ts", "host/compare.ts", "registry/connect/era.ts", "registry/connect/compare.ts"],
    );
  });
});
