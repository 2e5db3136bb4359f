/**
 * Validation of a configuration whose references are already resolved: the schema, then the cross-field rules, all
 * problems gathered. When two checks complain about the same key, the more specific one speaks: problems found
 * earlier in the pipeline (reading, references, credentials) win over rules, and rules over the schema.
 */
import { authKindProblems } from "./auth-kinds.js";
import { authProblems } from "./auth-rules.js";
import { httpProblems } from "./http-rules.js";
import { metricsProblems } from "./metrics-rules.js";
import { scaleOutProblems } from "./scale-out-rules.js";
import { formatKeyPath, type PathProblem } from "./problems.js";
import { isRecord } from "./schema-parts.js";
import { deploymentConfigSchema, type DeploymentConfig } from "./schema.js";
import { serverProblems } from "./server-rules.js";
import { zodProblems } from "./zod-issues.js";

/**
 * Keeps every problem of the first group, and of each later group those at a key no earlier group named.
 * @example
 * mergeProblems([refProblems, ruleProblems, schemaProblems])
 */
export function mergeProblems(groups: readonly (readonly PathProblem[])[]): PathProblem[] {
  const named = new Set<string>();
  const out: PathProblem[] = [];
  for (const group of groups) {
    const here = group.filter((p) => !named.has(formatKeyPath(p.path)));
    for (const p of here) named.add(formatKeyPath(p.path));
    out.push(...here);
  }
  return out;
}

/**
 * Validates `value` against the schema and every rule; `config` is set only when nothing is wrong.
 * @example
 * const { config, problems } = validateConfig(resolved, { earlier: refProblems });
 */
export function validateConfig(
  value: unknown,
  options: { earlier?: readonly PathProblem[]; authKinds?: readonly string[] } = {},
): { config?: DeploymentConfig; problems: PathProblem[] } {
  const parsed = deploymentConfigSchema.safeParse(value);
  const schema = parsed.success ? [] : zodProblems(parsed.error.issues, deploymentConfigSchema, value);
  const rules = isRecord(value)
    ? [
        ...serverProblems(value.servers),
        ...authProblems(value.auth),
        ...httpProblems(value.http),
        ...metricsProblems(value),
        ...scaleOutProblems(value.scaleOut),
        ...(options.authKinds ? authKindProblems(value.servers, options.authKinds) : []),
      ]
    : [];
  const problems = mergeProblems([options.earlier ?? [], rules, schema]);
  return problems.length === 0 && parsed.success ? { config: parsed.data, problems } : { problems };
}
