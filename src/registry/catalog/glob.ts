/**
 * Case-sensitive globs (`*` any run, `?` one character) for `deniedTools`. Kept tiny on purpose: tool names are
 * flat, so there is no path semantics, no braces and no classes.
 */

/**
 * Compiles globs into one predicate; an empty list matches nothing.
 * @example
 * const denied = globMatcher(["delete_*", "drop?"]);
 * denied("delete_repo") // true
 */
export function globMatcher(patterns: readonly string[]): (name: string) => boolean {
  if (patterns.length === 0) return () => false;
  const regexes = patterns.map(
    (p) =>
      new RegExp(
        `^${p
          .replace(/[.+^${}()|[\]\\]/g, "\\$&")
          .replace(/\*/g, ".*")
          .replace(/\?/g, ".")}$`,
        "s",
      ),
  );
  return (name) => regexes.some((r) => r.test(name));
}
