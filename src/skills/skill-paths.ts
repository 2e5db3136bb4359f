/**
 * Where a `SkillSpec` points (docs/skills.md): a folder, or a pattern whose last segment holds `*` — every folder
 * there that holds a `SKILL.md`, in name order so the result never depends on the filesystem. A relative path is
 * the package's, which loading resolves; one still relative here came from an extension object no package holds.
 */
import { existsSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { basename, dirname, isAbsolute, join } from "node:path";
import { fileURLToPath } from "node:url";
import { compareNames } from "../compare.js";
import { SkillFolderProblem } from "./load-skill-folder.js";

/**
 * The absolute path a spec's `path` names, or a problem for a relative one.
 * @example
 * pathOfSpec(new URL("file:///srv/skills/search")) // "/srv/skills/search"
 */
export function pathOfSpec(path: string | URL): string {
  if (path instanceof URL || path.startsWith("file:")) return fileURLToPath(path);
  if (isAbsolute(path)) return path;
  throw new SkillFolderProblem(
    path,
    "is relative, and this extension was not loaded from a package to resolve it against",
    'give an absolute path or a file: URL, e.g. path: new URL("../skills/search", import.meta.url)',
  );
}

function wildcard(pattern: string): RegExp {
  const escaped = pattern.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*");
  return new RegExp(`^${escaped}$`);
}

/**
 * The skill folders a spec's `path` stands for, sorted; a pattern that matches none is a problem.
 * @example
 * await skillFolders("/srv/pkg/skills/*") // ["/srv/pkg/skills/search", "/srv/pkg/skills/triage"]
 */
export async function skillFolders(path: string | URL): Promise<string[]> {
  const absolute = pathOfSpec(path);
  const last = basename(absolute);
  const parent = dirname(absolute);
  if (parent.includes("*")) throw new SkillFolderProblem(absolute, "has a * before its last segment", 'put the * in the last segment only, e.g. "./skills/*"');
  if (!last.includes("*")) return [absolute];
  const match = wildcard(last);
  let names: string[];
  try {
    names = (await readdir(parent, { withFileTypes: true })).filter((e) => e.isDirectory() && match.test(e.name) && !e.name.startsWith(".")).map((e) => e.name);
  } catch (error) {
    throw new SkillFolderProblem(parent, `cannot be read: ${(error as Error).message}`, "check the path of the skills pattern");
  }
  const folders = names
    .sort(compareNames)
    .map((name) => join(parent, name))
    .filter((folder) => existsSync(join(folder, "SKILL.md")));
  if (folders.length === 0) throw new SkillFolderProblem(absolute, "matches no folder holding a SKILL.md", "check the pattern, or add the skill folders");
  return folders;
}
