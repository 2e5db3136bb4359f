/**
 * Which skills the host read and digested itself (docs/skills.md): what their reader returns is exactly what their
 * digests cover, so a read needs no second check. Kept apart from the loading code, which is imported only when an
 * extension ships skills, so a build and its per-request servers can ask without loading it.
 */
import type { ServedSkill } from "../extension/types.js";

const trusted = new WeakSet<ServedSkill>();

/** Marks a skill the host loaded from a folder. */
export function trustSkill(skill: ServedSkill): ServedSkill {
  trusted.add(skill);
  return skill;
}

/** True for a skill the host loaded from a folder (its reads need no digest check). */
export function isTrustedSkill(skill: ServedSkill): boolean {
  return trusted.has(skill);
}
