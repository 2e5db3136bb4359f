/**
 * The environment a stdio server is started with: only the variables a program needs to run (the same short list
 * the SDK inherits on POSIX) plus what the spec declares. Never the parent's whole environment, which holds the
 * agent's own credentials.
 */

/** The variables a stdio child inherits from the parent. */
export const INHERITED_ENV_VARS = ["HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER"] as const;

/**
 * Builds a child's environment: the inherited list (values starting with `()` — exported shell functions — are
 * skipped) overlaid with the declared `env`.
 * @example
 * childEnv({ GIT_AUTHOR_NAME: "agent" }) // { HOME: "…", PATH: "…", …, GIT_AUTHOR_NAME: "agent" }
 */
export function childEnv(declared: Readonly<Record<string, string>> = {}, parent: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of INHERITED_ENV_VARS) {
    const value = parent[key];
    if (value !== undefined && !value.startsWith("()")) env[key] = value;
  }
  return { ...env, ...declared };
}
