/**
 * The skills one build serves, compiled once with the build (docs/skills.md, docs/design.md §7): the entries in URI
 * order as `skills/list` pages them, each skill and file by URI, every directory's children, the `SKILL.md`s
 * `resources/list` shows. A skill name two active toolsets serve is qualified as a tool name is: its URIs move under
 * `skill://<toolset>/…` for each, so both are listed and neither hides the other. Nothing here runs per request.
 */
import { DIRECTORY_MIME_TYPE, type DirectoryResource, type Skill } from "@modelcontextprotocol/core/ext/skills";
import type { Resource } from "@modelcontextprotocol/server";
import type { ServedSkill } from "../extension/types.js";
import { compareNames } from "../compare.js";
import { mimeTypeOf } from "./skill-files.js";
import { paged, type Paged } from "./skill-paging.js";
import { skillRootOf } from "./served-entry.js";

/** A skill placed in a build: what serves it, and the toolset and extension it belongs to. */
export interface PlacedSkill {
  skill: ServedSkill;
  toolset: string;
  extension: string;
}

/** One file of a served skill: where it is read from (the URI its own entry lists), and what it must match. */
export interface SkillFile {
  readonly owner: PlacedSkill;
  /** The URI the skill's own entry lists (differs from the served one when the skill is qualified). */
  readonly source: string;
  readonly size: number;
  readonly digest: string;
  readonly mimeType: string;
}

export interface SkillTable {
  readonly size: number;
  /** Entries as `skills/list` sends them, in URI order. */
  readonly listing: Paged<Skill>;
  readonly skillByUri: ReadonlyMap<string, Skill>;
  readonly fileByUri: ReadonlyMap<string, SkillFile>;
  /** A directory's direct children, in URI order, by the directory's URI (a skill's folder included). */
  readonly directories: ReadonlyMap<string, Paged<DirectoryResource>>;
  /** Each skill's `SKILL.md` as `resources/list` shows it. */
  readonly resources: readonly Resource[];
}

export const EMPTY_SKILLS: SkillTable = Object.freeze({
  size: 0,
  listing: paged<Skill>([], (s) => s.uri),
  skillByUri: new Map(),
  fileByUri: new Map(),
  directories: new Map(),
  resources: Object.freeze([]),
});

/** A URI under `skill://<toolset>/`: the part after the original scheme kept. */
function qualified(uri: string, toolset: string): string {
  const rest = uri.slice(uri.indexOf("://") + 3);
  return `skill://${encodeURIComponent(toolset)}/${rest}`;
}

function nameOf(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Adds a skill's folders and files to `children`, by directory URI. */
function addDirectories(root: string, files: readonly { uri: string; size: number }[], children: Map<string, Map<string, DirectoryResource>>): void {
  const childrenOf = (dir: string) => {
    const known = children.get(dir);
    if (known !== undefined) return known;
    const map = new Map<string, DirectoryResource>();
    children.set(dir, map);
    return map;
  };
  childrenOf(root);
  for (const file of files) {
    const segments = file.uri.slice(root.length + 1).split("/");
    let dir = root;
    segments.forEach((segment, index) => {
      const uri = `${dir}/${segment}`;
      const last = index === segments.length - 1;
      childrenOf(dir).set(
        uri,
        last
          ? { uri, name: nameOf(segment), mimeType: mimeTypeOf(nameOf(segment)), size: file.size }
          : { uri, name: nameOf(segment), mimeType: DIRECTORY_MIME_TYPE },
      );
      dir = uri;
    });
  }
}

/**
 * @example
 * const table = compileSkillTable([{ skill, toolset: "spaces", extension: "spaces" }]);
 * table.skillByUri.get("skill://space-search/SKILL.md")
 */
export function compileSkillTable(placed: readonly PlacedSkill[]): SkillTable {
  if (placed.length === 0) return EMPTY_SKILLS;
  const count = new Map<string, number>();
  for (const p of placed) count.set(p.skill.entry.frontmatter.name, (count.get(p.skill.entry.frontmatter.name) ?? 0) + 1);
  const entries: Skill[] = [];
  const fileByUri = new Map<string, SkillFile>();
  const children = new Map<string, Map<string, DirectoryResource>>();
  const resources: Resource[] = [];
  for (const p of placed) {
    const own = p.skill.entry;
    const clash = (count.get(own.frontmatter.name) ?? 0) > 1;
    const uriOf = (uri: string) => (clash ? qualified(uri, p.toolset) : uri);
    const listed = own.resources === "dynamic" ? [] : own.resources;
    const files = listed.map((file) => ({ ...file, uri: uriOf(file.uri) }));
    const entry: Skill = { ...own, uri: uriOf(own.uri), resources: files };
    entries.push(entry);
    listed.forEach((file, index) => {
      fileByUri.set(files[index]!.uri, { owner: p, source: file.uri, size: file.size, digest: file.digest, mimeType: mimeTypeOf(file.uri) });
    });
    const root = skillRootOf(entry.uri)!;
    addDirectories(root, files, children);
    const manifest = files.find((file) => file.uri === entry.uri);
    resources.push({
      uri: entry.uri,
      name: own.frontmatter.name,
      description: own.frontmatter.description,
      mimeType: "text/markdown",
      ...(manifest === undefined ? {} : { size: manifest.size }),
    });
  }
  entries.sort((a, b) => compareNames(a.uri, b.uri));
  resources.sort((a, b) => compareNames(a.uri, b.uri));
  const directories = new Map<string, Paged<DirectoryResource>>();
  for (const [dir, map] of children) {
    const sorted = [...map.values()].sort((a, b) => compareNames(a.uri, b.uri));
    directories.set(
      dir,
      paged(sorted, (child) => child.uri),
    );
  }
  return Object.freeze({
    size: entries.length,
    listing: paged(entries, (entry) => entry.uri),
    skillByUri: new Map(entries.map((entry) => [entry.uri, entry])),
    fileByUri,
    directories,
    resources,
  });
}
