/**
 * The one ordering of names: by UTF-16 code units, as `Array.prototype.sort()` does without a comparator. Every
 * list mcp-host and its registry report (extensions, toolsets, tools, servers) is sorted this way so output never
 * depends on load or filesystem order, or on the locale. Also the longest-first order the registry needs so a
 * longer server name or secret is matched before a shorter one that is its prefix.
 */

/**
 * @example
 * ["b", "a"].sort(compareNames) // ["a", "b"]
 */
export function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Orders objects by their `name`.
 * @example
 * tools.sort(byName)
 */
export function byName<T extends { readonly name: string }>(a: T, b: T): number {
  return compareNames(a.name, b.name);
}

/**
 * Orders strings longest first (ties keep their order).
 * @example
 * ["git", "github"].sort(longestFirst) // ["github", "git"]
 */
export function longestFirst(a: string, b: string): number {
  return b.length - a.length;
}
