/**
 * The reliability suite's randomness: one seed per run, printed, and taken from RELIABILITY_SEED when set, so any
 * run can be repeated exactly (`RELIABILITY_SEED=1234 npm run test:reliability`). mulberry32: small, fast, good
 * enough to pick fuzz cases.
 */

export interface Random {
  readonly seed: number;
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max]. */
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  chance(p: number): boolean;
  bytes(length: number): Buffer;
}

/**
 * @example
 * const random = seededRandom(); console.log(random.seed); random.pick(["GET", "POST"]);
 */
export function seededRandom(seed = Number(process.env.RELIABILITY_SEED ?? Math.floor(Math.random() * 2 ** 31))): Random {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  return {
    seed,
    next,
    int,
    pick: (items) => items[int(0, items.length - 1)]!,
    chance: (p) => next() < p,
    bytes: (length) => Buffer.from(Array.from({ length }, () => int(0, 255))),
  };
}
