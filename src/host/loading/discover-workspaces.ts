/**
 * The folders an npm `workspaces` field names, for discovery (docs/design.md §5). npm accepts globs; discovery needs
 * only the simple ones deployments write (`plugins/*`, `packages/a`, `!plugins/old`), and says so plainly when a
 * pattern asks for more rather than silently finding nothing.
 */
import { existsSync } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import { join, resolve } from "node:path";

function globSegment(segment: string): RegExp {
  const body = segment
    .replace(/[.+^${}()|[\]\\]/g, "\\$&")
    .replace(/\*/g, "[^/]*")
    .replace(/\?/g, "[^/]");
  return new RegExp(`^${body}$`);
}

async function isDirectory(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isDirectory(),
    () => false,
  );
}

/** Expands one pattern into existing folders; `*` and `?` match within one path segment. */
async function expand(rootDir: string, segments: readonly string[]): Promise<string[]> {
  let dirs = [rootDir];
  for (const segment of segments) {
    const next: string[] = [];
    for (const dir of dirs) {
      if (!/[*?]/.test(segment)) {
        next.push(join(dir, segment));
        continue;
      }
      const matcher = globSegment(segment);
      const names = await readdir(dir).catch(() => [] as string[]);
      for (const name of names.sort()) {
        if (name === "node_modules" || (name.startsWith(".") && !segment.startsWith("."))) continue;
        if (matcher.test(name) && (await isDirectory(join(dir, name)))) next.push(join(dir, name));
      }
    }
    dirs = next;
  }
  return dirs;
}

function patternsOf(field: unknown): { patterns: unknown[]; problem?: string } {
  if (field === undefined) return { patterns: [] };
  if (Array.isArray(field)) return { patterns: field };
  if (typeof field === "object" && field !== null && Array.isArray((field as { packages?: unknown }).packages)) {
    return { patterns: (field as { packages: unknown[] }).packages };
  }
  return { patterns: [], problem: 'workspaces must be a list of folder patterns like ["plugins/*"] or { "packages": [...] }; fix the field.' };
}

/**
 * The workspace folders of a project, sorted, each once, with a message for every pattern it cannot follow.
 * @example
 * await workspaceDirs("/srv/app", ["plugins/*", "!plugins/old"]) // { dirs: ["/srv/app/plugins/clock"], problems: [] }
 */
export async function workspaceDirs(rootDir: string, field: unknown): Promise<{ dirs: string[]; problems: string[] }> {
  const { patterns, problem } = patternsOf(field);
  const problems = problem === undefined ? [] : [problem];
  const included = new Set<string>();
  const excluded = new Set<string>();
  for (const pattern of patterns) {
    if (typeof pattern !== "string" || pattern.replace(/^!/, "").trim().length === 0) {
      problems.push(`workspace pattern ${JSON.stringify(pattern)} is not a folder pattern; write a path like "plugins/*".`);
      continue;
    }
    const negated = pattern.startsWith("!");
    const segments = pattern
      .slice(negated ? 1 : 0)
      .split("/")
      .filter((s) => s !== "" && s !== ".");
    if (segments.some((s) => s.includes("**"))) {
      problems.push(
        `workspace pattern ${JSON.stringify(pattern)} uses "**", which discovery does not follow; list the folders, or use one "*" per level like "plugins/*".`,
      );
      continue;
    }
    const dirs = await expand(rootDir, segments);
    for (const dir of dirs) {
      if (negated) excluded.add(resolve(dir));
      else if (existsSync(join(dir, "package.json"))) included.add(resolve(dir));
      else if (!/[*?]/.test(pattern))
        problems.push(`workspace ${JSON.stringify(pattern)} has no package.json (looked in ${dir}); fix the pattern or add the package.`);
    }
  }
  return { dirs: [...included].filter((dir) => !excluded.has(dir)).sort(), problems };
}
