/**
 * Reading one skill folder, once, when its extension is loaded (docs/skills.md): every file under it (dot files
 * skipped, a symlink refused), within the SEP's limits (512 files, 16 MiB — checked on the sizes before a byte is
 * read), then the SDK's `skillEntry` — the frontmatter, the Agent Skills naming rules, a digest and size per file —
 * and each file's wire form. A problem is thrown as a `SkillFolderProblem` naming the file it is about.
 */
import { lstat } from "node:fs/promises";
import { basename, join } from "node:path";
import type { Skill } from "@modelcontextprotocol/server/ext/skills";
import { SKILL_LIMITS, SkillCatalogError, skillEntry } from "@modelcontextprotocol/server/ext/skills";
import { nodeSkillFiles } from "@modelcontextprotocol/server/ext/skills/node";
import type { SkillFileContent } from "../extension/types.js";
import { contentOf, mimeTypeOf } from "./skill-files.js";

/** A skill read from its folder: its entry and every file's wire form, by the URI the entry lists. */
export interface LoadedSkill {
  readonly folder: string;
  readonly entry: Skill;
  readonly files: ReadonlyMap<string, SkillFileContent>;
}

/** What is wrong with a skill folder: the file (or folder) it is about, what, and how to fix it. */
export class SkillFolderProblem extends Error {
  constructor(
    readonly file: string,
    readonly problem: string,
    readonly fix: string,
  ) {
    super(`${file}: ${problem}`);
  }
}

interface Found {
  path: string;
  size: number;
}

const MIB = 1024 * 1024;

/** Every regular file under the folder (relative, `/`-separated, sorted), its size read before its bytes. */
async function filesUnder(folder: string): Promise<Found[]> {
  const storage = nodeSkillFiles(folder);
  const found: Found[] = [];
  let bytes = 0;
  const visit = async (dir: string): Promise<void> => {
    const entries = (await storage.list(dir)).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (entry.name.startsWith(".")) continue;
      const path = dir === "" ? entry.name : `${dir}/${entry.name}`;
      if (entry.kind === "unsupported")
        throw new SkillFolderProblem(join(folder, path), "is a symlink or a special file, which a skill may not hold", "copy the file into the folder instead");
      if (entry.kind === "directory") {
        await visit(path);
        continue;
      }
      const size = (await lstat(join(folder, path))).size;
      bytes += size;
      found.push({ path, size });
      if (found.length > SKILL_LIMITS.files || bytes > SKILL_LIMITS.bytes) {
        throw new SkillFolderProblem(
          folder,
          `holds more than ${SKILL_LIMITS.files} files or ${SKILL_LIMITS.bytes / MIB} MiB, the most a host must accept of a skill (SEP-2640)`,
          "split it into smaller skills, or move large files out",
        );
      }
    }
  };
  await visit("");
  return found;
}

/**
 * @example
 * const skill = await loadSkillFolder("/srv/node_modules/spaces/skills/space-search");
 * skill.entry.uri // "skill://space-search/SKILL.md"
 */
export async function loadSkillFolder(folder: string): Promise<LoadedSkill> {
  const name = basename(folder);
  let found: Found[];
  try {
    found = await filesUnder(folder);
  } catch (error) {
    if (error instanceof SkillFolderProblem) throw error;
    throw new SkillFolderProblem(folder, `cannot be read: ${(error as Error).message}`, "check that the folder exists and is readable");
  }
  if (!found.some((f) => f.path === "SKILL.md")) {
    throw new SkillFolderProblem(
      join(folder, "SKILL.md"),
      "is missing",
      "a skill is a folder holding a SKILL.md (its name and description in YAML frontmatter)",
    );
  }
  const storage = nodeSkillFiles(folder);
  const record: Record<string, Uint8Array> = {};
  for (const { path } of found) record[path] = await storage.read(path);
  let entry: Skill;
  try {
    entry = await skillEntry(name, record);
  } catch (error) {
    const detail = error instanceof SkillCatalogError ? error.problems.map((p) => p.message).join("; ") : (error as Error).message;
    throw new SkillFolderProblem(
      join(folder, "SKILL.md"),
      detail,
      "follow the Agent Skills rules: frontmatter with name (1-64 lowercase letters, digits, single hyphens; the folder's name) and description",
    );
  }
  // Keyed by the URIs the entry lists (the SDK encodes each path segment): each decodes back to its file's path.
  const files = new Map<string, SkillFileContent>();
  const base = entry.uri.slice(0, -"SKILL.md".length);
  for (const { uri } of entry.resources === "dynamic" ? [] : entry.resources) {
    const path = uri.slice(base.length).split("/").map(decodeURIComponent).join("/");
    files.set(uri, contentOf(record[path]!, mimeTypeOf(path)));
  }
  return { folder, entry, files };
}
