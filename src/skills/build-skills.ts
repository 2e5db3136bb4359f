/**
 * Which gathered skills a build serves (docs/skills.md, docs/serving.md): those of its active toolsets (a tool picked
 * with `tools=` brings no skill, as it brings no resource), each entry the host did not build checked first, and
 * under `readonly` only the skills whose tools the build serves. Then the table.
 */
import { McpHostError } from "../errors.js";
import type { Logger } from "../logger.js";
import { isTrustedSkill } from "./trusted-skills.js";
import { servedEntryProblems } from "./served-entry.js";
import { compileSkillTable, type PlacedSkill, type SkillTable } from "./skill-table.js";
import { frontmatterTools, servedReadOnly } from "./skill-tools.js";

/** What a build tells the skills it compiles. */
export interface SkillBuild {
  active: ReadonlySet<string>;
  readonly: boolean;
  /** The tools the build serves, as `<toolset>\u0000<raw name>`. */
  servedTools: ReadonlySet<string>;
  logger: Logger;
}

/** A skill entry that fails its check is left out of the build, with a warning naming its extension. */
function checked(p: PlacedSkill, logger: Logger): boolean {
  if (isTrustedSkill(p.skill)) return true;
  const problems = servedEntryProblems(p.skill.entry);
  if (problems.length === 0) return true;
  const uri = (p.skill.entry as { uri?: unknown } | undefined)?.uri;
  const failure = new McpHostError(
    "SKILL_INVALID",
    `extension "${p.extension}": skill ${typeof uri === "string" ? uri : "(no uri)"} (toolset "${p.toolset}") is left out: ${problems.join("; ")}`,
    { extension: p.extension },
  );
  logger.warn(failure.message, { code: failure.code, extension: p.extension, toolset: p.toolset });
  return false;
}

/**
 * @example
 * const skills = buildSkills(contents.skills, { active, readonly: view.readonly, servedTools, logger });
 */
export function buildSkills(placed: readonly PlacedSkill[], build: SkillBuild): SkillTable {
  const kept = placed.filter((p) => {
    if (!build.active.has(p.toolset)) return false;
    if (build.readonly && !servedReadOnly(p.skill.tools ?? frontmatterTools(p.skill.entry.frontmatter ?? {}), p.toolset, build.servedTools)) return false;
    return checked(p, build.logger);
  });
  return compileSkillTable(kept);
}
