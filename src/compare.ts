/**
 * The one ordering of names: by UTF-16 code units, as `Array.prototype.sort()` does without a comparator. Every
 * list mcp-host reports (extensions, toolsets, tools) is sorted this way so output never depends on load or
 * filesystem order.
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
