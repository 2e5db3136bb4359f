/**
 * The check a skill entry the host did not build itself must pass before it is served (docs/skills.md): the SEP's
 * entry schema (the SDK's own), a `SKILL.md` URI inside a named folder whose last segment is the frontmatter's name,
 * a complete file list (the `SKILL.md` itself included, every file once and inside the skill's folder) within the
 * SEP's limits. The gateway relays upstream entries, which are checked here like any extension's.
 */
import { SKILL_LIMITS, SkillSchema, type Skill } from "@modelcontextprotocol/core/ext/skills";

const MANIFEST = "/SKILL.md";

/** The folder URI of a skill (its `SKILL.md` URI without `/SKILL.md`), or undefined when the URI is not one. */
export function skillRootOf(uri: string): string | undefined {
  if (!uri.endsWith(MANIFEST)) return undefined;
  const root = uri.slice(0, -MANIFEST.length);
  const at = root.indexOf("://");
  return at > 0 && root.length > at + 3 ? root : undefined;
}

/** The last path segment of a folder URI, decoded. */
export function lastSegmentOf(root: string): string {
  const segment = root.slice(root.lastIndexOf("/") + 1);
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * What is wrong with an entry, or an empty list.
 * @example
 * servedEntryProblems(upstreamEntry) // [] when it may be served
 */
export function servedEntryProblems(value: unknown): string[] {
  const parsed = SkillSchema.safeParse(value);
  if (!parsed.success) return parsed.error.issues.map((issue) => `${issue.path.join(".") || "(entry)"}: ${issue.message}`);
  const entry: Skill = parsed.data;
  const root = skillRootOf(entry.uri);
  if (root === undefined) return [`uri ${JSON.stringify(entry.uri)} is not a SKILL.md inside a named folder`];
  const problems: string[] = [];
  if (lastSegmentOf(root) !== entry.frontmatter.name)
    problems.push(`frontmatter name ${JSON.stringify(entry.frontmatter.name)} is not the last segment of ${JSON.stringify(root)}`);
  if (entry.resources === "dynamic") return [...problems, 'resources is "dynamic": the host serves only skills that list every file with its digest'];
  const seen = new Set<string>();
  let bytes = 0;
  for (const file of entry.resources) {
    if (seen.has(file.uri)) problems.push(`${file.uri} is listed twice`);
    seen.add(file.uri);
    if (file.uri !== entry.uri && !file.uri.startsWith(`${root}/`)) problems.push(`${file.uri} is outside the skill's folder ${root}`);
    if (/[?#]/.test(file.uri)) problems.push(`${file.uri} has a query or fragment`);
    bytes += file.size;
  }
  if (!seen.has(entry.uri)) problems.push(`resources does not list ${entry.uri} itself`);
  if (entry.resources.length > SKILL_LIMITS.files || bytes > SKILL_LIMITS.bytes)
    problems.push(
      `${entry.resources.length} files / ${bytes} bytes is more than a host must accept (${SKILL_LIMITS.files} files, ${SKILL_LIMITS.bytes} bytes)`,
    );
  return problems;
}
