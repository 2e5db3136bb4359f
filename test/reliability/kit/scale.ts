/**
 * How big a reliability run is: `npm test` runs the short version (a few thousand requests, well under a minute);
 * `npm run test:reliability` sets RELIABILITY_FULL=1 for the full one. Every loop of the suite is bounded by these
 * numbers and by time.
 */

/** True for the full run. */
export const FULL = process.env.RELIABILITY_FULL === "1";

/**
 * @example
 * const requests = scaled(3_000, 30_000);
 */
export function scaled(short: number, full: number): number {
  return FULL ? full : short;
}
