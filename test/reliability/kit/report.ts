/**
 * The figures a reliability run prints — its seed, a status histogram, latency percentiles, RSS before and after —
 * as `reliability:` lines on stdout (the test runner shows them; docs/reliability.md quotes them).
 */

/** Prints one figure line. */
export function figure(test: string, text: string): void {
  console.log(`reliability: ${test}: ${text}`);
}

/**
 * The value at quantile `q` (0..1) of `values`.
 * @example
 * percentile([3, 1, 2], 0.5) // 2
 */
export function percentile(values: readonly number[], q: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

/** `a × 3, b × 2`, most frequent first, then by name. */
export function histogram(counts: ReadonlyMap<string, number>): string {
  return [...counts]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([key, n]) => `${key} × ${n}`)
    .join(", ");
}

/** Adds one to `key`. */
export function count(counts: Map<string, number>, key: string): void {
  counts.set(key, (counts.get(key) ?? 0) + 1);
}

/** Milliseconds with two decimals. */
export function ms(value: number): string {
  return `${value.toFixed(2)} ms`;
}

/** Mebibytes with one decimal. */
export function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
