/**
 * Names a model sees. Providers accept tool names matching ^[a-zA-Z0-9_-]{1,64}$, so names are cleaned,
 * budgeted with a short stable hash, and qualified `<owner>__<name>` only where two owners offer the same name.
 * The host (owner = toolset) and the registry (owner = upstream server) share these rules.
 */
import { createHash } from "node:crypto";

export const NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;
export const NAME_MAX = 64;
export const QUALIFIER = "__";

function shortHash(text: string): string {
  return createHash("sha256").update(text).digest("hex").slice(0, 8);
}

/**
 * Replaces characters outside [a-zA-Z0-9_-] with `_`; a name over 64 characters is cut and given a stable
 * 8-character hash of the whole original, so two long names that share a prefix stay apart.
 * @example
 * cleanName("git.status") // "git_status"
 */
export function cleanName(name: string): string {
  let cleaned = name.replace(/[^a-zA-Z0-9_-]/g, "_");
  if (cleaned.length === 0) cleaned = "_";
  if (cleaned.length <= NAME_MAX) return cleaned;
  return `${cleaned.slice(0, NAME_MAX - 9)}_${shortHash(name)}`;
}

/**
 * The qualified, cleaned form `<owner>__<name>`.
 * @example
 * qualifiedName("fs", "status") // "fs__status"
 */
export function qualifiedName(owner: string, name: string): string {
  return cleanName(`${owner}${QUALIFIER}${name}`);
}

/** One thing to be named: who offers it and under what raw name. */
export interface NameClaim {
  owner: string;
  name: string;
}

/**
 * Gives each claim the name a model sees: the cleaned bare name when no other owner's cleaned name is the same,
 * else `<owner>__<name>` for every claim of that name. Clashes are checked again after qualifying (a bare
 * `a__b` can meet a qualified one); any that remain get a hash of owner and name. Order of claims does not matter.
 * @example
 * assignNames([{owner:"git",name:"status"},{owner:"fs",name:"status"},{owner:"git",name:"commit"}])
 * // ["git__status", "fs__status", "commit"]
 */
export function assignNames(claims: readonly NameClaim[]): string[] {
  const bare = claims.map((c) => cleanName(c.name));
  const ownersByBare = new Map<string, Set<string>>();
  bare.forEach((name, i) => {
    const owners = ownersByBare.get(name) ?? new Set<string>();
    owners.add(claims[i]!.owner);
    ownersByBare.set(name, owners);
  });
  const names = claims.map((c, i) => ((ownersByBare.get(bare[i]!)?.size ?? 0) > 1 ? qualifiedName(c.owner, c.name) : bare[i]!));
  const count = new Map<string, number>();
  for (const n of names) count.set(n, (count.get(n) ?? 0) + 1);
  return names.map((n, i) => {
    if ((count.get(n) ?? 0) <= 1) return n;
    const c = claims[i]!;
    const suffix = `_${shortHash(`${c.owner}\u0000${c.name}`)}`;
    return `${n.slice(0, NAME_MAX - suffix.length)}${suffix}`;
  });
}

/**
 * Splits a name a caller used into owner and name when it is written `<owner>__<name>` or `<owner>.<name>`
 * for one of the given owners (longest owner first, so `a__b` owners do not shadow each other).
 * @example
 * splitQualified("git.status", ["git", "fs"]) // { owner: "git", name: "status" }
 */
export function splitQualified(name: string, owners: Iterable<string>): { owner: string; name: string } | undefined {
  const sorted = [...owners].sort((a, b) => b.length - a.length);
  for (const owner of sorted) {
    for (const sep of [QUALIFIER, "."]) {
      const prefix = `${owner}${sep}`;
      if (name.startsWith(prefix) && name.length > prefix.length) return { owner, name: name.slice(prefix.length) };
    }
  }
  return undefined;
}
