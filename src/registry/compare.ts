/**
 * The registry's two orders: names by code unit (the same on every machine and in every locale, so lists and
 * error messages come out the same everywhere) and strings longest first (so a longer server name or secret is
 * matched before a shorter one that is its prefix).
 */

/**
 * Orders names by UTF-16 code unit, never by locale.
 * @example
 * ["git__status", "fs__status"].sort(compareNames) // ["fs__status", "git__status"]
 */
export function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Orders strings longest first (ties keep their order).
 * @example
 * ["git", "github"].sort(longestFirst) // ["github", "git"]
 */
export function longestFirst(a: string, b: string): number {
  return b.length - a.length;
}
