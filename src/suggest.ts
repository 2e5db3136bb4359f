/**
 * "Did you mean …?" for a name that matched nothing (a config key, a toolset in a URL): the closest known name by edit
 * distance (case-insensitive, a swap of two neighbouring letters counts as one edit), when it is close enough to be a
 * likely typo. Names longer than any a person types are not compared (the cost grows with the product of lengths).
 */

/** Longer names than this are never suggested for (a toolset name is at most 64 characters; config keys are shorter). */
const MAX_COMPARED = 128;

function distance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * The known key `unknown` was most likely meant to be, or undefined.
 * @example
 * closestKey("prot", ["host", "path", "port"]) // "port"
 * closestKey("zzz", ["host", "port"])          // undefined
 */
export function closestKey(unknown: string, known: readonly string[]): string | undefined {
  if (unknown.length > MAX_COMPARED) return undefined;
  const target = unknown.toLowerCase();
  let best: { key: string; score: number } | undefined;
  for (const key of [...known].sort()) {
    const score = distance(target, key.toLowerCase());
    if (score <= Math.max(1, Math.floor(Math.max(target.length, key.length) / 3)) && (!best || score < best.score)) best = { key, score };
  }
  return best?.key;
}
