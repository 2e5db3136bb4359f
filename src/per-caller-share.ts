/**
 * One caller's share of a table the whole deployment shares (docs/reliability.md, "Per-caller shares"): a share left
 * unset is at most half its table and never more than its absolute default, so one caller cannot fill a table that
 * an operator made small (`http.maxSessions: 20`) and lock every other caller out of it. A base module: the config
 * schema and the HTTP face apply the same rule. `http.maxConnectionsPerAddress` is no caller's share: it caps one
 * socket peer, and behind a proxy that one peer is every caller.
 */

/**
 * Each per-caller share: the table it is a share of, and the most it is when unset.
 * @example
 * CALLER_SHARES.maxSessionsPerCaller // { table: "maxSessions", most: 100 }
 */
export const CALLER_SHARES = {
  maxSessionsPerCaller: { table: "maxSessions", most: 100 },
  maxListenStreamsPerCaller: { table: "maxConnections", most: 32 },
  callerMaxConcurrent: { table: "maxConnections", most: 128 },
} as const;

/** A per-caller share's key (`http.*`). */
export type CallerShareKey = keyof typeof CALLER_SHARES;

/** The tables the shares are of (`http.maxSessions`, `http.maxConnections`). */
export type ShareTable = (typeof CALLER_SHARES)[CallerShareKey]["table"];

/**
 * The default of a share of `table` entries whose absolute default is `most`: half the table, at most `most`, at least 1.
 * @example
 * callerShare(20, 100) // 10
 * callerShare(10_000, 100) // 100
 */
export function callerShare(table: number, most: number): number {
  return Math.max(1, Math.min(most, Math.floor(table / 2)));
}
