/**
 * The memory of an introspection verifier: answers keyed by a SHA-256 of the token (never the token), each kept
 * until its own deadline, with a cap on entries because tokens are attacker-chosen strings. Concurrent
 * verifications of one token share a single in-flight request.
 */
import { createHash } from "node:crypto";

/**
 * The cache key for a token: its SHA-256, base64url.
 * @example
 * tokenKey("abc") // "ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0"
 */
export function tokenKey(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("base64url");
}

export interface TtlCache<V> {
  /** The value under `key` if its deadline (ms since epoch) is after `now`. */
  get(key: string, now: number): V | undefined;
  /** Keeps `value` until `until` (ms since epoch); a deadline not after `now` stores nothing. */
  set(key: string, value: V, until: number, now: number): void;
  /** Runs `load` once per key at a time; concurrent callers share its promise. */
  once(key: string, load: () => Promise<V>): Promise<V>;
  readonly size: number;
}

/**
 * A bounded cache with per-entry deadlines; when full, the oldest entry goes first.
 * @example
 * const cache = createTtlCache<string>(10_000); cache.set(tokenKey(t), "x", clock.now() + 60_000, clock.now());
 */
export function createTtlCache<V>(maxEntries: number): TtlCache<V> {
  const entries = new Map<string, { value: V; until: number }>();
  const inFlight = new Map<string, Promise<V>>();
  return {
    get(key, now) {
      const entry = entries.get(key);
      if (entry === undefined) return undefined;
      if (entry.until > now) return entry.value;
      entries.delete(key);
      return undefined;
    },
    set(key, value, until, now) {
      entries.delete(key);
      if (until <= now || maxEntries <= 0) return;
      while (entries.size >= maxEntries) entries.delete(entries.keys().next().value as string);
      entries.set(key, { value, until });
    },
    once(key, load) {
      const pending = inFlight.get(key);
      if (pending !== undefined) return pending;
      const started = load().finally(() => inFlight.delete(key));
      inFlight.set(key, started);
      return started;
    },
    get size() {
      return entries.size;
    },
  };
}
