/**
 * The skills an extension ships, read once when it is loaded (docs/skills.md): every `SkillSpec` expanded to its
 * folders, each folder read and checked on its own. A bad skill costs only itself — it is left out with a
 * `SKILL_INVALID` error naming the extension and the file — and the extension and its other skills serve.
 */
import { McpHostError } from "../errors.js";
import type { McpExtension, ServedSkill } from "../extension/types.js";
import type { SkillFileContent } from "../extension/types.js";
import { loadSkillFolder, SkillFolderProblem, type LoadedSkill } from "./load-skill-folder.js";
import { skillFolders } from "./skill-paths.js";
import { trustSkill } from "./trusted-skills.js";
import { defined } from "../defined.js";

/** What loading an extension's skills gave: the skills, and one error per skill (or pattern) left out. */
export interface ExtensionSkills {
  skills: ServedSkill[];
  problems: McpHostError[];
}

function servedOf(loaded: LoadedSkill, toolset: string | undefined, tools: readonly string[] | undefined): ServedSkill {
  const files = loaded.files;
  const skill: ServedSkill = {
    entry: loaded.entry,
    ...defined({ toolset, tools: tools === undefined ? undefined : [...tools] }),
    read: async (uri: string): Promise<SkillFileContent> => {
      const content = files.get(uri);
      if (content === undefined) throw new Error(`no file ${uri} in skill ${loaded.entry.frontmatter.name}`);
      return content;
    },
  };
  return trustSkill(skill);
}

function problemOf(extension: string, problem: unknown): McpHostError {
  if (problem instanceof SkillFolderProblem)
    return new McpHostError("SKILL_INVALID", `extension "${extension}": skill ${problem.file}: ${problem.problem}; ${problem.fix}. The skill is left out.`, {
      extension,
    });
  return new McpHostError("SKILL_INVALID", `extension "${extension}": a skill could not be loaded: ${(problem as Error).message}. The skill is left out.`, {
    extension,
    cause: problem,
  });
}

/**
 * @example
 * const { skills, problems } = await loadExtensionSkills(extension);
 * for (const problem of problems) logger.warn(problem.message, { code: problem.code, extension: extension.name });
 */
export async function loadExtensionSkills(extension: McpExtension): Promise<ExtensionSkills> {
  const skills: ServedSkill[] = [];
  const problems: McpHostError[] = [];
  for (const spec of extension.skills ?? []) {
    let folders: string[];
    try {
      folders = await skillFolders(spec.path);
    } catch (error) {
      problems.push(problemOf(extension.name, error));
      continue;
    }
    for (const folder of folders) {
      try {
        skills.push(servedOf(await loadSkillFolder(folder), spec.toolset, spec.tools));
      } catch (error) {
        problems.push(problemOf(extension.name, error));
      }
    }
  }
  return { skills, problems };
}
