/**
 * What a toolset may be called. A toolset is chosen by URL (`?only=a,b`, `?a&b`), and build keys are made of
 * toolset names, so a name must be writable in a query without encoding and must not contain the grammar's own
 * separators (docs/design.md §6): a toolset named `a,b` would otherwise share a build with `?only=a,b`.
 */

/** Letters, digits and `. _ ~ - @ /`, 1 to 64 of them: npm package names (`@scope/name`) fit. */
export const TOOLSET_NAME_PATTERN = /^[A-Za-z0-9._~@/-]{1,64}$/;

/**
 * The selection grammar's reserved words: its keys (`?only` would mean "only nothing", not the toolset "only"), its
 * modifiers (`?readonly`, `?search`) and its list keywords (`toolsets=all`, `only=default,x`). A name means one thing
 * in every URL, so none of them can name a toolset (docs/design.md §4 rule 15).
 */
export const RESERVED_TOOLSET_NAMES: readonly string[] = ["all", "default", "only", "readonly", "search", "tools", "toolsets", "without"];

/** The allowed characters, for messages. */
export const TOOLSET_NAME_RULE =
  'use 1 to 64 letters, digits or ". _ ~ - @ /" (no commas, spaces, "&", "=", "+", "%", "#" or "?"), and not a word of the grammar: "all", "default", "only", "readonly", "search", "tools", "toolsets" or "without"';

/**
 * Why `name` cannot name a toolset, or undefined when it can.
 * @example
 * toolsetNameProblem("spaces")  // undefined
 * toolsetNameProblem("a,b")     // 'toolset name "a,b" cannot be written in a URL selection; use 1 to 64 letters, …'
 */
export function toolsetNameProblem(name: string): string | undefined {
  if (TOOLSET_NAME_PATTERN.test(name) && !RESERVED_TOOLSET_NAMES.includes(name)) return undefined;
  const shown = JSON.stringify(name.length > 70 ? `${name.slice(0, 67)}...` : name);
  const why = RESERVED_TOOLSET_NAMES.includes(name) ? "is a reserved word of the URL selection grammar" : "cannot be written in a URL selection";
  return `toolset name ${shown} ${why}; ${TOOLSET_NAME_RULE}`;
}
